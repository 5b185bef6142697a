// Command effectiveness is cling's effectiveness benchmark. On pairs of
// packages (caller R, callee E) from real modules it runs `cling gen` in
// a set of configurations, variants (by default MOSA and random search;
// any algorithms, or any named sets of gen flags), several seeds each
// under the same time budget, measures the coupled-branch coverage (CBC)
// of each pair's own hand-written tests and of their union with the
// generated tests, and reports per pair the mean and spread of the CBC of
// every variant and, against a baseline variant, the Vargha-Delaney
// effect size Â12 and the two-sided Mann-Whitney U test. Optional
// measures (-measure) add figures per written file: its mutation score,
// its run time and allocations.
//
// Every run is appended to a results file as it finishes; a rerun skips
// the runs the file holds, and -report renders the tables from the file
// alone. It works on copies of the modules in a temporary directory, which
// it removes at the end (-keep keeps it). See README.md in this directory.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cling-go/cling/internal/fstree"
)

// marker is the line cling puts in the test files it writes (gen.Marker).
const marker = "// Code written by cling; regenerate with cling gen."

// defaultModules are the real modules of the benchmark, at fixed versions.
const defaultModules = "github.com/expr-lang/expr@v1.17.8,github.com/hashicorp/hcl@v1.0.0,github.com/yuin/goldmark@v1.8.7"

// probeSeed is the seed of the selection probes; it is not one of the
// measured seeds (1..N).
const probeSeed = 1000

type options struct {
	cling        string
	clingVersion string
	modules      []string
	pairs        []pairSpec
	// variants are the cling gen configurations to run (or, with
	// -report, to render); baseline names the one the others are
	// compared with.
	variants []variant
	baseline string
	budget   time.Duration
	// maxEvals, when positive, bounds every measured run by evaluations
	// instead of time (--max-evals; --budget is then only a safety cap).
	maxEvals    int
	probeBudget time.Duration
	probeMin    float64
	seeds       int
	maxSeeds    int
	workers     int
	store       string
	reportOnly  bool
	// variantsSet says that -algorithms or -variants was given.
	variantsSet bool
	// unionAll measures the union with the hand-written tests for every
	// variant's files, not only the baseline's.
	unionAll bool
	// measures are the -measure steps run on every written file.
	measures   []string
	rules      selectRules
	results    string
	keep       bool
	selectOnly bool
	// args are the command-line arguments, for the report.
	args []string
}

func main() {
	os.Exit(realMain(os.Args[1:]))
}

func realMain(args []string) int {
	opt, err := parseFlags(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "effectiveness:", err)
		return 2
	}
	opt.args = args
	if opt.reportOnly {
		if err := storedReport(os.Stdout, opt); err != nil {
			fmt.Fprintln(os.Stderr, "effectiveness:", err)
			return 1
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b := &bench{opt: opt}
	err = b.main(ctx)
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "effectiveness: interrupted")
		return 1
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "effectiveness:", err)
		return 1
	}
	return 0
}

func parseFlags(args []string) (*options, error) {
	fl := flag.NewFlagSet("effectiveness", flag.ContinueOnError)
	opt := &options{}
	var modules, pairs, algorithms, variants, union, measures string
	fl.StringVar(&opt.cling, "cling", "", "cling binary to measure (required, except with -report)")
	fl.StringVar(&opt.clingVersion, "cling-version", "", "how to name the measured cling in the report (commit)")
	fl.StringVar(&modules, "modules", defaultModules, "comma-separated MODULE@VERSION list to fetch from the module proxy")
	fl.StringVar(&pairs, "pairs", "", "comma-separated module:R:E pairs to measure instead of selecting them (module = last element of the module path, e.g. expr:./parser:./parser/lexer)")
	fl.StringVar(&algorithms, "algorithms", "", "comma-separated search algorithms to compare (cling gen --algorithm), each a variant of its name (default "+defaultAlgorithms+" unless -variants is given)")
	fl.StringVar(&variants, "variants", "", "cling gen configurations to compare: NAME[=FLAGS] separated by commas (by semicolons when FLAGS hold commas); FLAGS are gen flags separated by spaces, the algorithm is NAME up to a '+' unless FLAGS set --algorithm (e.g. 'mosa+hmx=--crossover=hmx,mosa'); with -report, the stored variants to render")
	fl.StringVar(&opt.baseline, "baseline", "", "the variant every other one is compared with (default: mosa if it runs, else the first variant)")
	fl.StringVar(&union, "union", "baseline", "whose written files are measured together with the hand-written tests: baseline or all")
	fl.StringVar(&measures, "measure", "", "comma-separated measures of every written file, stored with its run: "+measureNames())
	fl.DurationVar(&opt.budget, "budget", 60*time.Second, "search budget of every cling gen run")
	fl.IntVar(&opt.maxEvals, "max-evals", 0, "bound every cling gen run by N evaluations instead of -budget (--max-evals N, with a time cap of "+evalsTimeCap.String()+"): the comparison does not depend on the machine's load, and a run is reproducible")
	fl.DurationVar(&opt.probeBudget, "probe-budget", 5*time.Second, "search budget of the selection probes")
	fl.Float64Var(&opt.probeMin, "probe-min", 0.05, "selection: smallest share of coupled branches a probe must cover")
	fl.IntVar(&opt.seeds, "seeds", 5, "seeds 1..N per variant and pair")
	fl.IntVar(&opt.maxSeeds, "max-seeds", 0, "then seeds up to N for the variants whose comparison with the baseline on a pair is not significant (and for the baseline); 0: none")
	fl.StringVar(&opt.store, "store", "bench/effectiveness/algorithms.jsonl", "results file: every run is appended to it, and a rerun skips the runs it holds")
	fl.BoolVar(&opt.reportOnly, "report", false, "only render the tables of the results file (-store) for the runs of -budget by -cling-version (default: the cling of the file's last such run), of every stored variant or those of -algorithms and -variants; run nothing")
	fl.IntVar(&opt.workers, "workers", 2, "cling gen --workers")
	fl.IntVar(&opt.rules.PerModule, "per-module", 2, "pairs to select per module")
	fl.IntVar(&opt.rules.MinCoupled, "min-coupled", 50, "selection: fewest coupled branches of a pair")
	fl.IntVar(&opt.rules.MaxCoupled, "max-coupled", 3000, "selection: most coupled branches of a pair")
	fl.StringVar(&opt.results, "results", "bench/effectiveness/results", "directory for the report and raw data (a subdirectory per run)")
	fl.BoolVar(&opt.keep, "keep", false, "keep the temporary work directory")
	fl.BoolVar(&opt.selectOnly, "select-only", false, "only select (and probe) the pairs, then stop")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	if fl.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	fl.Visit(func(f *flag.Flag) {
		opt.variantsSet = opt.variantsSet || f.Name == "algorithms" || f.Name == "variants"
	})
	if !opt.variantsSet {
		algorithms = defaultAlgorithms
	}
	var err error
	if opt.variants, err = benchVariants(algorithms, variants); err != nil {
		return nil, err
	}
	if opt.reportOnly {
		return opt, nil
	}
	if opt.baseline, err = chooseBaseline(opt.variants, opt.baseline); err != nil {
		return nil, err
	}
	switch union {
	case "baseline":
	case "all":
		opt.unionAll = true
	default:
		return nil, fmt.Errorf("-union %s: want baseline or all", union)
	}
	if opt.measures, err = parseMeasures(measures); err != nil {
		return nil, err
	}
	if opt.cling == "" {
		return nil, errors.New("-cling is required")
	}
	abs, err := filepath.Abs(opt.cling)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() {
		return nil, fmt.Errorf("-cling %s: not a file", opt.cling)
	}
	opt.cling = abs
	for _, m := range strings.Split(modules, ",") {
		if m = strings.TrimSpace(m); m != "" {
			if !strings.Contains(m, "@") {
				return nil, fmt.Errorf("module %q: want MODULE@VERSION", m)
			}
			opt.modules = append(opt.modules, m)
		}
	}
	if len(opt.modules) == 0 {
		return nil, errors.New("no module")
	}
	if pairs != "" {
		if opt.pairs, err = parsePairSpecs(pairs); err != nil {
			return nil, err
		}
	}
	if opt.seeds < 1 || opt.budget <= 0 || opt.maxEvals < 0 || opt.probeBudget <= 0 || opt.workers < 1 || opt.rules.PerModule < 1 {
		return nil, errors.New("-seeds, -budget, -probe-budget, -workers and -per-module must be positive")
	}
	if opt.maxSeeds != 0 && opt.maxSeeds < opt.seeds {
		return nil, errors.New("-max-seeds must be at least -seeds")
	}
	return opt, nil
}

