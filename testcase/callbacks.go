package testcase

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// DrivenByCaller reports whether op calls a method of an interface that
// R's package declares and that R's own code calls through that
// interface: a method R drives itself, in an order of its own, on the
// implementations it is given or makes (goldmark's block parsers, whose
// Open, Continue and Close the parser calls in turn for each block). The
// answer is computed once per cluster, from R's SSA.
func (c *Cluster) DrivenByCaller(op *Op) bool {
	if op.Kind != OpCall || !op.Method || len(op.Params) == 0 || op.Func == nil || c.analysis == nil {
		return false
	}
	named, ok := types.Unalias(op.Params[0]).(*types.Named)
	if !ok || !types.IsInterface(named) || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != c.Caller.Path {
		return false
	}
	c.drivenOnce.Do(c.findDriven)
	return c.driven[named.Obj().Name()+"."+op.Func.Name()]
}

// findDriven collects the methods of R's own interfaces that R's code
// calls through them, as Interface.Method.
func (c *Cluster) findDriven() {
	c.driven = map[string]bool{}
	seen := map[*ssa.Function]bool{}
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				call, ok := in.(ssa.CallInstruction)
				if !ok || !call.Common().IsInvoke() {
					continue
				}
				named, ok := types.Unalias(call.Common().Value.Type()).(*types.Named)
				if ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == c.Caller.Path {
					c.driven[named.Obj().Name()+"."+call.Common().Method.Name()] = true
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			walk(anon)
		}
	}
	for _, f := range c.analysis.Caller.Funcs {
		walk(f.SSA)
	}
}

// ThirdPackage reports whether the package at path belongs to R's module
// and is neither R nor E.
func (c *Cluster) ThirdPackage(path string) bool {
	if c.Caller == nil || c.Caller.Module == nil || path == c.Caller.Path || c.Callee != nil && path == c.Callee.Path {
		return false
	}
	mod := c.Caller.Module.Path
	return path == mod || strings.HasPrefix(path, mod+"/")
}
