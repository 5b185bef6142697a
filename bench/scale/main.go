// Command scale benchmarks cling over many pairs on
// github.com/expr-lang/expr v1.17.8: every non-trivial pair of the module
// whose caller and callee lie in it (what `cling gen ./...` selects).
//
// Two comparisons:
//
//  1. Sharing: the single-pair runs a team would script to learn what
//     the run over all pairs reports (`cling cbc --caller R --callee E`
//     for what the existing tests cover, then `cling gen --caller R
//     --callee E --budget B`, pair after pair in one copy of the module)
//     against one run over all the pairs (`cling gen --budget-per-pair
//     B`) in another copy: the ratio of wall times (target at most 0.7),
//     and the same without the cbc runs. Each single-pair gen searches
//     with the seed the run over all pairs gives the pair, so that both
//     search alike.
//  2. Shards: one process over all the pairs with a total budget of B per
//     pair (`cling gen --budget N*B`) against the two shards of `cling
//     plan --shards 2` started side by side on the same machine, each in
//     a copy of its own, as two machines of a CI matrix would run them.
//
// Every variant runs in a fresh copy of the module with a build cache of
// its own, copied from one in which the module's packages and tests were
// compiled (a CI runner with a restored cache), and an executor cache of
// its own (empty): the instrumented builds are cold everywhere.
//
// The benchmark is resumable: the work directory keeps the copies and the
// measurements, a single-pair run that finished is not run again, and a
// variant that finished is not run again (one that was interrupted starts
// over). It prints a markdown report and appends the figures to -json.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/bench/internal/measure"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/shard"
)

const (
	realModule  = "github.com/expr-lang/expr"
	realVersion = "v1.17.8"
)

// config is what the flags say.
type config struct {
	work, cling, expr string
	budget            time.Duration
	maxPairs, workers int
	seed              int64
	jsonOut           string
}

// runResult is one measured cling run and what it reported.
type runResult struct {
	Label   string  `json:"label"`
	Wall    float64 `json:"wallSeconds"`
	CPU     float64 `json:"cpuSeconds"`
	Exit    int     `json:"exit"`
	Pairs   int     `json:"pairs"`
	Written int     `json:"filesWritten"`
	Covered int     `json:"covered"`
	Coupled int     `json:"coupledBranches"`
	Evals   int     `json:"evaluations"`
	// CBCWall and CBCCPU are those of the single-pair cbc runs.
	CBCWall float64 `json:"cbcWallSeconds,omitempty"`
	CBCCPU  float64 `json:"cbcCpuSeconds,omitempty"`
}

func main() {
	var cfg config
	flag.StringVar(&cfg.work, "work", "", "work directory, kept for resuming (required)")
	flag.StringVar(&cfg.cling, "cling", "", "cling binary (default: built from this checkout into the work directory)")
	flag.StringVar(&cfg.expr, "expr", "", "directory of "+realModule+" "+realVersion+" (default: fetched through the module proxy)")
	flag.DurationVar(&cfg.budget, "budget", 10*time.Second, "search time per pair")
	flag.IntVar(&cfg.maxPairs, "max-pairs", 0, "take the N most coupled pairs only (0: all; a reduced run)")
	flag.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "executor workers per run")
	flag.Int64Var(&cfg.seed, "seed", 1, "seed of the runs")
	flag.StringVar(&cfg.jsonOut, "json", "", "append the figures to this file (JSON lines)")
	flag.Parse()
	if cfg.work == "" {
		fail(fmt.Errorf("-work DIR is required"))
	}
	if err := run(cfg, os.Stdout); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/scale:", err)
	os.Exit(1)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench/scale: "+format+"\n", args...)
}

func run(cfg config, w io.Writer) error {
	if err := os.MkdirAll(cfg.work, 0o755); err != nil {
		return err
	}
	work, err := filepath.Abs(cfg.work)
	if err != nil {
		return err
	}
	cfg.work = work
	if cfg.cling == "" {
		cfg.cling = filepath.Join(work, "cling")
		logf("building cling")
		if out, err := exec.Command("go", "build", "-o", cfg.cling, "./cmd/cling").CombinedOutput(); err != nil {
			return fmt.Errorf("building cling: %v\n%s", err, out)
		}
	}
	src := filepath.Join(work, "expr")
	if err := pristine(cfg, src); err != nil {
		return err
	}
	cache, err := warmCache(work, src)
	if err != nil {
		return err
	}
	pairs, err := selectPairs(cfg, src)
	if err != nil {
		return err
	}
	logf("%d pairs, %s each", len(pairs), cfg.budget)

	singles, err := runSingles(cfg, src, cache, pairs)
	if err != nil {
		return err
	}
	args := []string{"gen", "--budget-per-pair", cfg.budget.String()}
	multi, err := variant(cfg, "multi", src, cache, args)
	if err != nil {
		return err
	}
	total := time.Duration(len(pairs)) * cfg.budget
	one, err := variant(cfg, "one-process", src, cache, []string{"gen", "--budget", total.String()})
	if err != nil {
		return err
	}
	shards, err := runShards(cfg, src, cache, total)
	if err != nil {
		return err
	}
	return report(cfg, w, len(pairs), singles, multi, one, shards)
}

