package gen

import (
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/targets"
	"github.com/cling-go/cling/testcase"
	"golang.org/x/mod/modfile"
)

// job is one generation run: what the search and the passes after it
// share, and the file as it stands.
type job struct {
	a   *couple.Analysis
	cfg Config
	// algorithm is the registered search algorithm the run uses.
	algorithm string
	// out is the output file; dialect, the assertions it uses.
	out     string
	dialect emit.Dialect
	cluster *testcase.Cluster
	sess    *probe.Session
	x       *harness.Executor
	// ownPassing are the tests of R's own test files that pass when they
	// run alone (see suiteCulprits); nil until first asked.
	ownPassing []string
	// targets are the pair's targets of the other criteria; criteria the
	// criteria the search optimises; set their goals, nil when the search
	// optimises the coupled branches alone.
	targets  *targets.Targets
	criteria []*criteria.Criterion
	set      *criteria.Set

	// The file as it stands: its source, its tests, the names of the
	// tests dropped on the way, and the names a new test may not take.
	src     []byte
	final   []namedTest
	dropped []string
	taken   map[string]bool

	// Faults: the collector that watches the search (nil when not looking
	// for faults), the races the verification found, whether the platform
	// has no race detector, and the file of reproducers: its path, its
	// source, its faults and the number of faults not confirmed.
	col         *fault.Collector
	races       []raceFinding
	noRace      bool
	faultsOut   string
	faultSrc    []byte
	found       []foundFault
	unconfirmed int
}

// prepare checks the pair and the output file, builds the cluster of
// calls and values the tests use, instruments the pair and starts the
// executor. Its errors come before any search.
func prepare(ctx context.Context, a *couple.Analysis, cfg Config) (*job, error) {
	if len(a.Covering) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no covering function: no exported function or method of %s reaches a call site into %s (the %d call sites are only reached from unexported code or init)",
			a.Caller.Pkg.Path, a.Callee.Pkg.Path, len(a.Sites))}
	}
	if len(a.Goals) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no coupled branches between %s and %s: the call sites have no caller targets or call functions without branches", a.Caller.Pkg.Path, a.Callee.Pkg.Path)}
	}
	j := &job{a: a, cfg: cfg, algorithm: cfg.Algorithm, taken: map[string]bool{}}
	if j.algorithm == "" {
		j.algorithm = mosa.DefaultAlgorithm
	}
	if _, err := mosa.Lookup(j.algorithm); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	out, err := outputPath(a, cfg)
	if err != nil {
		return nil, err
	}
	j.out = out
	if cfg.Faults || cfg.FaultsOnly {
		j.faultsOut = faultsPath(out)
		if err := checkOwn(j.faultsOut, cfg.Force); err != nil {
			return nil, err
		}
	}
	j.dialect = dialectOf(a)
	j.cluster = testcase.NewCluster(a, cfg.MaxDepth)
	if j.faultsOut != "" {
		j.col = fault.NewCollector(a, j.cluster)
	}
	seedConstants(a, j.cluster, cfg.Tags, cfg.Generated)
	if len(j.cluster.Covering) == 0 {
		var covering []string
		for _, f := range a.Covering {
			covering = append(covering, f.Name)
		}
		return nil, &Error{Msg: noCoveringFunction(a.Caller.Pkg.Path, j.cluster.Skipped, covering)}
	}
	if j.targets, err = targets.Of(a); err != nil {
		return nil, err
	}
	j.criteria = cfg.Criteria
	if len(j.criteria) == 0 {
		j.criteria, _ = criteria.Parse(criteria.CBC)
	}
	plan := probe.NewPlan(a, probe.Search)
	if len(j.criteria) > 1 {
		pair := criteria.NewPair(a, j.targets, cfg.Fitness)
		j.set = criteria.NewSet(pair, j.criteria, cfg.Selection)
		plan = probe.NewPlanWith(a, probe.Search, j.targets, j.set.Extras())
	}
	j.sess, err = probe.NewSessionWith(plan)
	if err != nil {
		return nil, err
	}
	if err := j.startExecutor(ctx); err != nil {
		j.sess.Close()
		return nil, err
	}
	return j, nil
}

