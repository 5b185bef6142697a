// Package couple implements the Coupled Branches Criterion for a pair of Go
// packages: a caller R and a callee E. It finds the call sites from R to E,
// the caller targets B_R(s) (branches of R that lead unavoidably to s), the
// callee targets B_E(s) (branches of E reachable from the functions s may
// call), their products, the coupled branches, and the covering functions
// of R from which some call site is reachable. It numbers the branching
// nodes for the probes (Index) and answers control-dependence queries
// (Controlling) for the search's objective.
package couple

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/cling-go/cling/ccfg"
	"golang.org/x/tools/go/ssa"
)

// Branch is one branch of a CCFG: an outcome of a branching node, or an
// entry:<func> pseudo-branch from the synthetic ENTRY to an externally
// callable function.
type Branch struct {
	// Node is the branching node; nil for a pseudo-branch.
	Node    *ccfg.BranchNode
	Outcome bool
	// Entry is the function of a pseudo-branch; nil otherwise.
	Entry *ccfg.Function
}

// ID is the branch's name: file:line:col:true|false, or entry:<func>.
func (b Branch) ID() string {
	if b.Node == nil {
		return "entry:" + b.Entry.Name
	}
	return b.Node.BranchID(b.Outcome)
}

// IsEntry reports whether b is an entry:<func> pseudo-branch.
func (b Branch) IsEntry() bool { return b.Node == nil }

func (b Branch) key() ccfg.PosKey {
	if b.Node == nil {
		return b.Entry.Key
	}
	return b.Node.Key
}

func branchLess(a, b Branch) bool {
	if a.IsEntry() != b.IsEntry() {
		return a.IsEntry()
	}
	if a.key() != b.key() {
		return a.key().Less(b.key())
	}
	return a.Outcome && !b.Outcome
}

// CallKind says how a call site calls: a plain call, a go statement or a
// defer statement.
type CallKind int

const (
	// PlainCall is an ordinary call expression.
	PlainCall CallKind = iota
	// GoCall is the call of a go statement.
	GoCall
	// DeferCall is the call of a defer statement.
	DeferCall
)

// CallSite is a call from a source function of R to one or more functions
// declared in E.
type CallSite struct {
	// Index is the site's position in Analysis.Sites.
	Index int
	// Pos is the position of the called function's name (the selector of
	// a method call), which names the site in reports.
	Pos token.Pos
	// Call is the call expression.
	Call *ast.CallExpr
	Kind CallKind
	// Func is the function of R containing the call; Block is the SSA block.
	Func  *ccfg.Function
	Block int
	// Targets are the functions of E the call may reach, sorted by position.
	Targets []*ccfg.Function
	// CallerTargets is B_R(s); CalleeTargets is B_E(s).
	CallerTargets []Branch
	CalleeTargets []Branch
	key           ccfg.PosKey
}

// Goal is one coupled branch (s, r, e).
type Goal struct {
	Index int
	Site  *CallSite
	R, E  Branch
}

// Analysis is the result of analysing one (R, E) pair.
type Analysis struct {
	Prog   *ccfg.Program
	Caller *ccfg.CCFG
	// Callee is E; nil in a merged analysis (see Merge and Callees).
	Callee *ccfg.CCFG
	Sites  []*CallSite
	Goals  []Goal
	// Covering are the externally callable functions of R from which a call
	// site is reachable, sorted by position.
	Covering []*ccfg.Function
	ctl      *controlCache
	index    *Index
	// callees are the callee packages of a merged analysis, nil otherwise.
	callees []*ccfg.CCFG
}

// LoadPair loads caller R and callee E, each named as on a command line
// (an import path, or a directory relative to cfg.Dir), and analyzes them.
// cfg.Patterns is ignored.
func LoadPair(cfg ccfg.LoadConfig, caller, callee string) (*Analysis, error) {
	cfg.Patterns = []string{caller, callee}
	prog, err := ccfg.Load(cfg)
	if err != nil {
		return nil, err
	}
	callerPath, err := ccfg.ImportPathOf(prog, caller)
	if err != nil {
		return nil, err
	}
	calleePath, err := ccfg.ImportPathOf(prog, callee)
	if err != nil {
		return nil, err
	}
	return Analyze(prog, callerPath, calleePath)
}

