// Command mutate benchmarks `cling mutate`. For each target pair it runs
// cling with the hidden --naive flag, which evaluates the mutants with
// mutant schemata (one build per tested package) and then evaluates every
// mutant that ran again the naive way (one workspace, one `go test -c
// -overlay` build and one run of the same selected tests per mutant),
// checking that both give every mutant the same status. It reports the
// medians over the repetitions as a markdown table, and the time gremlins
// takes on the callee package with its own operators, as a reference.
//
// Every repetition runs in a fresh copy of the target, after one untimed
// warm-up run that fills the build cache with the dependencies; the
// schemata run comes first, so the naive builds find the target's
// unmutated packages compiled.
//
// Targets: the shop and mutants fixtures of testdata, and the pair
// parser -> parser/lexer of github.com/expr-lang/expr v1.17.8, fetched
// through the module proxy (or taken from -real DIR). Every target runs in
// a temporary copy that is checked to be byte-identical afterwards.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/internal/fstree"
)

const (
	realModule  = "github.com/expr-lang/expr"
	realVersion = "v1.17.8"
	gremlinsPkg = "github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0"
)

type target struct {
	name, caller, callee string
	dir                  string // module directory to copy
}

// report is the part of cling's JSON output the benchmark reads.
type report struct {
	Counts map[string]int `json:"counts"`
	Score  float64        `json:"score"`
	Timing struct {
		Generate, Build, Baseline, Evaluate, Total float64
	} `json:"timing"`
	Naive struct {
		Mutants    int     `json:"mutants"`
		Seconds    float64 `json:"seconds"`
		Mismatches []any   `json:"mismatches"`
	} `json:"naive"`
	Mutants []json.RawMessage `json:"mutants"`
}

type row struct {
	t                       target
	mutants, ran, mismatch  int
	schemata, naive, wall   []float64
	build, baseline, evalua []float64
	score                   float64
}

func main() {
	defRepeat := 3
	if n, err := strconv.Atoi(os.Getenv("BENCH_MUTATE_RUNS")); err == nil && n > 0 {
		defRepeat = n
	}
	repeat := flag.Int("repeat", defRepeat, "repetitions per target, medians are reported (default: $BENCH_MUTATE_RUNS or 3)")
	workers := flag.Int("workers", runtime.NumCPU(), "parallel workers for cling and gremlins")
	realDir := flag.String("real", "", "directory of "+realModule+" "+realVersion+" (default: fetch it through the module proxy)")
	skipReal := flag.Bool("skip-real", false, "skip the real module")
	skipGremlins := flag.Bool("skip-gremlins", false, "skip gremlins")
	cling := flag.String("cling", os.Getenv("CLING"), "cling binary (default: $CLING, or build it)")
	flag.Parse()
	if err := run(*repeat, *workers, *realDir, *skipReal, *skipGremlins, *cling); err != nil {
		fmt.Fprintln(os.Stderr, "bench/mutate:", err)
		os.Exit(1)
	}
}

