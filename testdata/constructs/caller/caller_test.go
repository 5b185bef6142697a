package caller_test

import (
	"errors"
	"slices"
	"testing"

	"example.com/constructs/callee"
	"example.com/constructs/caller"
)

func TestInterfaceDispatch(t *testing.T) {
	shapes := caller.DefaultShapes()
	if got := caller.InterfaceDispatch(shapes, 0); got != 21 {
		t.Errorf("InterfaceDispatch(all) = %d, want 21", got)
	}
	if got := caller.InterfaceDispatch(shapes, 10); got != 12 {
		t.Errorf("InterfaceDispatch(>=10) = %d, want 12", got)
	}
}

func TestCalleeInterface(t *testing.T) {
	if got := caller.CalleeInterface("fr", "Ana"); got != "Bonjour, Ana" {
		t.Errorf("got %q", got)
	}
	if got := caller.CalleeInterface("en", "Bo"); got != "Hello, Bo" {
		t.Errorf("got %q", got)
	}
}

func TestEmbedded(t *testing.T) {
	c := caller.Car{Engine: callee.Engine{Power: 150}, Name: "Vera"}
	if got := caller.EmbeddedValue(c); got != "Vera strong" {
		t.Errorf("EmbeddedValue = %q", got)
	}
	tr := caller.Truck{Engine: &callee.Engine{Power: 50}, Load: 60}
	if got := caller.EmbeddedPointer(tr); got != "strong" {
		t.Errorf("EmbeddedPointer = %q", got)
	}
	if got := caller.EmbeddedPointer(caller.Truck{}); got != "no engine" {
		t.Errorf("EmbeddedPointer(nil engine) = %q", got)
	}
}

func TestSortClosure(t *testing.T) {
	got := caller.SortClosure([]int{3, -1, 2, 1, -3})
	want := []int{-1, 1, 2, -3, 3}
	if !slices.Equal(got, want) {
		t.Errorf("SortClosure = %v, want %v", got, want)
	}
}

func TestHelpers(t *testing.T) {
	tests := []struct{ in, want int }{
		{-1, 0},
		{3, 4},
		{4, 13},
	}
	for _, tt := range tests {
		if got := caller.Helpers(tt.in); got != tt.want {
			t.Errorf("Helpers(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestGenerics(t *testing.T) {
	i, s := caller.Generics(3, 7, "pear", "apple")
	if i != 7 || s != "pear" {
		t.Errorf("Generics = %d, %q", i, s)
	}
	if got := caller.LargestInt([]int{4, 9, 2}); got != 9 {
		t.Errorf("LargestInt = %d", got)
	}
	if got, ok := caller.Last([]string{"a", "b"}); got != "b" || !ok {
		t.Errorf("Last = %q, %t", got, ok)
	}
	if got := caller.Size(map[string]int{"a": 1}); got != 1 {
		t.Errorf("Size = %d", got)
	}
	if got := caller.Negated(4); got != -4 {
		t.Errorf("Negated = %d", got)
	}
	if _, ok := caller.Largest[string](nil); ok {
		t.Error("Largest(nil) reported ok")
	}
}

func TestSwitches(t *testing.T) {
	if got := caller.TaggedSwitch("plus"); got != "small" {
		t.Errorf("TaggedSwitch(plus) = %q", got)
	}
	if got := caller.TaggedSwitch("noop"); got != "zero" {
		t.Errorf("TaggedSwitch(noop) = %q", got)
	}
	if got := caller.TypeSwitch(int64(4)); got != "integer" {
		t.Errorf("TypeSwitch(int64) = %q", got)
	}
	if got := caller.TypeSwitch(nil); got != "nothing" {
		t.Errorf("TypeSwitch(nil) = %q", got)
	}
}

func TestRanges(t *testing.T) {
	if got := caller.RangeSlice([]int{1, 2, -3}); got != 6 {
		t.Errorf("RangeSlice = %d", got)
	}
	if got := caller.RangeInt(4); got != 12 {
		t.Errorf("RangeInt = %d", got)
	}
	if got := caller.RangeBreak([]int{1, 2, 9, 3}, 5); got != 6 {
		t.Errorf("RangeBreak = %d", got)
	}
}

func TestForInfinite(t *testing.T) {
	if got := caller.ForInfinite(10); got != 4 {
		t.Errorf("ForInfinite(10) = %d, want 4", got)
	}
}

func TestRecover(t *testing.T) {
	if v, err := caller.Recover(5); err != nil || v != 5 {
		t.Errorf("Recover(5) = %d, %v", v, err)
	}
	if _, err := caller.Recover(0); err == nil {
		t.Error("Recover(0) returned no error")
	}
}

func TestGoroutines(t *testing.T) {
	if got := caller.Goroutines(3); got != 8 {
		t.Errorf("Goroutines(3) = %d, want 8", got)
	}
}

func TestTwoResults(t *testing.T) {
	if v, err := caller.TwoResults("42"); err != nil || v != 42 {
		t.Errorf("TwoResults(42) = %d, %v", v, err)
	}
	if _, err := caller.TwoResults(""); !errors.Is(err, callee.ErrEmpty) {
		t.Errorf("TwoResults(\"\") error = %v", err)
	}
}

func TestInit(t *testing.T) {
	if got := caller.Greeting(); got != "Hello, init" {
		t.Errorf("Greeting = %q", got)
	}
	if got := caller.DefaultScale(); got != 21 {
		t.Errorf("DefaultScale = %d", got)
	}
}