// pristine makes the untouched copy of expr every variant copies.
func pristine(cfg config, dst string) error {
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err == nil {
		return nil
	}
	from := cfg.expr
	if from == "" {
		out, err := exec.Command("go", "mod", "download", "-json", realModule+"@"+realVersion).Output()
		if err != nil {
			return fmt.Errorf("downloading %s@%s: %w", realModule, realVersion, err)
		}
		var m struct{ Dir string }
		if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
			return fmt.Errorf("downloading %s@%s: no directory in %s", realModule, realVersion, out)
		}
		from = m.Dir
	}
	logf("copying %s", from)
	tmp := dst + ".tmp"
	os.RemoveAll(tmp)
	if err := fstree.Copy(from, tmp); err != nil {
		return err
	}
	if err := filepath.Walk(tmp, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(p, info.Mode()|0o200)
	}); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// warmCache makes a build cache in which expr's packages and tests are
// compiled, for the variants to copy.
func warmCache(work, src string) (string, error) {
	cache := filepath.Join(work, "gocache")
	done := filepath.Join(work, "gocache.done")
	if _, err := os.Stat(done); err == nil {
		return cache, nil
	}
	logf("warming a build cache")
	os.RemoveAll(cache)
	// expr has a package that does not build (a main package without
	// main, for its examples): what builds is compiled all the same.
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, {"test", "-count=1", "-run", "^$", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOCACHE="+cache)
		if err := cmd.Run(); err != nil {
			logf("go %s: %v (ignored)", strings.Join(args, " "), err)
		}
	}
	return cache, os.WriteFile(done, nil, 0o644)
}

// plan runs cling plan --json in src: the pairs cling gen selects,
// split into the given number of shards.
func plan(cfg config, src string, shards int, extra ...string) ([]byte, error) {
	args := append([]string{"plan", "--shards", fmt.Sprint(shards), "--json"}, extra...)
	if cfg.maxPairs > 0 {
		args = append(args, "--max-pairs", fmt.Sprint(cfg.maxPairs))
	}
	cmd := exec.Command(cfg.cling, args...)
	cmd.Dir = src
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cling %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

// selectPairs lists the pairs cling gen selects, most coupled first.
func selectPairs(cfg config, src string) ([]shard.Pair, error) {
	out, err := plan(cfg, src, 1)
	if err != nil {
		return nil, err
	}
	var p shard.Plan
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, err
	}
	return p.Pairs(), nil
}

// env is the environment of a variant: its own build and executor caches.
func env(dir string) []string {
	return []string{"GOCACHE=" + filepath.Join(dir, "gocache"), "XDG_CACHE_HOME=" + filepath.Join(dir, "xdg")}
}

// setup makes a variant's directory afresh: a copy of the module and of
// the warm build cache.
func setup(dir, src, cache string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := fstree.Copy(src, filepath.Join(dir, "mod")); err != nil {
		return err
	}
	// cp keeps the cache's modes, which fstree.Copy does not need to.
	if out, err := exec.Command("cp", "-a", cache, filepath.Join(dir, "gocache")).CombinedOutput(); err != nil {
		return fmt.Errorf("copying the build cache: %v: %s", err, out)
	}
	return os.MkdirAll(filepath.Join(dir, "xdg"), 0o755)
}

// measureCling runs cling in dir and measures it.
func measureCling(cfg config, label, dir string, args []string, stdout io.Writer) (measure.Sample, error) {
	if args[0] == "gen" {
		// The single-pair runs read --json, which would also measure
		// each written suite's cost in fresh processes: not part of
		// the comparison.
		args = append(args, "--seed", fmt.Sprint(cfg.seed), "--workers", fmt.Sprint(cfg.workers), "--cost-runs", "0")
	}
	s, err := measure.Run(context.Background(), measure.Cmd{
		Label: label, Args: append([]string{cfg.cling}, args...), Dir: filepath.Join(dir, "mod"),
		Env: env(dir), Stdout: stdout,
	})
	if err != nil && s.ExitCode != 1 {
		return s, err // exit 1: some pair failed, which the figures show
	}
	return s, nil
}

