package ccfg

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Function is one source function of a package: a declared function or
// method, a user init function, or a closure (function literal). Generic
// functions are represented once, by their generic body; instantiations map
// to it.
type Function struct {
	SSA *ssa.Function
	Pkg *Package
	// Name is a readable name: F, (*T).M, T.M, F$1 for closures.
	Name string
	// Key orders functions by source position.
	Key PosKey
	// External is true for functions code outside the package can call:
	// exported functions and exported methods of any named type.
	External bool
	// Graph is the function's CFG: node i < len(SSA.Blocks) is block i,
	// node Exit is a synthetic exit that every returning or panicking
	// block flows to.
	Graph *Graph
	Exit  int
	PD    *PostDom
	// Ifs is the number of SSA If instructions (for cyclomatic complexity).
	Ifs int
	// ifs maps a block index ending in an If to its branching node.
	ifs map[int]ifInfo
	// Refs are the same-package functions this function calls, invokes or
	// references as a value (closures it creates included), with the block
	// where that happens.
	Refs []Ref
}

// Ref is a call, invoke or function-value reference from one function of
// a package to another function of the same package.
type Ref struct {
	From  *Function
	Block int
	To    *Function
	Kind  RefKind
}

// RefKind says how a function refers to another.
type RefKind int

const (
	// RefCall is a call: static, an interface invoke, or a call through a
	// function value.
	RefCall RefKind = iota
	// RefArg passes the function (or a closure) as an argument to a call,
	// which will likely call it during the call.
	RefArg
	// RefValue takes the function as a value otherwise: stored, returned,
	// converted. It runs later, if at all.
	RefValue
)

// Runs reports whether the referenced function may run during the call of
// the referring one (a call, or a function passed to a call).
func (r Ref) Runs() bool { return r.Kind != RefValue }

// BranchAt returns the branching node of the If ending block b, whether
// the If's true successor is the node's false outcome, and ok=false if the
// block does not end in a mapped If.
func (f *Function) BranchAt(block int) (node *BranchNode, neg bool, ok bool) {
	in, ok := f.ifs[block]
	return in.node, in.neg, ok
}

// Outcome returns the outcome of the branching node taken along the CFG
// edge from block to its i-th successor.
func (f *Function) Outcome(block, succ int) (node *BranchNode, outcome bool, ok bool) {
	in, ok := f.ifs[block]
	if !ok {
		return nil, false, false
	}
	return in.node, (succ == 0) != in.neg, true
}

// Pos returns the position of the function's declaration.
func (f *Function) Pos() token.Pos { return f.SSA.Pos() }

// CCFG is the package-level control flow graph of one package: the CFGs of
// all its source functions, linked by intra-package call edges, with a
// synthetic ENTRY whose edges to the externally callable functions are the
// entry:<func> pseudo-branches, and a synthetic EXIT reached by every exit
// of an externally callable function.
//
// The graph is stored compositionally: per-function CFGs (Function.Graph)
// and the call/reference edges between them (Function.Refs, Callers).
// Post-dominance across functions is computed over realizable paths only
// (a callee returns to the caller that called it); see package couple.
type CCFG struct {
	Prog *Program
	Pkg  *Package
	// Funcs are the package's source functions, sorted by position.
	Funcs []*Function
	// Nodes are the package's branching nodes, sorted by position.
	Nodes []*BranchNode
	// External are the externally callable functions (the successors of
	// ENTRY), sorted by position.
	External []*Function
	// Callers lists, per function, the same-package places that call or
	// reference it.
	Callers map[*Function][]Ref
	// Unmapped counts SSA Ifs that belong to no source construct (constant
	// conditions, range-over-func bookkeeping).
	Unmapped int
	byFn     map[*ssa.Function]*Function
	byPos    map[token.Pos]*BranchNode
}

// Function returns the source function of fn (after mapping instances to
// their generic origin), or nil if fn is not a source function of this
// package.
func (c *CCFG) Function(fn *ssa.Function) *Function {
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return c.byFn[fn]
}

// Key returns the deterministic ordering key of a position.
func (c *CCFG) Key(pos token.Pos) PosKey { return c.Prog.Key(pos) }

