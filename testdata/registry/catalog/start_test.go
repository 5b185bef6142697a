package catalog_test

import (
	"testing"

	"example.com/registry/catalog"
)

// The catalog starts empty: no test of this package adds to it.
func TestStartsEmpty(t *testing.T) {
	if shown := catalog.Show(); len(shown) != 0 {
		t.Errorf("Show() = %q, want nothing", shown)
	}
}
