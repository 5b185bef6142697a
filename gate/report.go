package gate

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/mutate/report"
)

// Report is the outcome of the gate; it is also the JSON form of cling ci.
type Report struct {
	// Base is the base revision as resolved (origin/main), MergeBase the
	// merge base of it and HEAD, Head the commit of HEAD; Worktree is set
	// when uncommitted changes count.
	Base      string `json:"base"`
	MergeBase string `json:"mergeBase"`
	Head      string `json:"head"`
	Worktree  bool   `json:"worktree"`
	// Changed are the files the change touches.
	Changed []ChangedFile `json:"changed"`
	// Pairs are the affected pairs, most coupled first.
	Pairs      []*PairReport `json:"pairs"`
	Thresholds Thresholds    `json:"thresholds"`
	// Failures say which threshold a pair misses, or that its tests fail.
	Failures []string `json:"failures"`
	// Findings are the diff coupled branches the tests miss and the
	// mutants on changed lines they do not detect, located in the files of
	// the repository: what annotations and SARIF show.
	Findings []Finding `json:"findings"`
	Passed   bool      `json:"passed"`
}

// ChangedFile is a file the change touches.
type ChangedFile struct {
	// File is relative to the repository root.
	File    string `json:"file"`
	Lines   []int  `json:"lines"`
	Deleted bool   `json:"deleted,omitempty"`
}

// PairReport is what the gate measured of one affected pair.
type PairReport struct {
	Caller string `json:"caller"`
	Callee string `json:"callee"`
	// Changed says why the pair is affected: ChangedCaller, ChangedCallee,
	// ChangedCallerTests.
	Changed []string `json:"changed"`
	// Skipped says why the pair was not measured; the measures are then
	// left out.
	Skipped string `json:"skipped,omitempty"`
	// The coupled branches of the pair and those the tests of R cover;
	// CBC is nil when the pair has none or was not measured.
	CoupledBranches int      `json:"coupledBranches"`
	Covered         int      `json:"covered"`
	CBC             *float64 `json:"cbc"`
	// The same over the diff coupled branches.
	DiffCoupledBranches int      `json:"diffCoupledBranches"`
	DiffCovered         int      `json:"diffCovered"`
	DiffCBC             *float64 `json:"diffCBC"`
	Tests               int      `json:"tests"`
	FailedTests         []string `json:"failedTests"`
	// Diff lists the diff coupled branches.
	Diff []DiffBranch `json:"diff"`
	// Mutants are the mutants on changed lines, MutantCounts their
	// statuses, DiffScore their score (nil without a viable one).
	Mutants      []report.Mutant       `json:"mutants"`
	MutantCounts map[mutate.Status]int `json:"mutantCounts"`
	DiffScore    *float64              `json:"diffScore"`
	// Score is the score of all mutants of the pair, measured only when
	// --min-score asks for it.
	Score *float64 `json:"score,omitempty"`
	// MutantsError says why the mutants were not evaluated.
	MutantsError string `json:"mutantsError,omitempty"`
	// Notes are remarks on the measurement (R has no tests).
	Notes []string `json:"notes,omitempty"`
	// Gen is what cling gen added, with --gen.
	Gen *GenReport `json:"gen,omitempty"`
}

// Uncovered returns the diff coupled branches the existing tests miss.
func (p *PairReport) Uncovered() []DiffBranch {
	var out []DiffBranch
	for _, d := range p.Diff {
		if !d.Covered {
			out = append(out, d)
		}
	}
	return out
}

// Undetected returns the mutants on changed lines that survive or that no
// test reaches.
func (p *PairReport) Undetected() []report.Mutant {
	var out []report.Mutant
	for _, m := range p.Mutants {
		if missed(m.Status) {
			out = append(out, m)
		}
	}
	return out
}

// DiffBranch is one diff coupled branch: a coupled branch whose call site,
// caller target or callee target lies on a changed line.
type DiffBranch struct {
	CallSite     string `json:"callSite"`
	CallerTarget string `json:"callerTarget"`
	CalleeTarget string `json:"calleeTarget"`
	// Changed names the parts on changed lines: PartCallSite,
	// PartCallerTarget, PartCalleeTarget.
	Changed []string `json:"changed"`
	Covered bool     `json:"covered"`
	// Generated is set when the tests cling gen wrote cover it and the
	// existing tests do not.
	Generated bool `json:"generated,omitempty"`
}