// module is a writable copy of a real module.
type module struct {
	Path, Version, Short string
	// Dir is the copy the runs use; pristine is an untouched copy to
	// restore from; baseline is the content hash of every file.
	Dir, pristine string
	baseline      map[string]string
	pkgs          map[string]goPackage
	pairs         []pairInfo
	selection     []candidate
}

// pair is a pair being measured.
type pair struct {
	Mod            *module
	Caller, Callee string
	Coupled        int
	Reason         string
	Hand           *cbcOut
	HandErr        string
	Runs           []*runRecord
	Checks         []string
}

func (p *pair) name() string {
	return fmt.Sprintf("%s: %s → %s", p.Mod.Short, relPath(p.Caller, p.Mod.Path), relPath(p.Callee, p.Mod.Path))
}

func (p *pair) slug() string {
	f := func(s string) string {
		r := relPath(s, p.Mod.Path)
		if r == "." {
			return "root"
		}
		return strings.ReplaceAll(r, "/", "-")
	}
	return p.Mod.Short + "_" + f(p.Caller) + "__" + f(p.Callee)
}

// runRecord is one cling gen run: a line of the results file, runs.jsonl
// and runs.csv.
type runRecord struct {
	Module string `json:"module"`
	Caller string `json:"caller"`
	Callee string `json:"callee"`
	// Variant and Flags are the variant's name and its cling gen flags
	// (separated by spaces); Algorithm is the algorithm they select.
	Variant   string `json:"variant"`
	Flags     string `json:"flags"`
	Algorithm string `json:"algorithm"`
	Seed      int64  `json:"seed"`
	Budget    string `json:"budget"`
	// Cling is the measured cling (its commit, -cling-version).
	Cling       string  `json:"cling"`
	Workers     int     `json:"workers"`
	Status      string  `json:"status"` // ok or failed
	Error       string  `json:"error,omitempty"`
	Command     string  `json:"command"`
	WallSeconds float64 `json:"wallSeconds"`
	// Coupled and Covered are from the --stats row: the goals and what
	// the search archive covered. FileCovered is what the tests of the
	// written file cover (gen --json "covered"), after minimisation and
	// verification.
	Coupled     int      `json:"coupledBranches"`
	Covered     int      `json:"covered"`
	CBC         float64  `json:"cbc"`
	FileCovered int      `json:"fileCovered"`
	Tests       int      `json:"tests"`
	Dropped     []string `json:"dropped,omitempty"`
	Evaluations int      `json:"evaluations"`
	// SearchExecutions is what the executor ran during the search: the
	// evaluations and the runs that confirmed archived tests (gen --json
	// searchExecutions; 0 before cling reported it).
	SearchExecutions int     `json:"searchExecutions,omitempty"`
	Generations      int     `json:"generations"`
	SearchSeconds    float64 `json:"searchSeconds"`
	// SearchBatchSeconds is the part of the search spent waiting for the
	// executor's batches (gen --json searchBatchSeconds; 0 before cling
	// reported it): the rest is the search's own work.
	SearchBatchSeconds float64 `json:"searchBatchSeconds,omitempty"`
	// Statements is the statements of R and E the search's tests executed
	// (the stats row's statementsExecuted; 0 before cling counted them).
	Statements int64 `json:"statementsExecuted,omitempty"`
	// TestFile is the saved copy of the generated file, relative to the
	// results directory Results (the run's subdirectory of -results);
	// TestPath is where cling wrote it, relative to the module.
	TestFile string `json:"testFile,omitempty"`
	Results  string `json:"results,omitempty"`
	TestPath string `json:"testPath,omitempty"`
	// Union* are `cling cbc` of R's tests with this generated file added.
	UnionCovered *int `json:"unionCovered,omitempty"`
	UnionAdded   *int `json:"unionAdded,omitempty"`
	UnionLost    *int `json:"unionLost,omitempty"`
	// AloneCovered is `cling cbc --run <generated tests>`: what the
	// generated tests cover when run by go test (seed 1 only).
	AloneCovered *int `json:"aloneCovered,omitempty"`
	// Measures holds the figures of the -measure steps, by measure name.
	Measures map[string]*measurement `json:"measures,omitempty"`
	// Criteria is the coverage of every criterion by the written file, as
	// cling gen reports it (clings that report it).
	Criteria []criterionCov `json:"criteria,omitempty"`
	// Stats is the --stats row as cling wrote it.
	Stats json.RawMessage `json:"stats,omitempty"`
	// stored is set for a run the results file held from an earlier
	// benchmark: it is not run again, nor checked.
	stored bool
}

