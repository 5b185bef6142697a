// Command probeoverhead measures what cling's probes cost at run time: it
// instruments a caller/callee pair exactly as `cling cbc` does (same
// analysis, same probe plan, same overlay, tests marked with BeginTest),
// compiles the caller's test binary twice, once plainly and once with the
// overlay, and runs the two binaries alternately. Compilation is not
// measured, only the test runs. It prints a markdown table with the median
// wall times and their ratio.
//
//	probeoverhead -dir MODULE -caller ./calc -callee ./lexer [-mode coverage|search] [-criteria LIST] [-run REGEX] [-count N] [-runs N] [-cpuprofile FILE]
//
// -mode search measures the probes of cling gen's executor instead
// (branch distances, call-site contexts, the counts of the performance
// proxies), built into the same test binary. With -criteria, the
// instrumented build also holds the probes that `cling cbc --criteria
// LIST` (or, with -mode search, `cling gen --criteria LIST`) compiles in
// for the other coverage criteria.
//
// Both binaries run in the caller's package directory, as go test runs
// them, with -test.count=N (and -test.run if given). The instrumented one
// writes its coverage where `cling cbc` has it write (CLING_COVER_DIR);
// the program checks that it covered some coupled branches, so the probes
// were live.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cling-go/cling/bench/internal/measure"
	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/targets"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "probeoverhead:", err)
		os.Exit(1)
	}
}

type config struct {
	dir, caller, callee, runRE, label, jsonFile, mode string
	criteria                                          string
	profile                                           string
	header                                            bool
	target                                            float64
	count, runs, warmup                               int
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probeoverhead", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	fs.StringVar(&c.dir, "dir", ".", "directory inside the module (patterns are relative to it)")
	fs.StringVar(&c.caller, "caller", "", "caller package R (required)")
	fs.StringVar(&c.callee, "callee", "", "callee package E (required)")
	fs.StringVar(&c.criteria, "criteria", "default", "also probe the coverage criteria of this comma-separated `LIST`, as cling cbc --criteria does")
	fs.StringVar(&c.runRE, "run", "", "run only the tests matching this regexp (-test.run)")
	fs.StringVar(&c.mode, "mode", "coverage", "probes to measure: coverage (cling cbc's) or search (cling gen's)")
	fs.StringVar(&c.label, "label", "", "name of the data point in the table (default: caller → callee)")
	fs.StringVar(&c.jsonFile, "json", "", "append the result to this file (JSON lines)")
	fs.StringVar(&c.profile, "cpuprofile", "", "after measuring, run each binary once more with -test.cpuprofile=`FILE`.{plain,instrumented}")
	fs.BoolVar(&c.header, "header", true, "print the table header (false: only the row, to extend a table)")
	fs.Float64Var(&c.target, "target", 0, "if positive, say whether the ratio is at most this")
	fs.IntVar(&c.count, "count", 1, "-test.count for each run")
	fs.IntVar(&c.runs, "runs", 5, "timed runs of each binary")
	fs.IntVar(&c.warmup, "warmup", 1, "untimed runs of each binary first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.caller == "" || c.callee == "" {
		return errors.New("-caller and -callee are required")
	}
	if c.mode != "coverage" && c.mode != "search" {
		return fmt.Errorf("-mode %q: use coverage or search", c.mode)
	}
	if c.label == "" {
		c.label = c.caller + " → " + c.callee
		if c.mode == "search" {
			c.label += " (search probes)"
		}
	}
	return measureOverhead(ctx, c, stdout, stderr)
}