// single is the part of cling gen --json the benchmark reads.
type single struct {
	Covered int `json:"covered"`
	Stats   struct {
		Evaluations int `json:"evaluations"`
	} `json:"stats"`
}

// runSingles runs cling gen on each pair, one after another in one copy,
// each with the seed the run over all pairs gives it. A pair measured
// before is not run again.
func runSingles(cfg config, src, cache string, pairs []shard.Pair) (runResult, error) {
	dir := filepath.Join(cfg.work, "singles")
	state := filepath.Join(cfg.work, "singles.jsonl")
	done := map[string]runResult{}
	if b, err := os.ReadFile(state); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			var r runResult
			if json.Unmarshal([]byte(line), &r) == nil && r.Label != "" {
				done[r.Label] = r
			}
		}
	}
	if len(done) == 0 {
		if err := setup(dir, src, cache); err != nil {
			return runResult{}, err
		}
	}
	sum := runResult{Label: "single-pair runs"}
	for i, p := range pairs {
		r, ok := done[p.Name()]
		if !ok {
			logf("single pair %d of %d: %s", i+1, len(pairs), p.Name())
			// What the existing tests cover, which the run over all
			// pairs reports too, then the generation.
			cs, err := measureCling(cfg, "cbc "+p.Name(), dir, []string{"cbc", "--caller", p.Caller, "--callee", p.Callee, "--json"}, nil)
			if err != nil {
				return sum, err
			}
			var out bytes.Buffer
			seed := batch.Seed(cfg.seed, p.Caller, p.Callee)
			args := []string{"gen", "--caller", p.Caller, "--callee", p.Callee, "--budget", cfg.budget.String(), "--json"}
			c := cfg
			c.seed = seed
			s, err := measureCling(c, p.Name(), dir, args, &out)
			if err != nil {
				return sum, err
			}
			r = runResult{Label: p.Name(), Wall: s.Wall.Seconds(), CPU: (s.User + s.Sys).Seconds(), Exit: s.ExitCode, Pairs: 1, Coupled: p.CoupledBranches,
				CBCWall: cs.Wall.Seconds(), CBCCPU: (cs.User + cs.Sys).Seconds()}
			var g single
			if s.ExitCode == 0 && json.Unmarshal(out.Bytes(), &g) == nil {
				r.Written, r.Covered, r.Evals = 1, g.Covered, g.Stats.Evaluations
			}
			if err := appendLine(state, r); err != nil {
				return sum, err
			}
		}
		sum.Wall += r.Wall
		sum.CPU += r.CPU
		sum.Pairs++
		sum.Written += r.Written
		sum.Covered += r.Covered
		sum.Coupled += r.Coupled
		sum.Evals += r.Evals
		sum.CBCWall += r.CBCWall
		sum.CBCCPU += r.CBCCPU
	}
	return sum, nil
}