// startExecutor builds the executor of the instrumented session and
// starts it.
func (j *job) startExecutor(ctx context.Context) error {
	// Workers run in a copy of the caller's package directory (its files
	// and testdata), as the written tests do under verification: code
	// that reads files relative to its working directory finds them, and
	// code that writes there writes into the copy.
	cwd := filepath.Join(j.sess.WS.Dir, "cwd")
	if err := fstree.CopyPackage(j.a.Caller.Pkg.Dir, cwd); err != nil {
		return fmt.Errorf("copying the package directory for the executor: %w", err)
	}
	exe, err := harness.Build(ctx, j.sess, j.cluster, harness.BuildOptions{Tags: j.cfg.Tags, CacheDir: j.cfg.CacheDir, Dir: cwd, Exclude: []string{j.out}})
	if err != nil {
		return err
	}
	if j.cfg.Debug != nil {
		if exe.Environment == harness.TestBinary {
			fmt.Fprintf(j.cfg.Debug, "cling: the executor is the test binary of %s\n", j.a.Caller.Pkg.Path)
		} else {
			fmt.Fprintf(j.cfg.Debug, "cling: the executor is a plain program without the test files of %s: %s\n", j.a.Caller.Pkg.Path, exe.PlainReason)
		}
	}
	// A run with an evaluation budget promises the same file for the same
	// seed: its results must not depend on the machine's speed, so the
	// search never cuts a slow test short and a timed-out test runs once
	// more. Under a time budget results vary anyway, and a test that runs
	// far longer than the others is cut at the adaptive limit.
	reproducible := j.cfg.Budget.MaxEvals > 0
	j.x = harness.NewExecutor(exe, harness.Options{Workers: j.cfg.Workers, Timeout: j.cfg.Timeout, Reproducible: reproducible, Dir: cwd, Ops: len(j.cluster.Ops)})
	return nil
}

// close stops the executor and removes the instrumented session.
func (j *job) close() {
	j.x.Close()
	j.sess.Close()
}

// outputPath resolves and checks the output file before any work: its
// directory must exist and be writable, and an existing file must be one
// cling wrote (or --force).
func outputPath(a *couple.Analysis, cfg Config) (string, error) {
	out := cfg.Out
	if out == "" {
		out = DefaultOut(a)
	} else if !filepath.IsAbs(out) {
		out = filepath.Join(a.Prog.Dir, out)
	}
	if !strings.HasSuffix(out, "_test.go") {
		return "", &Error{Msg: fmt.Sprintf("output file %s must end in _test.go", out)}
	}
	if filepath.Clean(filepath.Dir(out)) != filepath.Clean(a.Caller.Pkg.Dir) {
		return "", &Error{Msg: fmt.Sprintf("output file %s must be in the caller's directory %s (tests of package %s_test)", out, a.Caller.Pkg.Dir, a.Caller.Pkg.Name)}
	}
	if err := writable(filepath.Dir(out)); err != nil {
		return "", &Error{Msg: fmt.Sprintf("cannot write %s: %v", out, err)}
	}
	if err := checkOwn(out, cfg.Force); err != nil {
		return "", err
	}
	return out, nil
}

// checkOwn checks that an existing file at out is one cling wrote (or
// force is set) and can be written.
func checkOwn(out string, force bool) error {
	if b, err := os.ReadFile(out); err == nil {
		if !bytes.Contains(b, []byte(Marker)) && !force {
			return &Error{Msg: fmt.Sprintf("%s exists and was not written by cling (use --force to overwrite it)", out)}
		}
		if st, err := os.Stat(out); err == nil && st.Mode().Perm()&0o200 == 0 {
			return &Error{Msg: fmt.Sprintf("cannot write %s: file is read-only", out)}
		}
	}
	return nil
}