func measureOverhead(ctx context.Context, c config, stdout, stderr io.Writer) error {
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: c.dir}, c.caller, c.callee)
	if err != nil {
		return err
	}
	prog, callerPath, calleePath := a.Prog, a.Caller.Pkg.Path, a.Callee.Pkg.Path
	mode := probe.Coverage
	if c.mode == "search" {
		mode = probe.Search
	}
	cs, err := criteria.Parse(c.criteria)
	if err != nil {
		return err
	}
	plan := probe.NewPlan(a, mode)
	if len(cs) > 1 {
		tg, err := targets.Of(a)
		if err != nil {
			return err
		}
		extras := criteria.MeasuredExtrasOf(cs)
		if mode == probe.Search {
			extras = criteria.ExtrasOf(cs)
		}
		plan = probe.NewPlanWith(a, mode, tg, extras)
	}
	sess, err := probe.NewSessionWith(plan)
	if err != nil {
		return err
	}
	defer sess.Close()
	tests, err := probe.MarkTests(sess.WS, a.Caller.Pkg.Dir, sess.RTImport)
	if err != nil {
		return err
	}
	if tests == 0 {
		return fmt.Errorf("%s has no tests", callerPath)
	}
	overlay, err := sess.WS.OverlayFile()
	if err != nil {
		return err
	}
	bin := filepath.Join(sess.WS.Dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	plain, instr := filepath.Join(bin, "plain.test"), filepath.Join(bin, "instrumented.test")
	if err := goTest(ctx, prog.Dir, "-c", "-vet=off", "-o", plain, callerPath); err != nil {
		return err
	}
	if err := goTest(ctx, prog.Dir, "-c", "-vet=off", "-overlay", overlay, "-o", instr, callerPath); err != nil {
		return err
	}

	coverDir := filepath.Join(sess.WS.Dir, "cover")
	if err := os.MkdirAll(coverDir, 0o755); err != nil {
		return err
	}
	testArgs := []string{"-test.count=" + strconv.Itoa(c.count)}
	if c.runRE != "" {
		testArgs = append(testArgs, "-test.run="+c.runRE)
	}
	cmds := []measure.Cmd{
		{Label: "plain", Args: append([]string{plain}, testArgs...), Dir: a.Caller.Pkg.Dir},
		{Label: "instrumented", Args: append([]string{instr}, testArgs...), Dir: a.Caller.Pkg.Dir, Env: []string{"CLING_COVER_DIR=" + coverDir}},
	}
	series, err := measure.Alternate(ctx, cmds, c.warmup, c.runs, func(err error) {
		fmt.Fprintln(stderr, "probeoverhead: warning:", err)
	})
	if err != nil {
		return err
	}
	covered, err := countCovered(coverDir, len(a.Goals))
	if err != nil {
		return err
	}
	if covered == 0 {
		return errors.New("the instrumented tests covered no coupled branch: the probes did not run")
	}
	p, in := series[0].Summarize(), series[1].Summarize()
	res := result{
		Label: c.label, Caller: callerPath, Callee: calleePath, Criteria: c.criteria,
		Tests: tests, Count: c.count, Run: c.runRE,
		Goals: len(a.Goals), Covered: covered,
		Plain: p, Instrumented: in,
		Ratio: measure.Ratio(in.WallSec, p.WallSec),
	}
	if c.header {
		fmt.Fprintln(stdout, "| pair | tests × count | plain median (s) | instrumented median (s) | ratio | verdict | plain min–max (s) | instrumented min–max (s) | runs | coupled branches covered |")
		fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
	}
	verdict := "–"
	if c.target > 0 {
		verdict = fmt.Sprintf("**met** (≤ %g)", c.target)
		if res.Ratio > c.target {
			verdict = fmt.Sprintf("**missed** (≤ %g; %.0f%% over)", c.target, 100*(res.Ratio/c.target-1))
		}
	}
	fmt.Fprintf(stdout, "| %s | %d × %d | %.3f | %.3f | **%.2f** | %s | %.3f–%.3f | %.3f–%.3f | %d | %d / %d |\n",
		res.Label, tests, c.count, p.WallSec, in.WallSec, res.Ratio, verdict, p.WallMin, p.WallMax, in.WallMin, in.WallMax, p.Runs, covered, len(a.Goals))
	if p.Failures+in.Failures > 0 {
		fmt.Fprintf(stderr, "probeoverhead: %s: failing runs: plain %d, instrumented %d\n", res.Label, p.Failures, in.Failures)
	}
	if c.profile != "" {
		for _, cmd := range cmds {
			prof, err := filepath.Abs(c.profile + "." + cmd.Label)
			if err != nil {
				return err
			}
			cmd.Args = append(cmd.Args[:len(cmd.Args):len(cmd.Args)], "-test.cpuprofile="+prof)
			if _, err := measure.Run(ctx, cmd); err != nil {
				return err
			}
		}
		fmt.Fprintf(stderr, "probeoverhead: CPU profiles in %s.plain, %s.instrumented (go tool pprof -top FILE)\n", c.profile, c.profile)
	}
	if c.jsonFile != "" {
		return appendJSON(c.jsonFile, res)
	}
	return nil
}

type result struct {
	Label        string          `json:"label"`
	Caller       string          `json:"caller"`
	Callee       string          `json:"callee"`
	Criteria     string          `json:"criteria"`
	Tests        int             `json:"tests"`
	Count        int             `json:"count"`
	Run          string          `json:"run,omitempty"`
	Goals        int             `json:"coupledBranches"`
	Covered      int             `json:"covered"`
	Plain        measure.Summary `json:"plain"`
	Instrumented measure.Summary `json:"instrumented"`
	Ratio        float64         `json:"ratio"`
}

func goTest(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go test %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// countCovered counts the coupled branches covered by any run, from the
// per-process coverage files of the runtime (one byte per goal, first).
func countCovered(dir string, goals int) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cover-*"))
	if err != nil {
		return 0, err
	}
	var all []bool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		b = b[:min(len(b), goals)]
		for len(all) < len(b) {
			all = append(all, false)
		}
		for i, x := range b {
			if x != 0 {
				all[i] = true
			}
		}
	}
	n := 0
	for _, x := range all {
		if x {
			n++
		}
	}
	return n, nil
}

func appendJSON(path string, v any) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	return json.NewEncoder(f).Encode(v)
}
