package testcase

import (
	"go/types"

	"github.com/cling-go/cling/ccfg"
	"golang.org/x/tools/go/ssa"
)

// pathPackages are the packages whose functions take paths of files and
// directories.
var pathPackages = map[string]bool{"os": true, "io/ioutil": true, "path/filepath": true, "io/fs": true}

// maxPathDepth bounds the calls of R and E a path is followed through.
const maxPathDepth = 4

// takesPath reports whether fn, a function or method of R or E, passes
// its input idx (receiver first) on as a path (see UsePath).
func (c *Cluster) takesPath(fn *types.Func, idx int) bool {
	if c.analysis == nil || fn.Pkg() == nil || (fn.Pkg() != c.Caller.Types && fn.Pkg() != c.Callee.Types) {
		return false
	}
	if c.paths == nil {
		c.paths = map[pathKey]bool{}
	}
	return c.passesPath(c.analysis.Prog.SSA.FuncValue(fn.Origin()), idx, 0)
}

// TempPaths are the ops of paths the test owns (OpTempDir): a directory,
// and a file in one.
func (c *Cluster) TempPaths() []*Op {
	if c.tempPaths == nil {
		str := types.Typ[types.String]
		c.tempPaths = []*Op{
			c.register(&Op{Kind: OpTempDir, Name: "t.TempDir()", Type: str}),
			c.register(&Op{Kind: OpTempDir, Name: `filepath.Join(t.TempDir(), "file")`, Type: str, File: true}),
		}
	}
	return c.tempPaths
}

// pathKey is a parameter whose use as a path was decided.
type pathKey struct {
	fn  *ssa.Function
	idx int
}

func (c *Cluster) passesPath(fn *ssa.Function, idx, depth int) bool {
	if fn == nil || idx >= len(fn.Params) || depth > maxPathDepth {
		return false
	}
	key := pathKey{fn, idx}
	if used, ok := c.paths[key]; ok {
		return used
	}
	c.paths[key] = false // cycle guard
	used := c.reachesPath(fn.Params[idx], depth)
	c.paths[key] = used
	return used
}

// reachesPath reports whether the string v, or a value made from it, is
// passed as a path (see callTakesPath).
func (c *Cluster) reachesPath(v ssa.Value, depth int) bool {
	values := []ssa.Value{v}
	seen := map[ssa.Value]bool{}
	for len(values) > 0 {
		v := values[0]
		values = values[1:]
		if seen[v] || v.Referrers() == nil {
			continue
		}
		seen[v] = true
		for _, instr := range *v.Referrers() {
			switch x := instr.(type) {
			case *ssa.BinOp: // dir + "/out.md"
				values = append(values, x)
			case *ssa.Phi, *ssa.ChangeType, *ssa.Convert:
				values = append(values, x.(ssa.Value))
			case *ssa.Store:
				// An element of the slice of a variadic call,
				// filepath.Join(dir, name): the array it is stored in,
				// and the slices of that array.
				if ia, ok := x.Addr.(*ssa.IndexAddr); ok && x.Val == v {
					values = append(values, ia.X)
				}
			case *ssa.Slice:
				values = append(values, x)
			case *ssa.Call:
				if c.callTakesPath(x.Call, v, depth) {
					return true
				}
			}
		}
	}
	return false
}

// PathField reports whether the code of R or E uses the string field f
// of a struct as a path: a value read from it is passed as one (cobra's
// GenManTreeOptions.Path). The fields are found once, over every
// function of R and E, in the order of their positions.
func (c *Cluster) PathField(f *types.Var) bool {
	if c.pathFields == nil {
		c.pathFields = map[*types.Var]bool{}
		if c.paths == nil {
			c.paths = map[pathKey]bool{}
		}
		if c.analysis != nil {
			for _, g := range []*ccfg.CCFG{c.analysis.Caller, c.analysis.Callee} {
				if g == nil {
					continue
				}
				for _, fn := range g.Funcs {
					c.findPathFields(fn.SSA)
				}
			}
		}
	}
	return c.pathFields[f]
}

// findPathFields adds to c.pathFields the string fields whose values fn
// passes as paths.
func (c *Cluster) findPathFields(fn *ssa.Function) {
	found := func(f *types.Var, v ssa.Value) {
		if f != nil && !c.pathFields[f] && isString(f.Type()) && c.reachesPath(v, 0) {
			c.pathFields[f] = true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.FieldAddr:
				f := structField(x.X.Type().Underlying().(*types.Pointer).Elem(), x.Field)
				for _, r := range *x.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok {
						found(f, load)
					}
				}
			case *ssa.Field:
				found(structField(x.X.Type(), x.Field), x)
			}
		}
	}
}

// structField is field i of the struct type t (or nil).
func structField(t types.Type, i int) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// isString reports whether t is string itself.
func isString(t types.Type) bool { return types.Identical(t, types.Typ[types.String]) }

// callTakesPath reports whether a static call takes v as a path: a
// function of pathPackages, or a function of R or E that passes the
// parameter v fills on as one.
func (c *Cluster) callTakesPath(call ssa.CallCommon, v ssa.Value, depth int) bool {
	callee := call.StaticCallee()
	if callee == nil {
		return false
	}
	pkg := calleePackage(callee)
	if pkg == nil {
		return false
	}
	if pathPackages[pkg.Path()] {
		return true
	}
	if pkg != c.Caller.Types && pkg != c.Callee.Types {
		return false
	}
	for i, a := range call.Args {
		if a == v && c.passesPath(callee, i, depth+1) {
			return true
		}
	}
	return false
}

// calleePackage is the package that declares a called function (that of
// its generic origin for an instance).
func calleePackage(fn *ssa.Function) *types.Package {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg
	}
	if obj := fn.Object(); obj != nil {
		return obj.Pkg()
	}
	return nil
}
