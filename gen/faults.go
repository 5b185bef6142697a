package gen

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
)

// FaultTag is the build tag of the file of reproducers: go test -tags
// cling_faults runs them.
const FaultTag = "cling_faults"

// Bounds of the work on faults after the search.
const (
	// maxSlowChecks bounds the tests the search stopped at the adaptive
	// limit that run again with the full timeout, to tell hangs.
	maxSlowChecks = 16
	// maxFaults bounds the fault candidates minimised and written.
	maxFaults = 64
	// maxShrinkRounds bounds the rounds of their minimisation, and
	// maxHangShrinkRounds those of hangs and deadlocks, each of whose
	// candidates waits for the full timeout when it still hangs: with
	// the default one-second timeout, at most half a minute.
	maxShrinkRounds     = 400
	maxHangShrinkRounds = 32
	// faultTimeout is how long a reproducer's call may run before it fails
	// as a hang, for faults other than hangs.
	faultTimeout = 10 * time.Second
	// confirmRuns is how many fresh processes of the written file must
	// fail the same way for a fault to be reported.
	confirmRuns = 2
)

// FaultReport is one fault in a report.
type FaultReport struct {
	Kind string `json:"kind"`
	// Message says what happened: the panic's message, the state of a
	// hung goroutine, the report of a crash.
	Message string `json:"message"`
	// Pos is the innermost position in the module's code (file:line,
	// relative to the module) and Func its function.
	Pos  string `json:"pos"`
	Func string `json:"func"`
	// Stack lists the frames, innermost first, as "function file:line".
	Stack []string `json:"stack"`
	// CallSite is the call site of R the failing call went through ("" if
	// none).
	CallSite string `json:"callSite"`
	// Test is the reproducer's name in the faults file, Reproducer its
	// source.
	Test       string `json:"test"`
	Reproducer string `json:"reproducer"`
}

// foundFault is a fault on its way to the file of reproducers.
type foundFault struct {
	f   *fault.Fault
	rep emit.Reproducer
}

// faultsPath is the file of reproducers that goes with the test file out:
// cling_<E>_faults_test.go beside cling_<E>_test.go.
func faultsPath(out string) string {
	return strings.TrimSuffix(out, "_test.go") + "_faults_test.go"
}

// findFaults turns what the search saw into the file of reproducers: the
// slow tests run again to tell hangs, the races of the verification join
// the fault candidates, each candidate is minimised and looked at again
// (misuse that the values it observed show), named and described, and
// the reproducers that fail the same way in fresh processes of the
// written file make it (j.faultSrc, j.found).
func (j *job) findFaults(ctx context.Context) error {
	col := j.col
	if slow := col.Slow(); len(slow) > 0 {
		slow = slow[:min(len(slow), maxSlowChecks)]
		tests := make([]*testcase.Test, len(slow))
		for i, f := range slow {
			tests[i] = f.Test
		}
		res, err := j.x.Run(ctx, tests, false)
		if err != nil {
			return err
		}
		col.Observe(tests, res)
	}
	for _, r := range j.races {
		col.Race(r.test.Test.Test, r.report)
	}
	cands := col.Faults()
	cands = cands[:min(len(cands), maxFaults)]
	found, err := j.reproduce(ctx, cands)
	if err != nil {
		return err
	}
	j.faultSrc, j.found, err = j.confirmFaults(ctx, found)
	return err
}

// reproduce minimises the test of each candidate, keeping a smaller test
// when it still shows the same fault (kind, place and call site), within
// the pair, and is no misuse, looks at the values the minimised test
// observes (a nil result of a failed call passed on is misuse: the
// candidate moves to the misuse) and at the statement it fails at, now
// known for crashes too (fault.FailedAt), and names and describes a
// reproducer for each remaining one.
// A data race, found in a minimised test of the file, is not run again.
func (j *job) reproduce(ctx context.Context, cands []*fault.Fault) ([]foundFault, error) {
	var runnable []*fault.Fault
	for _, f := range cands {
		if f.Kind != fault.Race {
			runnable = append(runnable, f)
		}
	}
	shrunk, err := j.shrinkFaults(ctx, runnable)
	if err != nil {
		return nil, err
	}
	observed, err := j.x.Run(ctx, shrunk, true)
	if err != nil {
		return nil, err
	}
	var found []foundFault
	next := 0
	for _, f := range cands {
		test, stmt := f.Test, f.Stmt
		if f.Kind != fault.Race {
			i := next
			next++
			// When the observing run did not show the fault again (a crash
			// in a goroutine need not), the search's test is written, and
			// the rule reads it without observed values.
			failedAt, msg, raisedIn, out := fault.FailedAt(f, test), f.Message, f.Frame.Func, (*testcase.Outcome)(nil)
			if g := j.sameFault(f, shrunk[i], observed[i]); g != nil {
				test, stmt = shrunk[i], g.Stmt
				failedAt, msg, raisedIn, out = fault.FailedAt(g, test), g.Message, g.Frame.Func, observed[i].Outcome
			}
			if fault.Misused(j.cluster, test, failedAt, f.Kind, msg, raisedIn, out) != "" || goroutineMisuse(j.cluster, f) {
				j.col.Reclassify(f)
				continue
			}
		}
		found = append(found, foundFault{f: f, rep: j.reproducer(f, test, stmt)})
	}
	j.nameReproducers(found)
	return found, nil
}

