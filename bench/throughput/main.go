// Command throughput measures cling's executor: test executions per
// second per worker on a fixture, the scaling from one to two workers,
// what sending results in batches saves over one write per result, the
// rate on the hostile fixture (a callee that panics, exits, loops, blocks,
// overflows its stack and races) against the clean one as the search
// runs them, the executor as the caller's test binary (what cling
// uses) against the plain main program without the caller's test files
// (its fallback), and, as the speed of light for in-process execution,
// the executions per second of go test -fuzz on a fuzz target that calls
// the same entry function. It prints a markdown table. With -outcomes it
// also prints what a hostile test of each outcome (passed, panicked,
// exited, cut, timed out, each kind of crash) costs in wall and CPU time,
// which shows where the hostile rate goes.
//
//	go run ./bench/throughput [-tests 20000] [-hostile 3000] [-reps 5] [-fuzztime 10s] [-outcomes]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
)

func main() {
	nTests := flag.Int("tests", 20000, "tests per measurement")
	nHostile := flag.Int("hostile", 3000, "tests per measurement on the hostile fixture")
	reps := flag.Int("reps", 5, "repetitions (medians are reported)")
	fuzzTime := flag.Duration("fuzztime", 10*time.Second, "go test -fuzz duration per repetition")
	outcomes := flag.Bool("outcomes", false, "also print the cost of a hostile test by outcome")
	flag.Parse()
	if err := run(*nTests, *nHostile, *reps, *fuzzTime, *outcomes); err != nil {
		fmt.Fprintln(os.Stderr, "throughput:", err)
		os.Exit(1)
	}
}

const fuzzTarget = `package person_test

import (
	"testing"

	"example.com/personcar/car"
	"example.com/personcar/person"
)

func FuzzDriveToHome(f *testing.F) {
	f.Add(30, false)
	f.Fuzz(func(t *testing.T, fuel int, lazy bool) {
		p := &person.Person{Car: &car.Car{FuelAmount: fuel}, Lazy: lazy}
		p.DriveToHome()
	})
}
`

// pair is a fixture pair with its built executor and random tests of at
// most 10 calls, as the search makes them.
type pair struct {
	c     *testcase.Cluster
	exe   *harness.Executable
	plain *harness.Executable
	dir   string
	tests []*testcase.Test
	calls int
}

func setup(ctx context.Context, tmp, fix, caller, callee string, n int) (*pair, error) {
	dir := filepath.Join(tmp, fix)
	if err := fstree.Copy(fixture.Dir(fix), dir); err != nil {
		return nil, err
	}
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	if err != nil {
		return nil, err
	}
	sess, err := probe.NewSession(a, probe.Search)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	c := testcase.NewCluster(a, 4)
	exe, err := harness.Build(ctx, sess, c, harness.BuildOptions{CacheDir: filepath.Join(tmp, "cache"), Dir: tmp})
	if err != nil {
		return nil, err
	}
	if exe.Environment != harness.TestBinary {
		return nil, fmt.Errorf("the executor of %s is not its test binary: %s", caller, exe.PlainReason)
	}
	plain, err := harness.Build(ctx, sess, c, harness.BuildOptions{CacheDir: filepath.Join(tmp, "cache"), Plain: true})
	if err != nil {
		return nil, err
	}
	cfg := testcase.DefaultConfig()
	cfg.MaxCalls = 10
	g := testcase.NewGenerator(c, cfg, 1)
	p := &pair{c: c, exe: exe, plain: plain, dir: dir, tests: make([]*testcase.Test, n)}
	for i := range p.tests {
		p.tests[i] = g.RandomTest()
		p.calls += p.tests[i].Calls()
	}
	return p, nil
}

// rate runs the pair's tests in batches of the search's size (64) and
// returns the median executions per second over reps executors, with the
// executor counters of the last. explore runs them as the search does
// (adaptive cuts); otherwise with Run.
func (p *pair) rate(ctx context.Context, reps int, opts harness.Options, explore bool) (float64, harness.Stats, error) {
	return p.rateOf(ctx, p.exe, reps, opts, explore)
}

// rateOf is rate with the given executable.
func (p *pair) rateOf(ctx context.Context, exe *harness.Executable, reps int, opts harness.Options, explore bool) (float64, harness.Stats, error) {
	var rates []float64
	var stats harness.Stats
	for r := 0; r < reps; r++ {
		opts.Timeout, opts.Dir, opts.Ops = time.Second, filepath.Dir(p.dir), len(p.c.Ops)
		x := harness.NewExecutor(exe, opts)
		// Start the workers (and the spare) on clean tests of the pair.
		if _, err := x.Run(ctx, p.tests[:opts.Workers], false); err != nil {
			return 0, stats, err
		}
		start := time.Now()
		for lo := 0; lo < len(p.tests); lo += 64 {
			batch := p.tests[lo:min(lo+64, len(p.tests))]
			var err error
			if explore {
				_, err = x.Explore(ctx, batch)
			} else {
				_, err = x.Run(ctx, batch, false)
			}
			if err != nil {
				return 0, stats, err
			}
		}
		rates = append(rates, float64(len(p.tests))/time.Since(start).Seconds())
		stats = x.Stats()
		x.Close()
	}
	return median(rates), stats, nil
}

