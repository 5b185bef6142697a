// Command throughput measures cling's executor: test executions per
// second per worker on a fixture, the scaling from one to two workers,
// and, as the speed of light for in-process execution, the executions per
// second of go test -fuzz on a fuzz target that calls the same entry
// function. It prints a markdown table.
//
//	go run ./bench/throughput [-tests 20000] [-reps 5] [-fuzztime 10s]
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
	reps := flag.Int("reps", 5, "repetitions (medians are reported)")
	fuzzTime := flag.Duration("fuzztime", 10*time.Second, "go test -fuzz duration per repetition")
	flag.Parse()
	if err := run(*nTests, *reps, *fuzzTime); err != nil {
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

func run(nTests, reps int, fuzzTime time.Duration) error {
	tmp, err := os.MkdirTemp("", "cling-throughput-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "personcar")
	if err := fstree.Copy(fixture.Dir("personcar"), dir); err != nil {
		return err
	}
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./person", "./car"}})
	if err != nil {
		return err
	}
	a, err := couple.Analyze(prog, "example.com/personcar/person", "example.com/personcar/car")
	if err != nil {
		return err
	}
	sess, err := probe.NewSession(a, probe.Search)
	if err != nil {
		return err
	}
	defer sess.Close()
	c := testcase.NewCluster(a, 4)
	ctx := context.Background()
	bin, err := harness.Build(ctx, sess, c, harness.BuildOptions{CacheDir: filepath.Join(tmp, "cache")})
	if err != nil {
		return err
	}
	// Random tests of at most 10 calls, as the search makes them.
	cfg := testcase.DefaultConfig()
	cfg.MaxCalls = 10
	g := testcase.NewGenerator(c, cfg, 1)
	tests := make([]*testcase.Test, nTests)
	calls := 0
	for i := range tests {
		tests[i] = g.RandomTest()
		calls += tests[i].Calls()
	}
	rate := func(workers int) (float64, error) {
		var rates []float64
		for r := 0; r < reps; r++ {
			x := harness.NewExecutor(bin, harness.Options{Workers: workers, Timeout: time.Second, Dir: tmp, Ops: len(c.Ops)})
			if _, err := x.Run(ctx, tests[:100], false); err != nil { // start the workers
				return 0, err
			}
			start := time.Now()
			// Batches of the search's size.
			for lo := 0; lo < len(tests); lo += 64 {
				if _, err := x.Run(ctx, tests[lo:min(lo+64, len(tests))], false); err != nil {
					return 0, err
				}
			}
			rates = append(rates, float64(len(tests))/time.Since(start).Seconds())
			x.Close()
		}
		return median(rates), nil
	}
	one, err := rate(1)
	if err != nil {
		return err
	}
	two, err := rate(2)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "person", "fuzz_test.go"), []byte(fuzzTarget), 0o644); err != nil {
		return err
	}
	var fuzz []float64
	for r := 0; r < reps; r++ {
		f, err := fuzzRate(dir, fuzzTime)
		if err != nil {
			return err
		}
		fuzz = append(fuzz, f)
	}
	fz := median(fuzz)
	fmt.Printf("| measure | executions/s | ratio |\n|---|---|---|\n")
	fmt.Printf("| cling executor, 1 worker (tests of %.1f calls on average, at most 10) | %.0f | 1.00 |\n", float64(calls)/float64(nTests), one)
	fmt.Printf("| cling executor, 2 workers | %.0f | %.2f × 1 worker |\n", two, two/one)
	fmt.Printf("| go test -fuzz, same entry function (1 worker, -parallel=1) | %.0f | cling 1 worker = %.3f × fuzz |\n", fz, one/fz)
	return nil
}

var execsRe = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)

// fuzzRate runs go test -fuzz with one worker and returns the executions
// per second of its last status line.
func fuzzRate(dir string, d time.Duration) (float64, error) {
	cmd := exec.Command("go", "test", "-run=^$", "-fuzz=FuzzDriveToHome", "-parallel=1", "-fuzztime="+d.String(), "./person")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
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

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