// goroutineMisuse reports whether a panic in a goroutine the code started
// is misuse at the statement the search's execution was running when it
// happened. A crash in a fresh process does not tell its statement, so
// the reproducer's rules read its last one (fault.FailedAt); but a
// goroutine that panics while its test waits in a call (a registry that
// describes a collector on a goroutine of its own, given a nil one)
// panics because of that call's arguments, and the executor, which turns
// the panic into a result, knows which call was running.
func goroutineMisuse(c *testcase.Cluster, f *fault.Fault) bool {
	if !f.Kind.InGoroutine() || f.Result.Stmt < 0 || f.Result.Stmt >= f.Test.Len() {
		return false
	}
	return fault.Misused(c, f.Test, f.Result.Stmt, f.Kind, f.Message, f.Frame.Func, nil) != ""
}

// shrinkFaults minimises the tests of faults, each to the smallest test
// that still shows its fault where a reproducer may (not outside R and E,
// not by misuse): hangs and deadlocks in at most maxHangShrinkRounds
// rounds, the others in at most maxShrinkRounds, in two batches, so that
// the others' rounds do not wait for a hang's timeout. The tests come in
// the order of faults.
func (j *job) shrinkFaults(ctx context.Context, faults []*fault.Fault) ([]*testcase.Test, error) {
	out := make([]*testcase.Test, len(faults))
	for _, hangs := range []bool{false, true} {
		var group []*fault.Fault
		var at []int
		for i, f := range faults {
			if f.Kind.Hangs() == hangs {
				group = append(group, f)
				at = append(at, i)
			}
		}
		if len(group) == 0 {
			continue
		}
		tests := make([]*testcase.Test, len(group))
		for i, f := range group {
			tests[i] = f.Test
		}
		rounds := maxShrinkRounds
		if hangs {
			rounds = maxHangShrinkRounds
		}
		shrunk, err := j.shrinkAll(ctx, tests, rounds, false, func(i int, c *testcase.Test, r harness.Result) bool {
			f := j.sameFault(group[i], c, r)
			return f != nil && j.col.Locator().Outside(c, f) == "" && fault.Misused(j.cluster, c, f.Stmt, f.Kind, f.Message, f.Frame.Func, nil) == ""
		})
		if err != nil {
			return nil, err
		}
		for k, i := range at {
			out[i] = shrunk[k]
		}
	}
	return out, nil
}

// sameFault returns the fault a run of test c shows if it is the fault f
// (same key), nil otherwise.
func (j *job) sameFault(f *fault.Fault, c *testcase.Test, r harness.Result) *fault.Fault {
	class, kind := fault.Classify(r)
	if class != fault.Candidate || kind != f.Kind {
		return nil
	}
	g := j.col.Describe(c, r, kind)
	if g == nil || g.Key() != f.Key() {
		return nil
	}
	return g
}

// reproducer makes the reproducer of fault f from its test, which fails
// at statement stmt (-1 if not known); its name comes later.
func (j *job) reproducer(f *fault.Fault, test *testcase.Test, stmt int) emit.Reproducer {
	rep := emit.Reproducer{Test: test, At: stmt, Timeout: faultTimeout, NeedsRace: f.Kind == fault.Race, SmallStack: f.Kind == fault.StackOverflow}
	if f.Kind.Hangs() {
		rep.Timeout = j.cfg.Timeout
	}
	if f.Kind == fault.Leak || f.Kind == fault.Race || f.Kind.Fatal() {
		rep.At = -1 // the helper runs the whole test
	}
	return rep
}

// nameReproducers names each reproducer after its fault's kind, function
// and line (TestFaultIndexOutOfRange_Get_L46), avoiding the names the
// package's other test files and the test file declare, and writes its
// comment.
func (j *job) nameReproducers(found []foundFault) {
	taken := j.namesBesideFaults()
	for i := range found {
		f := found[i].f
		base := fmt.Sprintf("TestFault%s_%s_L%d", f.Kind.Ident(), exportName(fault.BareName(f.Frame.Func)), f.Frame.Line)
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		taken[name] = true
		found[i].rep.Name = name
		found[i].rep.Comment = j.faultComment(name, f, found[i].rep)
	}
}