// GenReport is what the tests cling gen wrote for a pair add.
type GenReport struct {
	// TestFile is relative to the repository root; Tests counts its tests.
	TestFile      string  `json:"testFile,omitempty"`
	Tests         int     `json:"tests"`
	BudgetSeconds float64 `json:"budgetSeconds"`
	// AddedCoupledBranches counts the diff coupled branches only the
	// generated tests cover; AddedMutants are the IDs of the mutants on
	// changed lines only they detect.
	AddedCoupledBranches int   `json:"addedCoupledBranches"`
	AddedMutants         []int `json:"addedMutants"`
	// DiffCBC and DiffScore are the measures with the generated tests.
	DiffCBC   *float64 `json:"diffCBC"`
	DiffScore *float64 `json:"diffScore"`
	// Skipped says why no tests were generated; Error why none were
	// written.
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Finding is a place in the diff the tests do not exercise.
type Finding struct {
	// Rule is RuleUncoveredBranch or RuleUndetectedMutant.
	Rule string `json:"rule"`
	// File is relative to the repository root; Line and Col start at 1.
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// The rules of findings.
const (
	RuleUncoveredBranch  = "uncovered-coupled-branch"
	RuleUndetectedMutant = "undetected-mutant"
)

// ratio is k/n, or nil when n is 0.
func ratio(k, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := float64(k) / float64(n)
	return &v
}

// score is the mutation score of ms, or nil without a viable mutant.
func score(ms []*mutate.Mutant, detected func(*mutate.Mutant) bool) *float64 {
	det, viable := 0, 0
	for _, m := range ms {
		if m.Status == mutate.NotViable {
			continue
		}
		viable++
		if detected(m) {
			det++
		}
	}
	return ratio(det, viable)
}

// pairReport builds the report of one pair and adds its findings to the
// run's report.
func (r *run) pairReport(p *pair) *PairReport {
	a := p.a
	pr := &PairReport{
		Caller: a.Caller.Pkg.Path, Callee: a.Callee.Pkg.Path, Changed: p.changed, Skipped: p.skipped,
		CoupledBranches: len(a.Goals), DiffCoupledBranches: len(p.diff),
		FailedTests: []string{}, Diff: []DiffBranch{}, Mutants: []report.Mutant{},
		MutantCounts: map[mutate.Status]int{}, MutantsError: p.mutantsErr, Notes: p.notes, Gen: p.gen,
	}
	for _, s := range mutate.Statuses() {
		pr.MutantCounts[s] = 0
	}
	for _, d := range p.diff {
		pr.Diff = append(pr.Diff, DiffBranch{
			CallSite: a.Prog.Pos(d.goal.Site.Pos), CallerTarget: d.goal.R.ID(), CalleeTarget: d.goal.E.ID(),
			Changed: d.parts,
		})
	}
	if !p.measured {
		return pr
	}
	pr.Tests = p.tests
	pr.FailedTests = append(pr.FailedTests, p.failed...)
	for _, c := range p.covered {
		if c {
			pr.Covered++
		}
	}
	pr.CBC = ratio(pr.Covered, pr.CoupledBranches)
	genCovered := 0
	for i, d := range p.diff {
		db := &pr.Diff[i]
		db.Covered = p.covered[d.goal.Index]
		db.Generated = !db.Covered && p.genCovered[d.goal.Index]
		if db.Covered {
			pr.DiffCovered++
		} else {
			r.addFinding(RuleUncoveredBranch, d.at, r.branchMessage(p, d))
		}
		if db.Generated {
			genCovered++
		}
	}
	pr.DiffCBC = ratio(pr.DiffCovered, pr.DiffCoupledBranches)
	for _, m := range p.mutants {
		pr.Mutants = append(pr.Mutants, report.NewMutant(m))
		pr.MutantCounts[m.Status]++
		if missed(m.Status) {
			r.addMutantFinding(p, m)
		}
	}
	if p.mutantsErr == "" {
		pr.DiffScore = score(p.mutants, (*mutate.Mutant).Detected)
	}
	if p.all != nil {
		pr.Score = score(p.all, (*mutate.Mutant).Detected)
	}
	if g := p.gen; g != nil && g.TestFile != "" {
		g.AddedCoupledBranches = genCovered
		g.DiffCBC = ratio(pr.DiffCovered+genCovered, pr.DiffCoupledBranches)
		for _, m := range p.mutants {
			if !m.Detected() && p.genDetects[m.ID] {
				g.AddedMutants = append(g.AddedMutants, m.ID)
			}
		}
		if pr.DiffScore != nil {
			g.DiffScore = score(p.mutants, func(m *mutate.Mutant) bool { return m.Detected() || p.genDetects[m.ID] })
		}
	}
	return pr
}

// branchMessage says which diff coupled branch the tests miss.
func (r *run) branchMessage(p *pair, d diffGoal) string {
	g := d.goal
	msg := fmt.Sprintf("coupled branch not covered by the tests of %s: %s in the call of %s at %s, after %s (pair %s)",
		p.a.Caller.Pkg.Path, g.E.ID(), couple.CalleeName(g.Site), p.a.Prog.Pos(g.Site.Pos), g.R.ID(), p.name())
	if p.genCovered[g.Index] {
		msg += "; the tests cling gen wrote to " + p.gen.TestFile + " cover it"
	}
	return msg
}

// addMutantFinding reports a mutant on a changed line the tests do not
// detect.
func (r *run) addMutantFinding(p *pair, m *mutate.Mutant) {
	what := "survives: no test fails"
	if m.Status == mutate.NotCovered {
		what = "is not covered: no test reaches it"
	}
	msg := fmt.Sprintf("mutant #%d (%s) %s: %s (pair %s)", m.ID, m.Operator, what, m.Description, p.name())
	if p.genDetects[m.ID] {
		msg += "; the tests cling gen wrote to " + p.gen.TestFile + " detect it"
	}
	r.rep.Findings = append(r.rep.Findings, Finding{Rule: RuleUndetectedMutant, File: r.repoRel(m.File), Line: m.Line, Col: m.Col, Message: msg})
}

// addFinding adds a finding at pos.
func (r *run) addFinding(rule string, pos token.Pos, msg string) {
	p := r.prog.Fset.PositionFor(pos, false)
	r.rep.Findings = append(r.rep.Findings, Finding{Rule: rule, File: r.repoRel(p.Filename), Line: p.Line, Col: p.Column, Message: msg})
}

// finish builds the pairs' reports, judges the thresholds and sets the
// verdict.
func (r *run) finish(pairs []*pair) {
	r.rep.Findings = []Finding{}
	r.rep.Failures = []string{}
	t := r.cfg.Thresholds
	for _, p := range pairs {
		pr := r.pairReport(p)
		r.rep.Pairs = append(r.rep.Pairs, pr)
		if pr.Skipped != "" {
			continue
		}
		fail := func(format string, args ...any) {
			r.rep.Failures = append(r.rep.Failures, p.name()+": "+fmt.Sprintf(format, args...))
		}
		if len(pr.FailedTests) > 0 {
			fail("%d tests fail: %s", len(pr.FailedTests), strings.Join(pr.FailedTests, ", "))
		}
		below := func(v *float64, min float64, what, flag string) {
			if min > 0 && v != nil && *v < min {
				fail("%s %s is below --%s %s", what, Percent(*v), flag, Percent(min))
			}
		}
		below(pr.DiffCBC, t.MinDiffCBC, "diff CBC", "min-diff-cbc")
		below(pr.CBC, t.MinCBC, "CBC", "min-cbc")
		below(pr.DiffScore, t.MinDiffScore, "diff mutation score", "min-diff-score")
		below(pr.Score, t.MinScore, "mutation score", "min-score")
		if pr.MutantsError != "" && len(pr.FailedTests) == 0 && (t.MinDiffScore > 0 || t.MinScore > 0) {
			fail("mutants %s", pr.MutantsError)
		}
	}
	r.rep.Passed = len(r.rep.Failures) == 0
}

// Percent formats a ratio as a percentage with one decimal.
func Percent(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// missed reports whether a mutant with status s goes undetected: it
// survives, or no test reaches it.
func missed(s mutate.Status) bool { return s == mutate.Survived || s == mutate.NotCovered }