func run(nTests, nHostile, reps int, fuzzTime time.Duration, outcomes bool) error {
	tmp, err := os.MkdirTemp("", "cling-throughput-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ctx := context.Background()
	clean, err := setup(ctx, tmp, "personcar", "./person", "./car", nTests)
	if err != nil {
		return err
	}
	hostile, err := setup(ctx, tmp, "hostile", "./caller", "./callee", nHostile)
	if err != nil {
		return err
	}
	one, _, err := clean.rate(ctx, reps, harness.Options{Workers: 1}, false)
	if err != nil {
		return err
	}
	// The test binary and the plain program, one repetition of each in
	// turn, so that both see the same load.
	var asTest, asPlain []float64
	for r := 0; r < reps; r++ {
		t, _, err := clean.rate(ctx, 1, harness.Options{Workers: 1}, false)
		if err != nil {
			return err
		}
		p, _, err := clean.rateOf(ctx, clean.plain, 1, harness.Options{Workers: 1}, false)
		if err != nil {
			return err
		}
		asTest, asPlain = append(asTest, t), append(asPlain, p)
	}
	oneCareful, _, err := clean.rate(ctx, reps, harness.Options{Workers: 1, CarefulResults: true}, false)
	if err != nil {
		return err
	}
	two, _, err := clean.rate(ctx, reps, harness.Options{Workers: 2}, false)
	if err != nil {
		return err
	}
	cleanSearch, _, err := clean.rate(ctx, reps, harness.Options{Workers: 2}, true)
	if err != nil {
		return err
	}
	hostileSearch, hs, err := hostile.rate(ctx, reps, harness.Options{Workers: 2}, true)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(clean.dir, "person", "fuzz_test.go"), []byte(fuzzTarget), 0o644); err != nil {
		return err
	}
	var fuzz []float64
	for r := 0; r < reps; r++ {
		f, err := fuzzRate(clean.dir, fuzzTime)
		if err != nil {
			return err
		}
		fuzz = append(fuzz, f)
	}
	fz := median(fuzz)
	fmt.Printf("| measure | executions/s | ratio |\n|---|---|---|\n")
	fmt.Printf("| cling executor, 1 worker (personcar, tests of %.1f calls on average, at most 10) | %.0f | 1.00 |\n", float64(clean.calls)/float64(nTests), one)
	fmt.Printf("| cling executor, 1 worker, one write per result | %.0f | batched results = %.2f × this |\n", oneCareful, one/oneCareful)
	fmt.Printf("| cling executor, 1 worker, plain program (alternating with the test binary: %.0f) | %.0f | test binary = %.2f × this |\n", median(asTest), median(asPlain), median(asTest)/median(asPlain))
	fmt.Printf("| cling executor, 2 workers | %.0f | %.2f × 1 worker |\n", two, two/one)
	fmt.Printf("| go test -fuzz, same entry function (1 worker, -parallel=1) | %.0f | cling 1 worker = %.3f × fuzz |\n", fz, one/fz)
	fmt.Printf("| search (Explore, 2 workers), personcar | %.0f | 1.00 |\n", cleanSearch)
	fmt.Printf("| search (Explore, 2 workers), hostile (tests of %.1f calls on average) | %.0f | 1/%.0f of personcar |\n", float64(hostile.calls)/float64(nHostile), hostileSearch, cleanSearch/hostileSearch)
	fmt.Printf("\nHostile fixture, last repetition: %d tests, %d panics, %d exits (%d converted), %d adaptive cuts, %d confirmed hangs, %d crashes, %d worker starts, %d spare handovers, %d retirements, %d round trips.\n",
		hs.Executions, hs.Panics, hs.Exits, hs.ConvertedExits, hs.Cuts, hs.Hangs, hs.Crashes, hs.WorkerStarts, hs.Handovers, hs.Retirements, hs.RoundTrips)
	if outcomes {
		return hostile.outcomeCosts(ctx)
	}
	return nil
}

var execsRe = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)

// fuzzRate runs go test -fuzz with one worker and returns the executions
// per second of its last status line.
func fuzzRate(dir string, d time.Duration) (float64, error) {
	cmd := exec.Command("go", "test", "-run=^$", "-fuzz=FuzzDriveToHome", "-parallel=1", "-fuzztime="+d.String(), "./person")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && !deadlineRace(string(out)) {
		return 0, fmt.Errorf("go test -fuzz: %v\n%s", err, out)
	}
	m := execsRe.FindAllStringSubmatch(string(out), -1)
	if len(m) == 0 {
		return 0, fmt.Errorf("no execs line in:\n%s", out)
	}
	// The cumulative count over the whole run gives the average rate.
	n, _ := strconv.ParseFloat(m[len(m)-1][1], 64)
	return n / d.Seconds(), nil
}

// deadlineRace reports whether a failed go test -fuzz failed only because
// -fuzztime ran out while a worker was busy: Go's fuzzing coordinator
// before Go 1.27 (go.dev/issue/75804) then reports "context deadline
// exceeded" as a failure of the target, though it found no failing input.
// Its status lines count the executions all the same.
func deadlineRace(out string) bool {
	return strings.Contains(out, "context deadline exceeded") && !strings.Contains(out, "Failing input written")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