// NodeAt returns the branching node anchored at pos, or nil.
func (c *CCFG) NodeAt(pos token.Pos) *BranchNode { return c.byPos[pos] }

type builderCtx struct {
	prog  *Program
	ix    *astIndex
	nodes map[token.Pos]*BranchNode
}

// BuildCCFG builds the CCFG of a package loaded from source. The resolver
// decides the targets of interface invokes (see Resolver).
func BuildCCFG(prog *Program, pkg *Package, res *Resolver) *CCFG {
	c := &CCFG{
		Prog:    prog,
		Pkg:     pkg,
		Callers: map[*Function][]Ref{},
		byFn:    map[*ssa.Function]*Function{},
		byPos:   map[token.Pos]*BranchNode{},
	}
	ctx := &builderCtx{prog: prog, ix: buildASTIndex(pkg.Files), nodes: c.byPos}
	for _, fn := range SourceFunctions(prog, pkg) {
		f := &Function{SSA: fn, Pkg: pkg, Name: FuncName(fn), Key: prog.Key(fn.Pos()), ifs: map[int]ifInfo{}}
		f.External = isExternal(fn)
		c.Funcs = append(c.Funcs, f)
		c.byFn[fn] = f
	}
	for _, f := range c.Funcs {
		buildCFG(f)
		c.Unmapped += ctx.mapIfs(f)
	}
	for _, f := range c.Funcs {
		f.Refs = c.refs(f, res)
		for _, r := range f.Refs {
			c.Callers[r.To] = append(c.Callers[r.To], r)
		}
		if f.External {
			c.External = append(c.External, f)
		}
	}
	for _, n := range c.byPos {
		c.Nodes = append(c.Nodes, n)
	}
	sort.Slice(c.Nodes, func(i, j int) bool { return c.Nodes[i].Key.Less(c.Nodes[j].Key) })
	for i, n := range c.Nodes {
		n.Index = i
	}
	return c
}

// SourceFunctions lists the source functions of a package: declared
// functions and methods (generic ones by their generic body), user init
// functions and all function literals nested in them, sorted by position.
func SourceFunctions(prog *Program, pkg *Package) []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || seen[fn] || fn.Blocks == nil {
			return
		}
		seen[fn] = true
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, file := range pkg.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := pkg.Info.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			if fd.Recv == nil && fd.Name.Name == "init" {
				continue // handled below: inits are not in Defs as callable funcs
			}
			add(prog.SSA.FuncValue(obj))
		}
	}
	// User init functions are package members named init#N.
	var inits []*ssa.Function
	for name, m := range pkg.SSA.Members {
		if fn, ok := m.(*ssa.Function); ok && len(name) > 5 && name[:5] == "init#" {
			inits = append(inits, fn)
		}
	}
	sort.Slice(inits, func(i, j int) bool { return prog.Key(inits[i].Pos()).Less(prog.Key(inits[j].Pos())) })
	for _, fn := range inits {
		add(fn)
	}
	sort.SliceStable(out, func(i, j int) bool { return prog.Key(out[i].Pos()).Less(prog.Key(out[j].Pos())) })
	return out
}

// isExternal reports whether code outside the package can call fn.
func isExternal(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Synthetic != "" {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() {
		return false
	}
	sig := obj.Type().(*types.Signature)
	if sig.Recv() == nil {
		return obj.Parent() == obj.Pkg().Scope() && obj.Name() != "main"
	}
	return true
}

// FuncName is a readable name for a function: F, (*T).M, T.M, F$1.
func FuncName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Parent() != nil {
		return FuncName(fn.Parent()) + fn.Name()[len(fn.Parent().Name()):]
	}
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		ptr := false
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = p.Elem(), true
		}
		name := "?"
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name()
		}
		if ptr {
			return "(*" + name + ")." + fn.Name()
		}
		return name + "." + fn.Name()
	}
	return fn.Name()
}