func run(repeat, workers int, realDir string, skipReal, skipGremlins bool, cling string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "cling-bench-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if cling == "" {
		cling = filepath.Join(tmp, "cling")
		if out, err := exec.Command("go", "build", "-o", cling, "./cmd/cling").CombinedOutput(); err != nil {
			return fmt.Errorf("building cling: %v: %s", err, out)
		}
	}
	targets := []target{
		{name: "fixture shop: checkout -> pricing", caller: "./checkout", callee: "./pricing", dir: filepath.Join(root, "testdata", "shop")},
		{name: "fixture mutants: app -> store", caller: "./app", callee: "./store", dir: filepath.Join(root, "testdata", "mutants")},
	}
	if !skipReal {
		if realDir == "" {
			if realDir, err = fetchReal(tmp); err != nil {
				return err
			}
		}
		targets = append(targets, target{name: "expr " + realVersion + ": parser -> parser/lexer", caller: "./parser", callee: "./parser/lexer", dir: realDir})
	}
	var rows []*row
	for _, t := range targets {
		r, err := measure(cling, tmp, t, repeat, workers)
		if err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		rows = append(rows, r)
	}
	fmt.Printf("Interface mutation (RetStaRep + FunCalDel), %d workers, %d repetitions, medians; %s, %s/%s, %d CPUs.\n\n",
		workers, repeat, goVersion(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Println("| pair | mutants | ran | schemata (s) | of which build / baseline / mutants (s) | naive (s) | speed-up | statuses differ | score |")
	fmt.Println("|---|---:|---:|---:|---|---:|---:|---:|---:|")
	for _, r := range rows {
		s, n := median(r.schemata), median(r.naive)
		fmt.Printf("| %s | %d | %d | %.2f | %.2f / %.2f / %.2f | %.2f | %.1f× | %d | %.1f%% |\n",
			r.t.name, r.mutants, r.ran, s, median(r.build), median(r.baseline), median(r.evalua), n, n/s, r.mismatch, 100*r.score)
	}
	fmt.Println()
	fmt.Println("schemata = generation + build + baseline + evaluation of all mutants (`timing.total`); naive = one `go test -c -overlay` build and one run of the same selected tests per mutant that ran (killed, survived or timed out), with the test selection of the schemata baseline given for free. Both use the same per-mutant timeouts and the same warm build cache.")
	if skipReal || skipGremlins {
		return nil
	}
	gremlins, err := findGremlins(tmp)
	if err != nil {
		return err
	}
	return referenceGremlins(cling, gremlins, tmp, targets[len(targets)-1], workers)
}

// measure runs one target repeat times.
func measure(cling, tmp string, t target, repeat, workers int) (*row, error) {
	r := &row{t: t}
	// An untimed warm-up run fills the build cache with the dependencies.
	warm := filepath.Join(tmp, "warm-up")
	if err := fstree.Copy(t.dir, warm); err != nil {
		return nil, err
	}
	cmd := exec.Command(cling, "mutate", "--caller", t.caller, "--callee", t.callee, "--workers", strconv.Itoa(workers), "--json")
	cmd.Dir = warm
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("warm-up: %v: %s", err, tail(out))
	}
	os.RemoveAll(warm)
	for i := 0; i < repeat; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("run-%d", time.Now().UnixNano()))
		if err := fstree.Copy(t.dir, dir); err != nil {
			return nil, err
		}
		before, err := fstree.Snapshot(dir)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		cmd := exec.Command(cling, "mutate", "--caller", t.caller, "--callee", t.callee, "--workers", strconv.Itoa(workers), "--naive", "--json")
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		runErr := cmd.Run()
		wall := time.Since(start).Seconds()
		var rep report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			return nil, fmt.Errorf("cling failed: %v: %s", runErr, errb.String())
		}
		after, err := fstree.Snapshot(dir)
		if err != nil {
			return nil, err
		}
		if changed := fstree.Diff(before, after); len(changed) > 0 {
			return nil, fmt.Errorf("cling changed the module in %s: %s", dir, strings.Join(changed, ", "))
		}
		r.mutants = len(rep.Mutants)
		r.ran = rep.Naive.Mutants
		r.mismatch += len(rep.Naive.Mismatches)
		r.score = rep.Score
		r.schemata = append(r.schemata, rep.Timing.Total)
		r.build = append(r.build, rep.Timing.Build)
		r.baseline = append(r.baseline, rep.Timing.Baseline)
		r.evalua = append(r.evalua, rep.Timing.Evaluate)
		r.naive = append(r.naive, rep.Naive.Seconds)
		r.wall = append(r.wall, wall)
		fmt.Fprintf(os.Stderr, "%s #%d: schemata %.2fs, naive %.2fs (%d mutants ran, %d differ)\n",
			t.name, i+1, rep.Timing.Total, rep.Naive.Seconds, rep.Naive.Mutants, len(rep.Naive.Mismatches))
		os.RemoveAll(dir)
	}
	return r, nil
}