// Analyze computes the coupled branches of caller R and callee E, both
// loaded from source in prog.
func Analyze(prog *ccfg.Program, callerPath, calleePath string) (*Analysis, error) {
	if callerPath == calleePath {
		return nil, &ccfg.LoadError{Msg: fmt.Sprintf("caller and callee are the same package (%s)", callerPath)}
	}
	rp, ep := prog.Package(callerPath), prog.Package(calleePath)
	if rp == nil {
		return nil, &ccfg.LoadError{Msg: fmt.Sprintf("unknown package %s", callerPath)}
	}
	if ep == nil {
		return nil, &ccfg.LoadError{Msg: fmt.Sprintf("unknown package %s", calleePath)}
	}
	res := ccfg.NewResolver(prog)
	r := ccfg.BuildCCFG(prog, rp, res)
	e := ccfg.BuildCCFG(prog, ep, res)
	a := NewAnalysis(prog, r, e, res)
	if len(a.Sites) == 0 {
		return nil, &ccfg.LoadError{Msg: fmt.Sprintf("no call sites from %s to %s", callerPath, calleePath)}
	}
	return a, nil
}

// NewAnalysis computes the criterion for two already built CCFGs. It
// returns an analysis with no sites when R does not call E.
func NewAnalysis(prog *ccfg.Program, r, e *ccfg.CCFG, res *ccfg.Resolver) *Analysis {
	return newAnalysis(prog, r, e, FindCallSites(r, e, res), newControlCache())
}

func newAnalysis(prog *ccfg.Program, r, e *ccfg.CCFG, sites []*CallSite, ctl *controlCache) *Analysis {
	a := &Analysis{Prog: prog, Caller: r, Callee: e, ctl: ctl, Sites: sites}
	for _, s := range a.Sites {
		s.CallerTargets = a.ctl.controlling(r, s.Func, []int{s.Block})
		s.CalleeTargets = CalleeTargets(e, s.Targets)
		for _, rb := range s.CallerTargets {
			for _, eb := range s.CalleeTargets {
				a.Goals = append(a.Goals, Goal{Index: len(a.Goals), Site: s, R: rb, E: eb})
			}
		}
	}
	a.Covering = CoveringFunctions(r, a.Sites)
	return a
}

// FindCallSites lists the call sites of R into E, sorted by position.
func FindCallSites(r, e *ccfg.CCFG, res *ccfg.Resolver) []*CallSite {
	return FindAllCallSites(r, []*ccfg.CCFG{e}, res)[e]
}

// FindAllCallSites lists, for each callee package among callees, the call
// sites of R into it, sorted by position. A call whose targets lie in
// several callee packages is a call site of each, with that package's
// targets.
func FindAllCallSites(r *ccfg.CCFG, callees []*ccfg.CCFG, res *ccfg.Resolver) map[*ccfg.CCFG][]*CallSite {
	calls := callExprs(r.Pkg.Files)
	byPkg := map[*types.Package]*ccfg.CCFG{}
	for _, e := range callees {
		if e != r {
			byPkg[e.Pkg.Types] = e
		}
	}
	deps := transitiveImports(r.Pkg.Types)
	out := map[*ccfg.CCFG][]*CallSite{}
	type seenKey struct {
		e      *ccfg.CCFG
		lparen token.Pos
	}
	seen := map[seenKey]bool{}
	for _, f := range r.Funcs {
		for _, b := range f.SSA.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				targets := map[*ccfg.CCFG][]*ccfg.Function{}
				invoke := ci.Common().IsInvoke()
				for _, t := range res.Callees(ci.Common(), r.Pkg) {
					if t.Pkg == nil {
						continue
					}
					e := byPkg[t.Pkg.Pkg]
					if e == nil || (invoke && !deps[t.Pkg.Pkg]) {
						continue
					}
					if tf := e.Function(t); tf != nil {
						targets[e] = append(targets[e], tf)
					}
				}
				if len(targets) == 0 {
					continue
				}
				call := calls[ci.Common().Pos()]
				if call == nil {
					continue // no call expression in the source (implicit call)
				}
				kind := PlainCall
				switch instr.(type) {
				case *ssa.Go:
					kind = GoCall
				case *ssa.Defer:
					kind = DeferCall
				}
				for e, ts := range targets {
					k := seenKey{e, call.Lparen}
					if seen[k] {
						continue
					}
					seen[k] = true
					sort.Slice(ts, func(i, j int) bool { return ts[i].Key.Less(ts[j].Key) })
					out[e] = append(out[e], &CallSite{Pos: calleeNamePos(call), Call: call, Kind: kind, Func: f, Block: b.Index, Targets: ts, key: r.Key(call.Lparen)})
				}
			}
		}
	}
	for _, sites := range out {
		sort.Slice(sites, func(i, j int) bool { return sites[i].key.Less(sites[j].key) })
		for i, s := range sites {
			s.Index = i
		}
	}
	return out
}

