package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The file of reproducers avoids every package-scope name of the test
// file it goes with, its declared struct types included: the tag compiles
// both. With --faults-only, that test file is the one on disk; the old
// file of reproducers, which is written anew, takes no name.
func TestNamesBesideFaults(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("shop_test.go", "package shop_test\n\nfunc TestOwn(t *testing.T) {}\n\ntype fixture struct{}\n")
	write("cling_money_faults_test.go", "package shop_test\n\ntype stale struct{}\n")
	written := "package shop_test\n\ntype item1 struct{}\n\nfunc mustPanic() {}\n\nfunc TestAdd(t *testing.T) {}\n"
	a := &couple.Analysis{Caller: &ccfg.CCFG{Pkg: &ccfg.Package{Name: "shop", Dir: dir}}}
	j := &job{a: a, out: filepath.Join(dir, "cling_money_test.go"), faultsOut: filepath.Join(dir, "cling_money_faults_test.go")}

	j.src = []byte(written)
	got := j.namesBesideFaults()
	for _, name := range []string{"TestOwn", "fixture", "item1", "mustPanic", "TestAdd"} {
		assert.True(t, got[name], name)
	}
	assert.False(t, got["stale"], "the old file of reproducers is replaced")

	j.src, j.cfg.FaultsOnly = nil, true
	assert.False(t, j.namesBesideFaults()["item1"], "no test file on disk yet")
	write("cling_money_test.go", written)
	assert.True(t, j.namesBesideFaults()["item1"], "the test file on disk stays")
}
