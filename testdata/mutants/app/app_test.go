package app_test

import (
	"testing"

	"example.com/mutants/app"
)

func TestAddCount(t *testing.T) {
	inv := app.NewInventory()
	inv.Add("Tea", 3)
	if got := inv.Count("tea"); got != 3 {
		t.Fatalf("Count = %d, want 3", got)
	}
}

func TestMissing(t *testing.T) {
	inv := app.NewInventory()
	if got := inv.Count("coffee"); got != -1 {
		t.Fatalf("Count = %d, want -1", got)
	}
}

// The only test that reaches Clamp runs in parallel, after the others.
func TestCappedParallel(t *testing.T) {
	t.Parallel()
	inv := app.NewInventory()
	inv.Add("mug", 5)
	if got := inv.Capped("mug", 3); got != 3 {
		t.Fatalf("Capped = %d, want 3", got)
	}
}

func TestSteps(t *testing.T) {
	if got := app.Steps(3); got != 3 {
		t.Fatalf("Steps = %d, want 3", got)
	}
}

func TestLabel(t *testing.T) {
	if got := app.Label("abc"); got != 3 {
		t.Fatalf("Label = %d, want 3", got)
	}
}