// buildCFG builds f.Graph over SSA blocks plus a synthetic exit and its
// post-dominator tree.
func buildCFG(f *Function) {
	blocks := f.SSA.Blocks
	n := len(blocks)
	g := &Graph{Succs: make([][]int, n+1)}
	for i, b := range blocks {
		if len(b.Succs) == 0 {
			g.Succs[i] = []int{n}
			continue
		}
		for _, s := range b.Succs {
			g.Succs[i] = append(g.Succs[i], s.Index)
		}
	}
	f.Graph = g
	f.Exit = n
	f.PD = NewPostDom(g, n)
}

// mapIfs maps every If of f to its branching node; it returns the number
// of Ifs left unmapped.
func (c *builderCtx) mapIfs(f *Function) int {
	unmapped := 0
	var pending []*ssa.BasicBlock
	for _, b := range f.SSA.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		f.Ifs++
		if n, neg, ok := c.mapIf(f, b, iff); ok {
			f.ifs[b.Index] = ifInfo{node: n, neg: neg}
		} else {
			pending = append(pending, b)
		}
	}
	// The first test of a range over an int (0 < n) shares its body block
	// with the loop test: both belong to the range statement.
	for _, b := range pending {
		mapped := false
		for idx, in := range f.ifs {
			if in.node.Kind == KindRange && f.SSA.Blocks[idx].Succs[0] == b.Succs[0] {
				f.ifs[b.Index] = in
				mapped = true
				break
			}
		}
		if !mapped {
			unmapped++
		}
	}
	return unmapped
}

// refs lists f's same-package calls, invokes and function references.
func (c *CCFG) refs(f *Function, res *Resolver) []Ref {
	var out []Ref
	type key struct {
		block int
		to    *Function
		kind  RefKind
	}
	seen := map[key]bool{}
	add := func(block int, to *Function, kind RefKind) {
		if to == nil {
			return
		}
		k := key{block, to, kind}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, Ref{From: f, Block: block, To: to, Kind: kind})
	}
	for _, b := range f.SSA.Blocks {
		for _, instr := range b.Instrs {
			var callee ssa.Value
			var args []ssa.Value
			if call, ok := instr.(ssa.CallInstruction); ok {
				callee, args = call.Common().Value, call.Common().Args
				for _, t := range res.Callees(call.Common(), c.Pkg) {
					add(b.Index, c.Function(t), RefCall)
				}
			}
			if _, ok := instr.(*ssa.DebugRef); ok {
				continue
			}
			if mc, ok := instr.(*ssa.MakeClosure); ok && onlyCalled(mc) {
				continue // the calls of the closure are the references
			}
			var ops [8]*ssa.Value
			for _, op := range instr.Operands(ops[:0]) {
				if op == nil || *op == nil || *op == callee {
					continue
				}
				var fn *ssa.Function
				switch v := (*op).(type) {
				case *ssa.Function:
					fn = v
				case *ssa.MakeClosure:
					// A closure referenced by an instruction that uses it:
					// counted where it is passed or stored, below.
					if onlyCalled(v) {
						continue
					}
					fn = v.Fn.(*ssa.Function)
				default:
					continue
				}
				kind := RefValue
				for _, a := range args {
					if a == *op {
						kind = RefArg
					}
				}
				add(b.Index, c.Function(res.Canonical(fn)), kind)
			}
		}
	}
	return out
}

// onlyCalled reports whether a closure is only ever called where it is
// created (directly, or through a local variable), never stored or passed
// on. Such a closure runs only at its calls, which are references of their
// own; otherwise creating it counts as a reference, since it may run
// whenever its creator lets it escape.
func onlyCalled(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil {
		return false
	}
	called := false
	for _, r := range *refs {
		switch u := r.(type) {
		case *ssa.DebugRef:
			continue
		case ssa.CallInstruction:
			if u.Common().Value != mc {
				return false
			}
			called = true
		default:
			return false
		}
	}
	return called
}

// BlocksOf returns the blocks of f whose If belongs to node n (a range
// over an integer has two).
func (f *Function) BlocksOf(n *BranchNode) []int {
	var out []int
	for b, in := range f.ifs {
		if in.node == n {
			out = append(out, b)
		}
	}
	sort.Ints(out)
	return out
}