// transitiveImports is the set of packages p depends on.
//
// An interface invoke in R reaches a method of E only when R depends on E:
// otherwise values of E's types reach R only through R's clients (E plugs
// into a framework R, as a visitor into a tree walker), and the pair is an
// integration of E with R, analysed the other way round.
func transitiveImports(p *types.Package) map[*types.Package]bool {
	seen := map[*types.Package]bool{}
	var walk func(*types.Package)
	walk = func(q *types.Package) {
		for _, i := range q.Imports() {
			if !seen[i] {
				seen[i] = true
				walk(i)
			}
		}
	}
	walk(p)
	return seen
}

// callExprs indexes the call expressions of files by their Lparen, which is
// the position SSA gives a call.
func callExprs(files []*ast.File) map[token.Pos]*ast.CallExpr {
	m := map[token.Pos]*ast.CallExpr{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				m[c.Lparen] = c
			}
			return true
		})
	}
	return m
}

// calleeNamePos is the position of the name of the called function.
func calleeNamePos(c *ast.CallExpr) token.Pos {
	fun := ast.Unparen(c.Fun)
	for {
		switch f := fun.(type) {
		case *ast.IndexExpr:
			fun = f.X
			continue
		case *ast.IndexListExpr:
			fun = f.X
			continue
		}
		break
	}
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Pos()
	case *ast.Ident:
		return f.Pos()
	}
	return c.Lparen
}

// CalleeTargets is B_E(s): both branches of every branching node in the
// functions of E reachable, in E's CCFG, from the entries of targets.
func CalleeTargets(e *ccfg.CCFG, targets []*ccfg.Function) []Branch {
	reach := map[*ccfg.Function]bool{}
	for _, f := range ReachableFunctions(targets) {
		reach[f] = true
	}
	var out []Branch
	for _, n := range e.Nodes {
		if reach[n.Func] {
			out = append(out, Branch{Node: n, Outcome: true}, Branch{Node: n, Outcome: false})
		}
	}
	return out
}

// ReachableFunctions lists the functions that may run during a call of
// one of roots: reachable through same-package calls (static, invokes,
// through function values) and functions passed to calls, sorted by
// position. Functions merely stored as values run later, if at all.
func ReachableFunctions(roots []*ccfg.Function) []*ccfg.Function {
	reach := map[*ccfg.Function]bool{}
	var out []*ccfg.Function
	stack := append([]*ccfg.Function(nil), roots...)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reach[f] {
			continue
		}
		reach[f] = true
		out = append(out, f)
		for _, r := range f.Refs {
			if r.Runs() && !reach[r.To] {
				stack = append(stack, r.To)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.Less(out[j].Key) })
	return out
}

// CoveringFunctions are the externally callable functions of R from which
// a call site is reachable through R's calls, invokes and function
// references (unexported helpers and closures included).
func CoveringFunctions(r *ccfg.CCFG, sites []*CallSite) []*ccfg.Function {
	reach := map[*ccfg.Function]bool{}
	var stack []*ccfg.Function
	for _, s := range sites {
		stack = append(stack, s.Func)
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reach[f] {
			continue
		}
		reach[f] = true
		for _, ref := range r.Callers[f] {
			if !reach[ref.From] {
				stack = append(stack, ref.From)
			}
		}
	}
	var out []*ccfg.Function
	for _, f := range r.External {
		if reach[f] {
			out = append(out, f)
		}
	}
	return out
}

// GoalsFrom returns the indices of the coupled branches whose call site a
// call of f may reach through R's calls (ReachableFunctions), in
// increasing order.
func (a *Analysis) GoalsFrom(f *ccfg.Function) []int {
	reach := map[*ccfg.Function]bool{}
	for _, g := range ReachableFunctions([]*ccfg.Function{f}) {
		reach[g] = true
	}
	var out []int
	for _, g := range a.Goals {
		if reach[g.Site.Func] {
			out = append(out, g.Index)
		}
	}
	return out
}

// Complexity is the cyclomatic complexity of a package: the sum over its
// source functions of (number of If instructions + 1).
func Complexity(c *ccfg.CCFG) int {
	n := 0
	for _, f := range c.Funcs {
		n += f.Ifs + 1
	}
	return n
}

// CalleeName names what a call site calls as written: the interface method
// (Shape.Area) for a dynamic call, the function or method otherwise.
func CalleeName(s *CallSite) string {
	if sel, ok := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr); ok {
		if selection := s.Func.Pkg.Info.Selections[sel]; selection != nil {
			recv := selection.Recv()
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			if types.IsInterface(recv) {
				if n, ok := recv.(*types.Named); ok {
					return n.Obj().Name() + "." + sel.Sel.Name
				}
				return "interface." + sel.Sel.Name
			}
		}
	}
	if len(s.Targets) > 0 {
		return s.Targets[0].Name
	}
	return "?"
}
