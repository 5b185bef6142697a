package testcase

import (
	"go/importer"
	"go/token"
	"go/types"
	"sync"
)

// stdPackages caches the standard-library packages stdResult read, for
// the whole process: their export data does not change while it runs.
var stdPackages stdCache

// stdCache holds the packages read and the importer that reads them.
type stdCache struct {
	sync.Mutex
	fset *token.FileSet
	imp  types.Importer
	pkgs map[string]*types.Package
}

// StdFileSet is the file set of the positions of the types stdResult
// returns (and of Op.Concrete), for Deprecated.
func StdFileSet() *token.FileSet {
	stdPackages.Lock()
	defer stdPackages.Unlock()
	stdPackages.init()
	return stdPackages.fset
}

// init makes the importer, once.
func (s *stdCache) init() {
	if s.imp == nil {
		s.fset = token.NewFileSet()
		s.imp = importer.ForCompiler(s.fset, "gc", nil)
		s.pkgs = map[string]*types.Package{}
	}
}

// stdResult returns the type the standard-library function pkg.fn
// returns, read from the package's export data (the go command's build
// cache), or nil if it cannot be read. The type belongs to a universe of
// its own: it serves to name fields and methods, not to compare with the
// types of the loaded packages.
func stdResult(pkg, fn string) types.Type {
	stdPackages.Lock()
	defer stdPackages.Unlock()
	stdPackages.init()
	p, ok := stdPackages.pkgs[pkg]
	if !ok {
		p, _ = stdPackages.imp.Import(pkg)
		stdPackages.pkgs[pkg] = p // nil too: do not try again
	}
	if p == nil {
		return nil
	}
	f, ok := p.Scope().Lookup(fn).(*types.Func)
	if !ok {
		return nil
	}
	res := f.Type().(*types.Signature).Results()
	if res.Len() != 1 {
		return nil
	}
	return res.At(0).Type()
}