// bench is one benchmark run.
type bench struct {
	opt      *options
	work     string
	out      string // results directory of this run
	stamp    string
	cmdLog   *os.File
	goVer    string
	mods     []*module
	pairs    []*pair
	store    *store
	problems []string
	nstats   int
	started  time.Time
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "effectiveness: "+format+"\n", args...)
}

// problem records something wrong with cling (or the environment) for the
// report, and logs it.
func (b *bench) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.problems = append(b.problems, msg)
	b.logf("PROBLEM: %s", msg)
}

func (b *bench) main(ctx context.Context) (err error) {
	b.started = time.Now()
	b.stamp = b.started.UTC().Format("20060102T150405Z")
	b.out, err = filepath.Abs(filepath.Join(b.opt.results, b.stamp))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(b.out, "tests"), 0o755); err != nil {
		return err
	}
	if b.cmdLog, err = os.Create(filepath.Join(b.out, "commands.log")); err != nil {
		return err
	}
	defer b.cmdLog.Close()
	b.work, err = os.MkdirTemp("", "cling-effectiveness.")
	if err != nil {
		return err
	}
	if b.opt.keep {
		b.logf("work directory (kept): %s", b.work)
	} else {
		defer func() {
			if rerr := removeAll(b.work); rerr != nil {
				b.logf("removing %s: %v", b.work, rerr)
			} else {
				b.logf("removed the work directory %s", b.work)
			}
		}()
	}
	b.logf("results: %s", b.out)
	if b.store, err = openStore(b.opt.store); err != nil {
		return err
	}
	b.logf("results file: %s (%d runs)", b.opt.store, len(b.store.order))
	if v, err := exec.Command("go", "version").Output(); err == nil {
		b.goVer = strings.TrimSpace(string(v))
	}

	for _, spec := range b.opt.modules {
		m, err := b.fetch(ctx, spec)
		if err != nil {
			return err
		}
		b.mods = append(b.mods, m)
	}
	if err := b.selectPairs(ctx); err != nil {
		return err
	}
	if err := b.writeSelection(); err != nil {
		return err
	}
	if len(b.pairs) == 0 {
		return errors.New("no pair to measure")
	}
	runs := len(b.pairs) * b.opt.seeds * len(b.opt.variants)
	// about 25 s of build, minimisation and verification per gen run and
	// seeds+3 cling cbc runs per pair (about 30 s each).
	est := time.Duration(runs)*(b.opt.limit().estimate()+25*time.Second) + time.Duration(len(b.pairs)*(b.opt.seeds+3))*30*time.Second
	extra := ""
	if len(b.opt.measures) > 0 {
		extra = " plus the measures " + strings.Join(b.opt.measures, ", ") + " of every file"
	}
	b.logf("%d pairs × %d seeds × %d variants = %d cling gen runs of %s (fewer if the results file holds some; more with -max-seeds); estimated time %s%s",
		len(b.pairs), b.opt.seeds, len(b.opt.variants), runs, b.opt.limit(), est.Round(time.Minute), extra)
	if b.opt.selectOnly {
		md := b.selectionMarkdown()
		fmt.Print(md)
		return os.WriteFile(filepath.Join(b.out, "report.md"), []byte(md), 0o644)
	}
	for i, p := range b.pairs {
		b.logf("pair %d of %d: %s (%d coupled branches)", i+1, len(b.pairs), p.name(), p.Coupled)
		if err := b.measure(ctx, p); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := b.writeRuns(); err != nil {
			return err
		}
		if i+1 < len(b.pairs) {
			// a partial report, in case the run is stopped
			if err := os.WriteFile(filepath.Join(b.out, "report.md"), []byte(b.report(i+1)), 0o644); err != nil {
				return err
			}
		}
	}
	md := b.report(len(b.pairs))
	if err := os.WriteFile(filepath.Join(b.out, "report.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Print(md)
	b.logf("report: %s", filepath.Join(b.out, "report.md"))
	return nil
}

// removeAll removes a directory tree, making it writable first (the go
// command leaves read-only files behind in module caches).
func removeAll(dir string) error {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// ---- commands ----

// cmdResult is the outcome of a command.
type cmdResult struct {
	Display        string
	Stdout, Stderr []byte
	Code           int // exit status; -1 if it did not run to an exit
	Err            error
	Seconds        float64
}

// message is the command's error output in one line.
func (r cmdResult) message() string {
	s := strings.TrimSpace(string(r.Stderr))
	if s == "" && r.Err != nil {
		s = r.Err.Error()
	}
	return oneLine(s)
}

// oneLine puts a command's output on one line, cut after 600 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

// run runs a command in dir with a time limit. label names dir in the
// displayed command line.
func (b *bench) run(ctx context.Context, dir, label string, timeout time.Duration, name string, args ...string) cmdResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	ownGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	shown := name
	if name == b.opt.cling {
		shown = "cling"
	}
	display := fmt.Sprintf("(cd %s && %s)", label, shellJoin(append([]string{shown}, args...)))
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		killGroup(cmd)
	}
	r := cmdResult{Display: display, Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: -1, Err: err, Seconds: time.Since(start).Seconds()}
	if cmd.ProcessState != nil && cmd.ProcessState.Exited() {
		r.Code = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() == context.DeadlineExceeded {
		r.Err = fmt.Errorf("killed after the time limit of %s", timeout)
		r.Stderr = append(r.Stderr, []byte("\n(killed after the time limit of "+timeout.String()+")")...)
	}
	fmt.Fprintf(b.cmdLog, "%s %s\n  exit %d in %.1fs", start.UTC().Format(time.RFC3339), display, r.Code, r.Seconds)
	if r.Code != 0 {
		fmt.Fprintf(b.cmdLog, ": %s", r.message())
	}
	fmt.Fprintln(b.cmdLog)
	return r
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' || r == '@' || r == ',' ||
				r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) < 0 {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// ---- modules ----

// shortName names a module by the last element of its path, or the one
// before a major version suffix: expr, go-toml (github.com/pelletier/go-toml/v2).
func shortName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

// fetch downloads MODULE@VERSION through the module proxy and makes a
// writable copy (and a pristine one) in the work directory.
func (b *bench) fetch(ctx context.Context, spec string) (*module, error) {
	path, version, _ := strings.Cut(spec, "@")
	short := shortName(path)
	for _, m := range b.mods {
		if m.Short == short {
			return nil, fmt.Errorf("two modules named %s", short)
		}
	}
	b.logf("fetching %s", spec)
	r := b.run(ctx, b.work, "$WORK", 10*time.Minute, "go", "mod", "download", "-json", spec)
	var info struct{ Path, Version, Dir, Error string }
	if jerr := json.Unmarshal(r.Stdout, &info); jerr != nil || r.Code != 0 || info.Error != "" || info.Dir == "" {
		return nil, fmt.Errorf("go mod download %s: %s %s", spec, info.Error, r.message())
	}
	m := &module{Path: path, Version: version, Short: short,
		Dir: filepath.Join(b.work, "modules", short), pristine: filepath.Join(b.work, "pristine", short)}
	if err := fstree.Copy(info.Dir, m.Dir); err != nil {
		return nil, err
	}
	// The dependencies of the module (hcl needs go-spew for its tests).
	if r := b.run(ctx, m.Dir, short, 10*time.Minute, "go", "mod", "download"); r.Code != 0 {
		return nil, fmt.Errorf("go mod download in %s: %s", short, r.message())
	}
	if err := fstree.Copy(m.Dir, m.pristine); err != nil {
		return nil, err
	}
	var err error
	if m.baseline, err = hashTree(m.Dir); err != nil {
		return nil, err
	}
	r = b.run(ctx, m.Dir, short, 10*time.Minute, "go", "list", "-e", "-json=ImportPath,Dir,Name,TestGoFiles,XTestGoFiles", "./...")
	if r.Code != 0 {
		return nil, fmt.Errorf("go list in %s: %s", short, r.message())
	}
	m.pkgs = map[string]goPackage{}
	dec := json.NewDecoder(bytes.NewReader(r.Stdout))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list in %s: %v", short, err)
		}
		m.pkgs[p.ImportPath] = p
	}
	r = b.run(ctx, m.Dir, short, 10*time.Minute, b.opt.cling, "pairs", "--json", "./...")
	var pr struct{ Pairs []pairInfo }
	if err := json.Unmarshal(r.Stdout, &pr); err != nil || r.Code != 0 {
		return nil, fmt.Errorf("cling pairs in %s: %s", short, r.message())
	}
	m.pairs = pr.Pairs
	b.logf("%s: %d packages, %d pairs", short, len(m.pkgs), len(m.pairs))
	return m, nil
}