// referenceGremlins times gremlins on the callee package with its default
// operators, and cling with all operators on the pair, once each.
func referenceGremlins(cling, gremlins, tmp string, t target, workers int) error {
	dir := filepath.Join(tmp, "gremlins")
	if err := fstree.Copy(t.dir, dir); err != nil {
		return err
	}
	start := time.Now()
	cmd := exec.Command(gremlins, "unleash", "--workers", strconv.Itoa(workers), t.callee)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	gSecs := time.Since(start).Seconds()
	if err != nil {
		return fmt.Errorf("gremlins: %v: %s", err, tail(out))
	}
	counts := regexp.MustCompile(`Killed: (\d+), Lived: (\d+), Not covered: (\d+)`).FindStringSubmatch(string(out))
	timed := regexp.MustCompile(`Timed out: (\d+), Not viable: (\d+)`).FindStringSubmatch(string(out))

	cdir := filepath.Join(tmp, "cling-all")
	if err := fstree.Copy(t.dir, cdir); err != nil {
		return err
	}
	start = time.Now()
	cmd = exec.Command(cling, "mutate", "--caller", t.caller, "--callee", t.callee, "--workers", strconv.Itoa(workers), "--operators", "all", "--json")
	cmd.Dir = cdir
	cout, err := cmd.Output()
	cSecs := time.Since(start).Seconds()
	if err != nil {
		return fmt.Errorf("cling --operators all: %v", err)
	}
	var rep report
	if err := json.Unmarshal(cout, &rep); err != nil {
		return err
	}
	fmt.Println()
	fmt.Printf("Reference on %s (one run each, wall time including loading and analysis):\n\n", t.name)
	fmt.Println("| tool | scope | operators | mutants | killed | survived/lived | not covered | timed out | not viable | time (s) |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	if len(counts) == 4 && len(timed) == 3 {
		k, _ := strconv.Atoi(counts[1])
		l, _ := strconv.Atoi(counts[2])
		nc, _ := strconv.Atoi(counts[3])
		to, _ := strconv.Atoi(timed[1])
		nv, _ := strconv.Atoi(timed[2])
		fmt.Printf("| gremlins v0.6.0 | %s (its tests) | gremlins defaults | %d | %d | %d | %d | %d | %d | %.1f |\n", t.callee, k+l+nc+to+nv, k, l, nc, to, nv, gSecs)
	}
	c := rep.Counts
	fmt.Printf("| cling mutate | %s and %s (tests of both) | all (interface + conventional) | %d | %d | %d | %d | %d | %d | %.1f |\n",
		t.caller, t.callee, len(rep.Mutants), c["killed"], c["survived"], c["not-covered"], c["timeout"], c["not-viable"], cSecs)
	return nil
}

// fetchReal downloads the real module through the module proxy and
// returns its directory in the module cache.
func fetchReal(tmp string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", realModule+"@"+realVersion)
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("downloading %s@%s: %v", realModule, realVersion, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("downloading %s@%s: no directory", realModule, realVersion)
	}
	return info.Dir, nil
}

// findGremlins returns the gremlins binary, installing it into tmp if it
// is not on PATH or in GOPATH/bin.
func findGremlins(tmp string) (string, error) {
	if p, err := exec.LookPath("gremlins"); err == nil {
		return p, nil
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gremlins")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	bin := filepath.Join(tmp, "gobin")
	cmd := exec.Command("go", "install", gremlinsPkg)
	cmd.Env = append(os.Environ(), "GOBIN="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing gremlins: %v: %s", err, tail(out))
	}
	return filepath.Join(bin, "gremlins"), nil
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 500 {
		s = s[len(s)-500:]
	}
	return s
}