// faultComment says in one sentence what happens where, as a bug report
// would.
func (j *job) faultComment(name string, f *fault.Fault, rep emit.Reproducer) string {
	loc := j.col.Locator()
	where := fmt.Sprintf("at %s in %s", loc.RelPos(f.Frame), fault.ShortName(f.Frame.Func))
	calling := "the calls below"
	if rep.At >= 0 {
		calling = "calling " + rep.Test.Stmts[rep.At].Op.Name
	}
	var what string
	switch {
	case f.Kind == fault.Race:
		what = fmt.Sprintf("%s make the race detector report a %s %s", calling, f.Message, where)
	case f.Kind == fault.Leak:
		what = fmt.Sprintf("%s leave a goroutine running that was started %s", calling, where)
	case f.Kind == fault.Hang:
		what = fmt.Sprintf("%s never returns: after %v it is still running %s", calling, j.cfg.Timeout, where)
	case f.Kind == fault.Deadlock:
		what = fmt.Sprintf("%s blocks for ever (%s) %s", calling, strings.TrimPrefix(f.Message, "blocked for ever: "), where)
	case f.Kind.Fatal():
		what = fmt.Sprintf("%s stop the program with %q %s", calling, f.Message, where)
	default:
		what = fmt.Sprintf("%s panics with %q %s", calling, f.Message, where)
	}
	if s := f.Site; s != nil {
		what += fmt.Sprintf(", in the call of %s at %s (in %s)", couple.CalleeName(s), loc.SiteName(s), s.Func.Name)
	}
	text := name + ": " + what + "."
	if f.Kind == fault.Race {
		text += " Run it with go test -race -tags " + FaultTag + "."
	}
	return text
}

// confirmFaults writes the reproducers into the file of reproducers and
// keeps those that fail the same way (see sameFailure) in each of
// confirmRuns fresh processes of its test binary, built with the tag
// FaultTag (and the race detector, for data races). It returns the file
// of the confirmed ones, which compiles, and those.
func (j *job) confirmFaults(ctx context.Context, found []foundFault) ([]byte, []foundFault, error) {
	checked := false
	for len(found) > 0 {
		src, err := j.renderFaults(found)
		if err != nil {
			return nil, nil, err
		}
		ok, err := j.runFaults(ctx, src, found, !checked)
		if err != nil {
			return nil, nil, err
		}
		checked = true
		var keep []foundFault
		for _, ff := range found {
			if ok[ff.rep.Name] {
				keep = append(keep, ff)
			} else {
				j.unconfirmed++
			}
		}
		if len(keep) == len(found) {
			return src, found, nil
		}
		found = keep
	}
	return nil, nil, nil
}

