package gate

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/mutate"
)

// Why a pair is affected: the change touches R, E, or R's tests.
const (
	ChangedCaller      = "caller"
	ChangedCallee      = "callee"
	ChangedCallerTests = "caller tests"
)

// Which part of a coupled branch lies on a changed line.
const (
	PartCallSite     = "callSite"
	PartCallerTarget = "callerTarget"
	PartCalleeTarget = "calleeTarget"
)

// pair is one affected pair and what the gate learns about it.
type pair struct {
	a       *couple.Analysis
	changed []string
	// diff are the diff coupled branches, in goal order.
	diff []diffGoal
	// skipped says why the pair was not measured ("" when it was).
	skipped  string
	measured bool
	// What the existing tests do: how many ran, which failed, which goals
	// they cover.
	tests   int
	failed  []string
	covered []bool
	// mutants are the mutants on changed lines; all are all mutants of the
	// pair when the whole score is asked for; mutantsErr says why there
	// are none when they could not be evaluated.
	mutants    []*mutate.Mutant
	all        []*mutate.Mutant
	mutantsErr string
	notes      []string
	// What --gen added: the report, the goals and the mutant IDs the
	// generated tests cover or detect.
	gen        *GenReport
	genCovered map[int]bool
	genDetects map[int]bool
}

// diffGoal is a coupled branch with a part on a changed line.
type diffGoal struct {
	goal  couple.Goal
	parts []string
	// at is where the change touches it: the callee branch, the caller
	// branch or the call site, the first that lies on a changed line.
	at token.Pos
}

func (p *pair) name() string { return p.a.Caller.Pkg.Path + " -> " + p.a.Callee.Pkg.Path }

// affectedPairs loads the packages and returns the non-trivial pairs the
// change affects, in the order cling pairs ranks them.
func (r *run) affectedPairs() ([]*pair, error) {
	all, err := r.load()
	if err != nil {
		return nil, err
	}
	var out []*pair
	for _, cp := range all {
		if cp.Trivial {
			continue
		}
		var why []string
		if r.pkgChanged(cp.Caller.Pkg) {
			why = append(why, ChangedCaller)
		}
		if r.pkgChanged(cp.Callee.Pkg) {
			why = append(why, ChangedCallee)
		}
		if r.testsChanged(cp.Caller.Pkg) {
			why = append(why, ChangedCallerTests)
		}
		if len(why) == 0 {
			continue
		}
		p := &pair{a: cp.Analysis, changed: why}
		p.diff = r.diffGoals(cp.Analysis)
		out = append(out, p)
	}
	return out, nil
}

// pkgChanged reports whether the change touches a non-test Go file of the
// package, or deletes one from its directory.
func (r *run) pkgChanged(pkg *ccfg.Package) bool {
	for _, f := range pkg.GoFiles {
		if fc := r.changes.Files[r.realPath(f)]; fc != nil && (len(fc.Lines) > 0 || fc.Deleted) {
			return true
		}
	}
	return r.dirChanged(pkg, func(fc *FileChange) bool { return fc.Deleted && !isTest(fc.Path) })
}

// testsChanged reports whether the change touches a test file in the
// package's directory (its internal or external tests).
func (r *run) testsChanged(pkg *ccfg.Package) bool {
	return r.dirChanged(pkg, func(fc *FileChange) bool { return isTest(fc.Path) })
}

// dirChanged reports whether a changed Go file in the package's directory
// satisfies ok.
func (r *run) dirChanged(pkg *ccfg.Package, ok func(*FileChange) bool) bool {
	if pkg.Dir == "" {
		return false
	}
	dir := r.realDir(pkg.Dir)
	for abs, fc := range r.changes.Files {
		if filepath.Dir(abs) == dir && strings.HasSuffix(abs, ".go") && ok(fc) {
			return true
		}
	}
	return false
}

func isTest(path string) bool { return strings.HasSuffix(path, "_test.go") }

// diffGoals returns the coupled branches of a whose call site, caller
// branch or callee branch lies on a changed line (see the spans below).
func (r *run) diffGoals(a *couple.Analysis) []diffGoal {
	touched := map[string]bool{}
	branch := func(b couple.Branch) bool {
		id := b.ID()
		t, ok := touched[id]
		if !ok {
			t = r.touched(branchSpan(b))
			touched[id] = t
		}
		return t
	}
	var out []diffGoal
	for _, g := range a.Goals {
		site := r.touched(g.Site.Call.Pos(), g.Site.Call.Rparen)
		var parts []string
		var at token.Pos
		if site {
			parts, at = append(parts, PartCallSite), g.Site.Pos
		}
		if branch(g.R) {
			parts, at = append(parts, PartCallerTarget), branchPos(g.R)
		}
		if branch(g.E) {
			parts, at = append(parts, PartCalleeTarget), branchPos(g.E)
		}
		if len(parts) > 0 {
			out = append(out, diffGoal{goal: g, parts: parts, at: at})
		}
	}
	return out
}

// touched reports whether a change touches a line between the positions
// from and to (inclusive).
func (r *run) touched(from, to token.Pos) bool {
	if !from.IsValid() {
		return false
	}
	if !to.IsValid() || to < from {
		to = from
	}
	p := r.prog.Fset.PositionFor(from, false)
	q := r.prog.Fset.PositionFor(to, false)
	return r.changes.Touched(r.realPath(p.Filename), p.Line, q.Line)
}

// branchSpan is where a branch lies in the source: the lines of its
// condition (an if or for condition, an operand of && or ||, a case value
// or type), of the header of a range statement up to the ranged
// expression, or of a select clause's case up to its colon. An entry
// pseudo-branch entry:F lies on the lines of F's signature, from func to
// the opening brace of its body: a change inside the body touches the
// branches and call sites there, not the fact that F is called.
func branchSpan(b couple.Branch) (from, to token.Pos) {
	if b.IsEntry() {
		if d, ok := b.Entry.SSA.Syntax().(*ast.FuncDecl); ok && d.Body != nil {
			return d.Pos(), d.Body.Lbrace
		}
		return b.Entry.Pos(), b.Entry.Pos()
	}
	n := b.Node
	switch x := n.Anchor.(type) {
	case *ast.RangeStmt:
		return x.For, x.X.End()
	case *ast.CommClause:
		return x.Case, x.Colon
	case nil:
		return n.Pos, n.Pos
	default:
		return x.Pos(), x.End()
	}
}

// branchPos is where reports point at a branch: its anchor, or the name of
// the function of an entry pseudo-branch.
func branchPos(b couple.Branch) token.Pos {
	if b.IsEntry() {
		return b.Entry.Pos()
	}
	return b.Node.Pos
}

// onChangedLine reports whether a mutant lies on a changed line.
func (r *run) onChangedLine(m *mutate.Mutant) bool {
	return r.changes.Touched(r.realPath(m.File), m.Line, m.Line)
}