func appendLine(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fromResults sums up a results file of --json-out.
func fromResults(label string, s measure.Sample, path string) (runResult, error) {
	r := runResult{Label: label, Wall: s.Wall.Seconds(), CPU: (s.User + s.Sys).Seconds(), Exit: s.ExitCode}
	res, err := shard.ReadResults(path)
	if err != nil {
		return r, err
	}
	for _, p := range res.Pairs {
		r.Pairs++
		r.Coupled += p.CoupledBranches
		if g := p.Gen; g != nil {
			r.Evals += g.Evaluations
			if g.File != "" {
				r.Written++
				r.Covered += g.Covered
			}
		}
	}
	return r, nil
}

// variant runs cling over all pairs in a copy of its own, unless it
// finished before.
func variant(cfg config, name, src, cache string, args []string) (runResult, error) {
	state := filepath.Join(cfg.work, name+".json")
	var r runResult
	if b, err := os.ReadFile(state); err == nil && json.Unmarshal(b, &r) == nil {
		return r, nil
	}
	dir := filepath.Join(cfg.work, name)
	if err := setup(dir, src, cache); err != nil {
		return r, err
	}
	logf("%s: cling %s", name, strings.Join(args, " "))
	results := filepath.Join(dir, "results.json")
	args = append(args, "--json-out", results)
	if cfg.maxPairs > 0 {
		args = append(args, "--max-pairs", fmt.Sprint(cfg.maxPairs))
	}
	s, err := measureCling(cfg, name, dir, args, nil)
	if err != nil {
		return r, err
	}
	if r, err = fromResults(name, s, results); err != nil {
		return r, err
	}
	b, _ := json.Marshal(r)
	return r, os.WriteFile(state, b, 0o644)
}

// shardResults are the two shards run side by side.
type shardResults struct {
	Shards []runResult `json:"shards"`
	Wall   float64     `json:"wallSeconds"`
}

// runShards plans two shards and runs them at once, each in a copy of
// its own, unless they finished before.
func runShards(cfg config, src, cache string, total time.Duration) (shardResults, error) {
	state := filepath.Join(cfg.work, "shards.json")
	var res shardResults
	if b, err := os.ReadFile(state); err == nil && json.Unmarshal(b, &res) == nil {
		return res, nil
	}
	planFile := filepath.Join(cfg.work, "plan.json")
	out, err := plan(cfg, src, 2, "--budget", total.String())
	if err != nil {
		return res, err
	}
	if err := os.WriteFile(planFile, out, 0o644); err != nil {
		return res, err
	}
	dirs := []string{filepath.Join(cfg.work, "shard-1"), filepath.Join(cfg.work, "shard-2")}
	for _, d := range dirs {
		if err := setup(d, src, cache); err != nil {
			return res, err
		}
	}
	logf("two shards side by side")
	res.Shards = make([]runResult, 2)
	errs := make([]error, 2)
	start := time.Now()
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results := filepath.Join(d, "results.json")
			label := fmt.Sprintf("shard %d of 2", i+1)
			s, err := measureCling(cfg, label, d, []string{"gen", "--plan", planFile, "--shard", fmt.Sprint(i + 1), "--budget", total.String(), "--json-out", results}, nil)
			if err == nil {
				res.Shards[i], err = fromResults(label, s, results)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	res.Wall = time.Since(start).Seconds()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	b, _ := json.Marshal(res)
	return res, os.WriteFile(state, b, 0o644)
}

func report(cfg config, w io.Writer, n int, singles, multi, one runResult, shards shardResults) error {
	fmt.Fprintf(w, "### cling over many pairs: expr %s, %d pairs, %s of search per pair\n\n", realVersion, n, cfg.budget)
	fmt.Fprintln(w, "| run | wall | CPU | pairs with a file | coupled branches covered by the files | search evaluations |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	row := func(r runResult) {
		fmt.Fprintf(w, "| %s | %.0f s | %.0f s | %d of %d | %d of %d | %d |\n", r.Label, r.Wall, r.CPU, r.Written, r.Pairs, r.Covered, r.Coupled, r.Evals)
	}
	row(singles)
	withCBC := singles
	withCBC.Label = "single-pair cbc and gen runs"
	withCBC.Wall += singles.CBCWall
	withCBC.CPU += singles.CBCCPU
	row(withCBC)
	row(multi)
	row(one)
	for _, s := range shards.Shards {
		row(s)
	}
	fmt.Fprintln(w)
	ratio := multi.Wall / withCBC.Wall
	fmt.Fprintf(w, "- over all pairs (`--budget-per-pair %s`) / the single-pair cbc and gen runs it replaces: **%.2f×** wall (target ≤ 0.7), %.2f× CPU\n", cfg.budget, ratio, multi.CPU/withCBC.CPU)
	fmt.Fprintf(w, "- over all pairs / the single-pair gen runs alone, which do not measure the existing tests: %.2f× wall, %.2f× CPU\n", multi.Wall/singles.Wall, multi.CPU/singles.CPU)
	fmt.Fprintf(w, "- two shards side by side / one process (`--budget %s` in all): **%.2f×** wall (%.0f s against %.0f s), %.2f× the search evaluations\n",
		time.Duration(n)*cfg.budget, shards.Wall/one.Wall, shards.Wall, one.Wall,
		float64(shards.Shards[0].Evals+shards.Shards[1].Evals)/float64(max(one.Evals, 1)))
	if cfg.jsonOut != "" {
		return appendLine(cfg.jsonOut, map[string]any{
			"benchmark": "scale", "pairs": n, "budgetSeconds": cfg.budget.Seconds(), "maxPairs": cfg.maxPairs,
			"singles": singles, "multi": multi, "oneProcess": one, "shards": shards,
			"multiOverSingles": ratio, "multiOverSingleGens": multi.Wall / singles.Wall, "shardsOverOneProcess": shards.Wall / one.Wall,
		})
	}
	return nil
}
