package catalog_test

import (
	"testing"

	"example.com/library/catalog"
)

func TestAddAndTake(t *testing.T) {
	c := catalog.New()
	if err := c.Add(" Dune ", 2); err != nil {
		t.Fatal(err)
	}
	if !c.Take("dune") {
		t.Fatal("no copy of dune")
	}
	if got := c.Copies("DUNE"); got != 0 {
		t.Fatalf("copies of DUNE: got %d, want 0 (capitals stay)", got)
	}
}