// DefaultOut is the file gen writes for a pair without Config.Out:
// cling_<E name>_test.go in R's directory.
func DefaultOut(a *couple.Analysis) string {
	return filepath.Join(a.Caller.Pkg.Dir, "cling_"+a.Callee.Pkg.Name+"_test.go")
}

// writable reports whether files can be created in dir, without creating
// any.
func writable(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return syscall.Access(dir, 2) // W_OK
}

// dialectOf picks testify when the caller's module already requires it
// (writing the test file must not change go.mod), the standard testing
// package otherwise.
func dialectOf(a *couple.Analysis) emit.Dialect {
	m := a.Caller.Pkg.Module
	if m == nil || m.GoMod == "" {
		return emit.Std
	}
	data, err := os.ReadFile(m.GoMod)
	if err != nil {
		return emit.Std
	}
	f, err := modfile.ParseLax(m.GoMod, data, nil)
	if err != nil {
		return emit.Std
	}
	for _, r := range f.Require {
		if r.Mod.Path == "github.com/stretchr/testify" {
			return emit.Testify
		}
	}
	return emit.Std
}

// seedConstants adds to the constant pool the literals of the test files of
// R and E (realistic inputs) and of the other packages the cluster calls,
// except those of the generated files (Config.Generated). Only the parse
// of their files is needed, not a type-checked load.
func seedConstants(a *couple.Analysis, c *testcase.Cluster, tags []string, generated []string) {
	skip := map[string]bool{}
	for _, f := range generated {
		skip[filepath.Clean(f)] = true
	}
	dirs := []string{a.Caller.Pkg.Dir, a.Callee.Pkg.Dir}
	if pkgs := c.SeedPackages(); len(pkgs) > 0 {
		if listed, err := ccfg.List(ccfg.LoadConfig{Dir: a.Prog.Dir, Tags: tags, Patterns: pkgs}); err == nil {
			for _, l := range listed {
				dirs = append(dirs, l.Dir)
			}
		}
	}
	for i, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		sort.Strings(files)
		for _, f := range files {
			// R's and E's own files are already in the pool.
			if i < 2 && !strings.HasSuffix(f, "_test.go") || skip[f] {
				continue
			}
			src, err := os.ReadFile(f)
			// Files cling wrote are its own output, not the module's:
			// reading their literals would make a second run with the
			// same seed differ from the first.
			if err != nil || bytes.Contains(src, []byte(Marker)) {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.SkipObjectResolution)
			if err == nil {
				c.Constants.Add(parsed)
			}
		}
	}
}

// shownSkips is how many skipped functions the error of a pair with no
// callable covering function names; the rest are counted.
const shownSkips = 3

// noCoveringFunction says why no covering function of R can be called,
// in one line: the first few functions skipped, with their reasons, and
// how many more there are. With none skipped, no covering function is
// part of R's API as cling sees it (methods of unexported types that
// R's API never hands out, such as those an exported struct promotes
// from an embedded field): it names the first few covering functions.
func noCoveringFunction(caller string, skipped []testcase.Skip, covering []string) string {
	var why []string
	for _, s := range skipped[:min(len(skipped), shownSkips)] {
		why = append(why, s.What+": "+s.Reason)
	}
	if more := len(skipped) - shownSkips; more > 0 {
		why = append(why, fmt.Sprintf("and %d more", more))
	}
	if len(skipped) == 0 {
		names := covering[:min(len(covering), shownSkips)]
		list := strings.Join(names, ", ")
		if more := len(covering) - shownSkips; more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		why = append(why, fmt.Sprintf("%s: methods of unexported types that R's API does not hand out (cling does not call methods promoted through an embedded field)", list))
	}
	return fmt.Sprintf("cling cannot call any covering function of %s: %s", caller, strings.Join(why, "; "))
}