// hashTree maps every file under dir (relative, slash-separated) to the
// hash of its contents.
func hashTree(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		h := sha256.Sum256(data)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(h[:])
		return nil
	})
	return out, err
}

// treeDiff lists the files added, changed and removed since the baseline.
func (m *module) treeDiff() (added, changed, removed []string, err error) {
	now, err := hashTree(m.Dir)
	if err != nil {
		return nil, nil, nil, err
	}
	for f, h := range now {
		switch old, ok := m.baseline[f]; {
		case !ok:
			added = append(added, f)
		case old != h:
			changed = append(changed, f)
		}
	}
	for f := range m.baseline {
		if _, ok := now[f]; !ok {
			removed = append(removed, f)
		}
	}
	sort.Strings(added)
	sort.Strings(changed)
	sort.Strings(removed)
	return added, changed, removed, nil
}

// restoreFile puts back the pristine version of a module file.
func (m *module) restoreFile(rel string) error {
	data, err := os.ReadFile(filepath.Join(m.pristine, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	dst := filepath.Join(m.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// clean takes the files cling wrote out of the module copy and checks that
// nothing else changed. keep, if not "", is the absolute path of the one
// generated file the caller wants (returned with its contents, then
// removed like the rest); the file of fault reproducers gen writes beside
// it is expected too. Anything else is a problem, which is reported
// and undone so that the next run starts from the pristine module.
func (b *bench) clean(m *module, what, keep string) (kept []byte) {
	added, changed, removed, err := m.treeDiff()
	if err != nil {
		b.problem("checking the %s copy after %s: %v", m.Short, what, err)
		return nil
	}
	for _, f := range added {
		path := filepath.Join(m.Dir, filepath.FromSlash(f))
		data, _ := os.ReadFile(path)
		switch {
		case path == keep:
			kept = data
		case keep != "" && path == strings.TrimSuffix(keep, "_test.go")+"_faults_test.go":
			// gen's reproducers of the faults it found, beside the tests
			// (behind a build tag): not measured here
		case strings.HasSuffix(f, "_test.go") && bytes.Contains(data, []byte(marker)):
			// a file of cling's nobody asked for
			b.problem("after %s: %s/%s, written by cling, was not expected", what, m.Short, f)
		default:
			b.problem("after %s: new file %s/%s in the module copy", what, m.Short, f)
		}
		os.Remove(path)
	}
	for _, f := range append(changed, removed...) {
		b.problem("after %s: %s/%s was changed or removed", what, m.Short, f)
		if err := m.restoreFile(f); err != nil {
			b.problem("restoring %s/%s: %v", m.Short, f, err)
		}
	}
	return kept
}

// ---- selection ----

func (b *bench) selectPairs(ctx context.Context) error {
	if len(b.opt.pairs) > 0 {
		for _, s := range b.opt.pairs {
			var m *module
			for _, x := range b.mods {
				if x.Short == s.Module || x.Path == s.Module {
					m = x
				}
			}
			if m == nil {
				return fmt.Errorf("-pairs: no module %q among %s", s.Module, strings.Join(b.opt.modules, ", "))
			}
			p := &pair{Mod: m, Caller: resolvePkg(s.Caller, m.Path), Callee: resolvePkg(s.Callee, m.Path), Reason: "given with -pairs"}
			for _, x := range m.pairs {
				if x.Caller == p.Caller && x.Callee == p.Callee {
					p.Coupled = x.CoupledBranches
				}
			}
			if p.Coupled == 0 {
				b.logf("%s is not among the non-trivial pairs of cling pairs; measuring it anyway", p.name())
			}
			b.pairs = append(b.pairs, p)
		}
		return nil
	}
	for _, m := range b.mods {
		hand := map[string]*cbcOut{}
		probe := func(c *candidate) (string, string) {
			p := &pair{Mod: m, Caller: c.Caller, Callee: c.Callee, Coupled: c.CoupledBranches}
			b.logf("probing %s (%d coupled branches)", p.name(), c.CoupledBranches)
			rec := b.gen(ctx, p, probeVariant, probeSeed, searchLimit{time: b.opt.probeBudget}, "probe")
			if rec.Status != "ok" {
				return fmt.Sprintf("`%s` failed: %s", rec.Command, rec.Error), ""
			}
			if float64(rec.Covered) < b.opt.probeMin*float64(c.CoupledBranches) || rec.Covered == 0 {
				return fmt.Sprintf("`%s` covered only %d of %d coupled branches (less than %.0f%%): cling reaches too little of this interface for the pair to compare search algorithms",
					rec.Command, rec.Covered, c.CoupledBranches, 100*b.opt.probeMin), ""
			}
			h, r, err := b.cbc(ctx, m, c.Caller, c.Callee, "")
			b.clean(m, r.Display, "")
			if err != nil {
				return fmt.Sprintf("`%s` failed: %v", r.Display, err), ""
			}
			hand[c.Caller+" "+c.Callee] = h
			return "", fmt.Sprintf("probe: %s MOSA search covered %d, its file %d", b.opt.probeBudget, rec.Covered, rec.FileCovered)
		}
		m.selection = choose(m.pairs, m.Path, m.pkgs, b.opt.rules, probe)
		for _, c := range m.selection {
			if c.Status == "chosen" {
				p := &pair{Mod: m, Caller: c.Caller, Callee: c.Callee, Coupled: c.CoupledBranches, Reason: c.Reason, Hand: hand[c.Caller+" "+c.Callee]}
				b.logf("chosen: %s — %s", p.name(), c.Reason)
				b.pairs = append(b.pairs, p)
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// ---- cling gen ----

// probeVariant is the configuration of the selection probes: MOSA.
var probeVariant = variant{Name: "mosa", Flags: []string{"--algorithm=mosa"}, Algorithm: "mosa"}

// gen runs cling gen once for a pair in variant v and takes its file out
// of the module copy (kept as tests/<pair>/<variant>-seed<N>-<file>.txt
// when tag is "run").
func (b *bench) gen(ctx context.Context, p *pair, v variant, seed int64, limit searchLimit, tag string) *runRecord {
	m := p.Mod
	b.nstats++
	statsFile := filepath.Join(b.work, "stats", fmt.Sprintf("%03d.jsonl", b.nstats))
	os.MkdirAll(filepath.Dir(statsFile), 0o755)
	args := append([]string{"gen", "--caller", p.Caller, "--callee", p.Callee}, v.Flags...)
	args = append(append(args, "--seed", strconv.FormatInt(seed, 10)), limit.flags()...)
	args = append(args, "--workers", strconv.Itoa(b.opt.workers))
	// The displayed command leaves out the bookkeeping flags.
	r := b.run(ctx, m.Dir, m.Short, limit.timeout(), b.opt.cling, append(args, "--stats", statsFile, "--json")...)
	rec := &runRecord{Module: m.Path + "@" + m.Version, Caller: p.Caller, Callee: p.Callee,
		Variant: v.Name, Flags: v.flagString(), Algorithm: v.Algorithm, Seed: seed,
		Budget: limit.String(), Cling: b.opt.clingVersion, Workers: b.opt.workers, Status: "ok",
		Command: fmt.Sprintf("(cd %s && %s)", m.Short, shellJoin(append([]string{"cling"}, args...))), WallSeconds: r.Seconds}
	if r.Code != 0 {
		rec.Status, rec.Error = "failed", fmt.Sprintf("exit status %d: %s", r.Code, r.message())
	} else {
		var rep struct {
			CoupledBranches int            `json:"coupledBranches"`
			Covered         int            `json:"covered"`
			TestFile        string         `json:"testFile"`
			Tests           int            `json:"tests"`
			SearchExecs     int            `json:"searchExecutions"`
			SearchBatch     float64        `json:"searchBatchSeconds"`
			Dropped         []string       `json:"dropped"`
			Criteria        []criterionCov `json:"criteria"`
		}
		if err := json.Unmarshal(r.Stdout, &rep); err != nil {
			rec.Status, rec.Error = "failed", "cannot read the --json output: "+err.Error()
		}
		rec.FileCovered, rec.Tests, rec.Dropped, rec.Criteria = rep.Covered, rep.Tests, rep.Dropped, rep.Criteria
		rec.SearchExecutions, rec.SearchBatchSeconds = rep.SearchExecs, rep.SearchBatch
		if rel, err := filepath.Rel(m.Dir, rep.TestFile); err == nil && !strings.HasPrefix(rel, "..") {
			rec.TestPath = filepath.ToSlash(rel)
		} else if rec.Status == "ok" {
			rec.Status, rec.Error = "failed", fmt.Sprintf("cling reported writing %s, outside the module", rep.TestFile)
		}
		line, err := lastLine(statsFile)
		var st struct {
			Goals         int     `json:"coupledBranches"`
			Covered       int     `json:"covered"`
			CBC           float64 `json:"cbc"`
			Evaluations   int     `json:"evaluations"`
			Generations   int     `json:"generations"`
			SearchSeconds float64 `json:"searchSeconds"`
			Statements    int64   `json:"statementsExecuted"`
		}
		if err == nil {
			err = json.Unmarshal(line, &st)
		}
		if err != nil {
			rec.Status, rec.Error = "failed", "cannot read the --stats row: "+err.Error()
		} else {
			rec.Stats = json.RawMessage(line)
			rec.Coupled, rec.Covered, rec.CBC = st.Goals, st.Covered, st.CBC
			rec.Evaluations, rec.Generations, rec.SearchSeconds, rec.Statements = st.Evaluations, st.Generations, st.SearchSeconds, st.Statements
			if rep.CoupledBranches != st.Goals {
				b.problem("%s: --json says %d coupled branches, --stats %d", rec.Command, rep.CoupledBranches, st.Goals)
			}
			if p.Coupled != 0 && st.Goals != p.Coupled {
				b.problem("%s: %d coupled branches, but cling pairs lists %d for the pair", rec.Command, st.Goals, p.Coupled)
			}
			// The written file may cover more than the archive: a
			// minimised test can take paths its original did not.
		}
	}
	kept := b.clean(m, rec.Command, b.testPath(p, rec))
	if rec.Status == "ok" && kept == nil {
		rec.Status, rec.Error = "failed", fmt.Sprintf("cling reported writing %s, but the file is not there", rec.TestPath)
	}
	if kept != nil && tag == "run" {
		rel := filepath.Join("tests", p.slug(), fmt.Sprintf("%s-seed%d-%s.txt", v.Name, seed, path.Base(rec.TestPath)))
		if err := os.MkdirAll(filepath.Join(b.out, filepath.Dir(rel)), 0o755); err == nil {
			if err := os.WriteFile(filepath.Join(b.out, rel), kept, 0o644); err == nil {
				rec.TestFile, rec.Results = rel, b.stamp
			}
		}
	}
	if rec.Status != "ok" && tag == "run" {
		b.problem("%s: %s", rec.Command, rec.Error)
	}
	return rec
}

func lastLine(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines) == 0 || len(lines[len(lines)-1]) == 0 {
		return nil, errors.New("empty stats file")
	}
	return lines[len(lines)-1], nil
}

// ---- cling cbc ----

// cbcOut is a `cling cbc --json` report, reduced.
type cbcOut struct {
	Coupled int
	Covered int
	Tests   int
	Failed  []string
	// Set holds the covered coupled branches, keyed by call site, caller
	// target and callee target.
	Set map[string]bool
}

// cbc runs cling cbc on R's tests (only those matching run, if given). A
// failing test suite still gives a report (exit status 1); its failed
// tests are in Failed.
func (b *bench) cbc(ctx context.Context, m *module, caller, callee, run string) (*cbcOut, cmdResult, error) {
	args := []string{"cbc", "--caller", caller, "--callee", callee, "--json"}
	if run != "" {
		args = append(args, "--run", run)
	}
	r := b.run(ctx, m.Dir, m.Short, 30*time.Minute, b.opt.cling, args...)
	var rep struct {
		CoupledBranches int      `json:"coupledBranches"`
		Covered         int      `json:"covered"`
		Tests           int      `json:"tests"`
		FailedTests     []string `json:"failedTests"`
		Pairs           []struct {
			CallSite, CallerTarget, CalleeTarget string
			Covered                              bool
		} `json:"pairs"`
	}
	if r.Code != 0 && r.Code != 1 {
		return nil, r, fmt.Errorf("exit status %d: %s", r.Code, r.message())
	}
	if err := json.Unmarshal(r.Stdout, &rep); err != nil {
		return nil, r, fmt.Errorf("exit status %d, no report: %s", r.Code, r.message())
	}
	out := &cbcOut{Coupled: rep.CoupledBranches, Covered: rep.Covered, Tests: rep.Tests, Failed: rep.FailedTests, Set: map[string]bool{}}
	for _, p := range rep.Pairs {
		if p.Covered {
			out.Set[p.CallSite+" "+p.CallerTarget+" "+p.CalleeTarget] = true
		}
	}
	if len(out.Set) != out.Covered {
		b.problem("%s: reports %d covered but lists %d covered coupled branches", r.Display, out.Covered, len(out.Set))
	}
	return out, r, nil
}

// ---- measuring a pair ----

func (b *bench) measure(ctx context.Context, p *pair) error {
	m := p.Mod
	if p.Hand == nil {
		b.logf("hand-written tests: cling cbc")
		h, r, err := b.cbc(ctx, m, p.Caller, p.Callee, "")
		b.clean(m, r.Display, "")
		if err != nil {
			p.HandErr = err.Error()
			b.problem("%s: %v", r.Display, err)
		}
		p.Hand = h
	}
	if p.Hand != nil && len(p.Hand.Failed) > 0 {
		b.problem("%s: hand-written tests fail under cling cbc: %s", p.name(), b.plainRerun(ctx, p, p.Hand.Failed))
	}
	if p.Hand != nil && p.Coupled != 0 && p.Hand.Coupled != p.Coupled {
		b.problem("%s: cling cbc counts %d coupled branches, cling pairs %d", p.name(), p.Hand.Coupled, p.Coupled)
	}
	for seed := int64(1); seed <= int64(b.opt.seeds); seed++ {
		if err := b.runSeed(ctx, p, seed, b.opt.variants); err != nil {
			return err
		}
	}
	// More seeds where a comparison with the baseline is not significant
	// yet.
	if undecided := b.undecided(p); len(undecided) > 0 {
		for seed := int64(b.opt.seeds) + 1; seed <= int64(b.opt.maxSeeds); seed++ {
			if err := b.runSeed(ctx, p, seed, undecided); err != nil {
				return err
			}
		}
	}
	// Union of the hand-written tests with the files (the baseline's, or
	// every variant's); the tests of seed 1 of each variant alone, as go
	// test runs them; the -measure steps of every file, also of stored
	// runs that lack them when their saved file is still there.
	for _, rec := range p.Runs {
		if rec.Status != "ok" || rec.TestFile == "" || ctx.Err() != nil {
			continue
		}
		changed := false
		if !rec.stored {
			changed = b.checkRun(ctx, p, rec)
		}
		changed = b.measureRun(ctx, p, rec) || changed
		if changed && ctx.Err() == nil {
			if err := b.store.put(rec); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// runSeed runs the variants on a pair with one seed, except the runs the
// results file holds, and appends each new run to the file. The order of
// the variants rotates with the seed, so that load and warm caches favour
// none.
func (b *bench) runSeed(ctx context.Context, p *pair, seed int64, vs []variant) error {
	for i := range vs {
		v := vs[(i+int(seed)-1)%len(vs)]
		if ctx.Err() != nil {
			return ctx.Err()
		}
		key := v.runKey(p.Mod.Path+"@"+p.Mod.Version, p.Caller, p.Callee, seed, b.opt.limit().String(), b.opt.clingVersion)
		if rec := b.store.done(key); rec != nil {
			b.logf("%s: %s seed %d, budget %s: in the results file", p.name(), v.Name, seed, b.opt.limit())
			rec.stored = true
			p.Runs = append(p.Runs, rec)
			continue
		}
		b.logf("%s: %s seed %d, budget %s", p.name(), v.Name, seed, b.opt.limit())
		rec := b.gen(ctx, p, v, seed, b.opt.limit(), "run")
		if ctx.Err() != nil {
			return ctx.Err() // an interrupted run is not a result
		}
		if rec.Status == "ok" {
			b.logf("  covered %d of %d (file %d, %d tests, %d evaluations) in %.0fs", rec.Covered, rec.Coupled, rec.FileCovered, rec.Tests, rec.Evaluations, rec.WallSeconds)
		}
		p.Runs = append(p.Runs, rec)
		if err := b.store.put(rec); err != nil {
			return err
		}
	}
	return nil
}

// undecided returns the variants to run with more seeds, if -max-seeds
// asks for them: those whose comparison with the baseline on p is not
// significant (p ≥ alpha), and the baseline.
func (b *bench) undecided(p *pair) []variant {
	if b.opt.maxSeeds <= b.opt.seeds {
		return nil
	}
	var out []variant
	sum := summarize(p, variantNames(b.opt.variants), b.opt.baseline)
	for i, a := range sum.Vars {
		if a.Name != b.opt.baseline && !(a.MW.P < alpha) {
			out = append(out, b.opt.variants[i])
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, v := range b.opt.variants {
		if v.Name == b.opt.baseline {
			out = append([]variant{v}, out...)
		}
	}
	return out
}

// checkRun measures, for a run of this benchmark, the union of the
// hand-written tests with its file (the baseline's runs, or all with
// -union all) and its tests alone (seed 1). It says whether it added
// figures to the record.
func (b *bench) checkRun(ctx context.Context, p *pair, rec *runRecord) bool {
	if (b.opt.unionAll || rec.Variant == b.opt.baseline) && p.Hand != nil {
		b.union(ctx, p, rec)
	}
	if rec.Seed == 1 {
		b.alone(ctx, p, rec)
	}
	return rec.UnionCovered != nil || rec.AloneCovered != nil
}

// union measures R's own tests with the run's file added.
func (b *bench) union(ctx context.Context, p *pair, rec *runRecord) {
	b.logf("%s: union with %s seed %d", p.name(), rec.Variant, rec.Seed)
	out, r, err := b.cbcWithFile(ctx, p, rec, "")
	if err != nil {
		b.problem("%s (with %s): %v", r.Display, rec.TestFile, err)
		return
	}
	union, added, lost := len(out.Set), 0, 0
	for k := range out.Set {
		if !p.Hand.Set[k] {
			added++
		}
	}
	for k := range p.Hand.Set {
		if !out.Set[k] {
			lost++
		}
	}
	rec.UnionCovered, rec.UnionAdded, rec.UnionLost = &union, &added, &lost
	if lost > 0 {
		p.Checks = append(p.Checks, fmt.Sprintf("%s seed %d: %d coupled branches covered by the hand-written tests alone are not covered with the generated file added", rec.Variant, rec.Seed, lost))
	}
	if f := failedGenerated(out.Failed, b.readSaved(rec)); len(f) > 0 {
		b.problem("%s (with %s): generated tests fail next to the hand-written ones: %s", r.Display, rec.TestFile, strings.Join(f, ", "))
	}
}

// alone measures the run's tests alone, as go test runs them, against what
// cling gen reported for its file.
func (b *bench) alone(ctx context.Context, p *pair, rec *runRecord) {
	names := testNames(b.readSaved(rec))
	if len(names) == 0 {
		return
	}
	b.logf("%s: %s seed 1 tests alone", p.name(), rec.Variant)
	out, r, err := b.cbcWithFile(ctx, p, rec, runRegex(names))
	if err != nil {
		b.problem("%s (with %s): %v", r.Display, rec.TestFile, err)
		return
	}
	alone := out.Covered
	rec.AloneCovered = &alone
	if len(out.Failed) > 0 {
		b.problem("%s (with %s): generated tests fail under cling cbc: %s", shorten(r.Display), rec.TestFile, strings.Join(out.Failed, ", "))
	}
	switch {
	case alone < rec.FileCovered:
		p.Checks = append(p.Checks, fmt.Sprintf("**%s seed 1: cling gen says its file covers %d coupled branches; cling cbc --run <its %d tests> measures only %d**",
			rec.Variant, rec.FileCovered, len(names), alone))
	case alone > rec.FileCovered:
		p.Checks = append(p.Checks, fmt.Sprintf("%s seed 1: cling gen says its file covers %d coupled branches; cling cbc --run <its %d tests> measures %d (more: expected, gen counts only the branches each test was kept for)",
			rec.Variant, rec.FileCovered, len(names), alone))
	}
}

// runRegex is the go test -run pattern of exactly the named tests.
func runRegex(names []string) string {
	return "^(" + strings.Join(names, "|") + ")$"
}

// plainRerun runs failing hand-written tests again with a plain go test,
// to tell failures caused by cling's probes from failures of the suite
// itself, and describes the outcome.
func (b *bench) plainRerun(ctx context.Context, p *pair, failed []string) string {
	var names []string
	for _, f := range failed {
		names = append(names, regexp.QuoteMeta(f[strings.LastIndex(f, ".")+1:]))
	}
	r := b.run(ctx, p.Mod.Dir, p.Mod.Short, 30*time.Minute, "go", "test", "-count=1", "-run", runRegex(names), p.Caller)
	b.clean(p.Mod, r.Display, "")
	verdict := "they pass under a plain go test, so they fail only with cling's probes"
	if r.Code != 0 {
		verdict = "they fail under a plain go test as well (`" + r.Display + "`), so the suite itself fails here"
	}
	return strings.Join(failed, ", ") + "; " + verdict
}

// shorten abbreviates the --run (-run, -test.run) regex of the generated
// tests in a displayed command.
func shorten(display string) string {
	if i := strings.Index(display, "run '^("); i >= 0 {
		i += len("run ")
		if j := strings.Index(display[i:], ")$'"); j >= 0 {
			return display[:i] + "'^(<generated tests>)$'" + display[i+j+3:]
		}
	}
	return display
}

// readSaved returns the saved copy of a run's generated file, from the
// results directory of the benchmark that ran it (nil if it is gone).
func (b *bench) readSaved(rec *runRecord) []byte {
	if rec.TestFile == "" {
		return nil
	}
	dir := b.out
	if rec.Results != "" {
		dir = filepath.Join(filepath.Dir(b.out), rec.Results)
	}
	data, _ := os.ReadFile(filepath.Join(dir, rec.TestFile))
	return data
}

// testPath is where cling gen wrote the run's file in the module copy, or
// "" if it wrote none.
func (b *bench) testPath(p *pair, rec *runRecord) string {
	if rec.TestPath == "" {
		return ""
	}
	return filepath.Join(p.Mod.Dir, filepath.FromSlash(rec.TestPath))
}

// withFile puts a run's generated file back into the module copy, runs a
// command there, and takes the file out again (checking, as after every
// command, that nothing else changed).
func (b *bench) withFile(p *pair, rec *runRecord, command func() cmdResult) (cmdResult, error) {
	dst := b.testPath(p, rec)
	data := b.readSaved(rec)
	if dst == "" || data == nil {
		return cmdResult{Display: "restoring " + rec.TestFile}, errors.New("the saved file is gone")
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return cmdResult{Display: "writing " + dst}, err
	}
	r := command()
	r.Display = shorten(r.Display)
	b.clean(p.Mod, r.Display, dst)
	return r, nil
}

// cbcWithFile runs cling cbc on R's tests (or those matching run) with a
// run's generated file put back.
func (b *bench) cbcWithFile(ctx context.Context, p *pair, rec *runRecord, run string) (*cbcOut, cmdResult, error) {
	var out *cbcOut
	var cbcErr error
	r, err := b.withFile(p, rec, func() cmdResult {
		var r cmdResult
		out, r, cbcErr = b.cbc(ctx, p.Mod, p.Caller, p.Callee, run)
		return r
	})
	if err == nil {
		err = cbcErr
	}
	return out, r, err
}

var testFuncRE = regexp.MustCompile(`(?m)^func (Test\w*)\(t \*testing\.T\)`)

// testNames lists the test functions of a generated file.
func testNames(src []byte) []string {
	var out []string
	for _, m := range testFuncRE.FindAllSubmatch(src, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// failedGenerated lists the failed tests (package.TestName, as cling cbc
// reports them) that are tests of the generated file.
func failedGenerated(failed []string, generated []byte) []string {
	names := map[string]bool{}
	for _, n := range testNames(generated) {
		names[n] = true
	}
	var out []string
	for _, f := range failed {
		if names[f[strings.LastIndex(f, ".")+1:]] {
			out = append(out, f)
		}
	}
	return out
}

// ---- raw data ----

func (b *bench) writeRuns() error {
	var js bytes.Buffer
	var recs []*runRecord
	for _, p := range b.pairs {
		recs = append(recs, p.Runs...)
	}
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		js.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(b.out, "runs.jsonl"), js.Bytes(), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(b.out, "runs.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	header := "module,caller,callee,variant,flags,algorithm,seed,budget,cling,workers,status,coupled_branches,covered,cbc,file_covered,tests,dropped,evaluations,generations,search_seconds,wall_seconds,union_covered,union_added,union_lost,alone_covered,test_file,error"
	// a column per figure of each measure of the benchmark
	var figures [][2]string
	for _, name := range b.opt.measures {
		for _, f := range measures[name].Figures {
			figures = append(figures, [2]string{name, f.Key})
			header += "," + name + "_" + f.Key
		}
	}
	fmt.Fprintln(w, header)
	opt := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	for _, r := range recs {
		fields := []string{r.Module, r.Caller, r.Callee, r.Variant, r.Flags, r.Algorithm, strconv.FormatInt(r.Seed, 10), r.Budget, r.Cling, strconv.Itoa(r.Workers), r.Status,
			strconv.Itoa(r.Coupled), strconv.Itoa(r.Covered), strconv.FormatFloat(r.CBC, 'f', 4, 64), strconv.Itoa(r.FileCovered),
			strconv.Itoa(r.Tests), strconv.Itoa(len(r.Dropped)), strconv.Itoa(r.Evaluations), strconv.Itoa(r.Generations),
			strconv.FormatFloat(r.SearchSeconds, 'f', 3, 64), strconv.FormatFloat(r.WallSeconds, 'f', 1, 64),
			opt(r.UnionCovered), opt(r.UnionAdded), opt(r.UnionLost), opt(r.AloneCovered), r.TestFile, r.Error}
		for _, f := range figures {
			v := ""
			if m := r.Measures[f[0]]; m != nil {
				if x, ok := m.Figures[f[1]]; ok {
					v = strconv.FormatFloat(x, 'g', -1, 64)
				}
			}
			fields = append(fields, v)
		}
		for i, s := range fields {
			if strings.ContainsAny(s, ",\"\n") {
				fields[i] = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
		}
		fmt.Fprintln(w, strings.Join(fields, ","))
	}
	return w.Flush()
}

func machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %s, %d cores", runtime.GOOS, runtime.GOARCH, cpu, runtime.NumCPU())
}