// runFaults builds the file src of reproducers and, if run is set, runs
// each reproducer confirmRuns times, each in a fresh process, and returns
// those that failed the same way every time; without run, those that
// compiled.
func (j *job) runFaults(ctx context.Context, src []byte, found []foundFault, run bool) (map[string]bool, error) {
	ws, err := probe.NewWorkspace(j.a.Prog)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	tags := append(append([]string(nil), j.cfg.Tags...), FaultTag)
	ok := map[string]bool{}
	for _, race := range []bool{false, true} {
		var names []string
		for _, ff := range found {
			if ff.rep.NeedsRace == race {
				names = append(names, ff.rep.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		bin, blamed, err := j.testBinary(ctx, ws, j.faultsOut, src, fmt.Sprintf("faults.%v.test", race), tags, race)
		if err != nil {
			return nil, err
		}
		if !run {
			for _, n := range names {
				ok[n] = !blamed[n]
			}
			continue
		}
		if blamed != nil {
			continue // none is confirmed; the next round drops them
		}
		dir, err := j.packageCopy(ws)
		if err != nil {
			return nil, err
		}
		failures := map[string][]string{}
		for k := 0; k < confirmRuns; k++ {
			runs, err := j.runProcesses(ctx, bin, dir, names, 1)
			if err != nil {
				return nil, err
			}
			for n, r := range runs {
				if r.fails > 0 {
					failures[n] = append(failures[n], r.failures...)
				}
			}
		}
		for _, ff := range found {
			outs := failures[ff.rep.Name]
			if ff.rep.NeedsRace != race || len(outs) < confirmRuns {
				continue
			}
			same := true
			for _, out := range outs {
				same = same && sameFailure(ff.f, out)
			}
			ok[ff.rep.Name] = same
		}
	}
	return ok, nil
}

// sameFailure reports whether a reproducer's failing output shows the
// fault f: the panic's message and the fault's line in its stack, a call
// that did not return, a goroutine still running in the fault's function,
// the crash's report, or a race report in the fault's function.
func sameFailure(f *fault.Fault, out string) bool {
	switch {
	case f.Kind == fault.Race:
		return strings.Contains(out, raceMarker) && strings.Contains(out, f.Frame.Func)
	case f.Kind.Hangs():
		return strings.Contains(out, "did not return within")
	case f.Kind == fault.Leak:
		return strings.Contains(out, "is still running 100ms after it returned") && strings.Contains(out, f.Frame.Func)
	case f.Kind.Fatal():
		return strings.Contains(out, f.Message)
	}
	return strings.Contains(out, "panic: "+f.Message) && strings.Contains(out, f.Frame.Pos())
}

// renderFaults renders the file of reproducers.
func (j *job) renderFaults(found []foundFault) ([]byte, error) {
	a := j.a
	reps := make([]emit.Reproducer, len(found))
	for i, ff := range found {
		reps[i] = ff.rep
	}
	// Faults that end the process come last, so that the others report
	// before it ends.
	sort.SliceStable(reps, func(x, y int) bool { return !found[x].f.Kind.Fatal() && found[y].f.Kind.Fatal() })
	header := fmt.Sprintf("%s\n\nReproducers of faults cling found in %s calling into %s. Each test fails, with a panic, a timeout, a leaked goroutine or a report of the race detector, until its fault is fixed; they build only with the tag %s: go test -tags %s ./%s (add -race for data races).",
		strings.TrimPrefix(Marker, "// "), a.Caller.Pkg.Path, a.Callee.Pkg.Path, FaultTag, FaultTag, relDir(a))
	declared := j.namesBesideFaults()
	return emit.FaultFile(j.cluster, reps, emit.Options{
		Package:   a.Caller.Pkg.Name + "_test",
		Header:    header,
		GoVersion: j.goVersion(),
		Declared:  declared,
	}, FaultTag)
}

// namesBesideFaults returns the package-scope names the file of
// reproducers may not declare: those of the package's other test files
// and those of the test file it goes with (its tests, its helpers and the
// struct types it declares). The tag compiles the two files together, so
// a struct type both declare (item1) would be declared twice. With
// --faults-only, the test file is the one on disk, left as it is.
func (j *job) namesBesideFaults() map[string]bool {
	taken := j.declaredInTests()
	src := j.src
	if j.cfg.FaultsOnly {
		src, _ = os.ReadFile(j.out)
	}
	if len(src) > 0 {
		if f, err := parser.ParseFile(token.NewFileSet(), j.out, src, parser.SkipObjectResolution); err == nil {
			for _, name := range gotest.PackageScopeNames(f, true) {
				taken[name] = true
			}
		}
	}
	for _, t := range j.final {
		taken[t.Name] = true
	}
	return taken
}

// relDir is R's directory relative to the module, as go test takes it.
func relDir(a *couple.Analysis) string {
	rel := a.Prog.RelFile(a.Caller.Pkg.Dir)
	if rel == "" || rel == "." {
		return "."
	}
	return rel
}

// faultReports describes the confirmed faults for the report.
func (j *job) faultReports() []FaultReport {
	out := []FaultReport{}
	loc := j.col.Locator()
	for _, ff := range j.found {
		f := ff.f
		r := FaultReport{Kind: string(f.Kind), Message: f.Message, Pos: loc.RelPos(f.Frame), Func: fault.ShortName(f.Frame.Func),
			CallSite: loc.SiteName(f.Site), Test: ff.rep.Name, Reproducer: funcSource(j.faultSrc, ff.rep.Name)}
		for _, fr := range f.Stack {
			r.Stack = append(r.Stack, fr.Func+" "+fr.Pos())
		}
		out = append(out, r)
	}
	return out
}

// funcSource returns the source of the function name in a Go file, with
// its doc comment.
func funcSource(src []byte, name string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		return string(src[fset.Position(start).Offset:fset.Position(fd.End()).Offset])
	}
	return ""
}

// writeFaults writes the file of reproducers, or removes one cling wrote
// before when no fault is left to show.
func (j *job) writeFaults() error {
	if len(j.found) > 0 {
		if err := os.WriteFile(j.faultsOut, j.faultSrc, 0o644); err != nil {
			return &Error{Msg: fmt.Sprintf("writing %s: %v", j.faultsOut, err)}
		}
		return nil
	}
	if b, err := os.ReadFile(j.faultsOut); err == nil && bytes.Contains(b, []byte(Marker)) {
		if err := os.Remove(j.faultsOut); err != nil {
			return &Error{Msg: fmt.Sprintf("removing %s: %v", j.faultsOut, err)}
		}
	}
	return nil
}
