package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// suitecostCount is how often the tests of a file run in the process that
// measures them (go test -count).
const suitecostCount = 20

// suitecostPrefix starts the line the measuring test prints per round.
const suitecostPrefix = "cling-suitecost "

func init() {
	registerMeasure(&measure{
		Name: "suitecost",
		Doc:  fmt.Sprintf("Run time and allocations of one round of the file's tests, median of %d rounds in a fresh test process", suitecostCount),
		Figures: []figure{
			{Key: "seconds", Label: "run time", Format: func(x float64) string { return withUnit(1000*x, 2, "ms") }, Compared: true},
			{Key: "allocBytes", Label: "allocated", Format: func(x float64) string { return withUnit(x/1024, 1, "KiB") }, Compared: true},
			{Key: "allocs", Label: "allocations", Format: func(x float64) string { return num(x, 0) }},
		},
		Run: measureSuitecost,
	})
}

// measureSuitecost measures what running the written file's tests costs:
// its test binary is built with the file and two helper files, one before
// and one after it in file order, added through an overlay (the module
// copy is not written), then run once, in R's directory as go test runs
// it, with -test.count=suitecostCount and -test.run naming the helpers'
// tests and the file's. Every round runs the tests in file order, so the
// first helper's test starts the clock (after a garbage collection) and
// reads the allocation counters, and the last one prints the round's
// time, bytes and allocations. The figures are the medians over the
// rounds: the first rounds pay one-time initialisation, which the median
// leaves out.
func measureSuitecost(ctx context.Context, b *bench, p *pair, rec *runRecord, file []byte) (map[string]float64, error) {
	names := testNames(file)
	if len(names) == 0 {
		return nil, errors.New("the file has no tests")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", file, parser.PackageClauseOnly)
	if err != nil {
		return nil, fmt.Errorf("reading the package clause: %w", err)
	}
	dst := b.testPath(p, rec)
	if dst == "" {
		return nil, errors.New("no written file")
	}
	dir, err := os.MkdirTemp(b.work, "suitecost.")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	base := strings.TrimSuffix(dst, "_test.go")
	// "x_0_test.go" < "x_test.go" < "x_zz_test.go"
	overlay := map[string]string{dst: filepath.Join(dir, "generated.go"), base + "_0_test.go": filepath.Join(dir, "begin.go"), base + "_zz_test.go": filepath.Join(dir, "end.go")}
	begin, end := suitecostHelpers(f.Name.Name)
	for path, content := range map[string][]byte{overlay[dst]: file, overlay[base+"_0_test.go"]: begin, overlay[base+"_zz_test.go"]: end} {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return nil, err
		}
	}
	for path := range overlay {
		if _, err := os.Stat(path); err == nil {
			return nil, fmt.Errorf("%s exists in the module", path)
		}
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), ov, 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "suite.test")
	r := b.run(ctx, p.Mod.Dir, p.Mod.Short, 30*time.Minute, "go", "test", "-vet=off", "-c", "-o", bin, "-overlay", filepath.Join(dir, "overlay.json"), p.Caller)
	b.clean(p.Mod, r.Display, "")
	if r.Code != 0 {
		return nil, fmt.Errorf("%s: exit status %d: %s", r.Display, r.Code, r.message())
	}
	run := runRegex(append(append([]string{"TestCling__SuitecostBegin"}, names...), "TestCling__SuitecostEnd"))
	label, _ := filepath.Rel(filepath.Dir(p.Mod.Dir), filepath.Dir(dst))
	r = b.run(ctx, filepath.Dir(dst), label, 30*time.Minute, bin, "-test.count="+strconv.Itoa(suitecostCount), "-test.run", run)
	r.Display = shorten(r.Display)
	b.clean(p.Mod, r.Display, "")
	if r.Code != 0 {
		return nil, fmt.Errorf("%s: exit status %d: %s", r.Display, r.Code, oneLine(string(r.Stdout)))
	}
	return suitecostFigures(r.Stdout, suitecostCount)
}

// suitecostFigures reads the rounds the measuring tests printed and
// returns the medians.
func suitecostFigures(out []byte, rounds int) (map[string]float64, error) {
	var secs, allocated, allocs []float64
	sc := bufio.NewScanner(bytes.NewReader(out))
	// The file's tests may print long lines of their own.
	sc.Buffer(nil, len(out)+1)
	for sc.Scan() {
		// The file's tests may print without ending their line, so the
		// figures start where the prefix does.
		i := strings.Index(sc.Text(), suitecostPrefix)
		if i < 0 {
			continue
		}
		line := sc.Text()[i+len(suitecostPrefix):]
		var ns, by, n float64
		if _, err := fmt.Sscan(line, &ns, &by, &n); err != nil {
			return nil, fmt.Errorf("reading %q: %w", sc.Text(), err)
		}
		secs, allocated, allocs = append(secs, ns/1e9), append(allocated, by), append(allocs, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the test output: %w", err)
	}
	if len(secs) != rounds {
		return nil, fmt.Errorf("%d rounds measured, want %d", len(secs), rounds)
	}
	return map[string]float64{"seconds": median(secs), "allocBytes": median(allocated), "allocs": median(allocs)}, nil
}

// suitecostHelpers returns the two helper files of package pkg: the test
// that starts a round and the one that ends it and prints its figures.
// Every name they declare starts with cling__, and they check that the
// rounds begin and end in turn.
func suitecostHelpers(pkg string) (begin, end []byte) {
	begin = []byte(`package ` + pkg + `

import (
	cling__runtime "runtime"
	cling__testing "testing"
	cling__time "time"
)

var cling__suitecost struct {
	start        cling__time.Time
	before       cling__runtime.MemStats
	begun, ended int
}

func TestCling__SuitecostBegin(t *cling__testing.T) {
	cling__runtime.GC()
	cling__runtime.ReadMemStats(&cling__suitecost.before)
	cling__suitecost.begun++
	cling__suitecost.start = cling__time.Now()
}
`)
	end = []byte(`package ` + pkg + `

import (
	cling__fmt "fmt"
	cling__runtime "runtime"
	cling__testing "testing"
	cling__time "time"
)

func TestCling__SuitecostEnd(t *cling__testing.T) {
	elapsed := cling__time.Since(cling__suitecost.start)
	var after cling__runtime.MemStats
	cling__runtime.ReadMemStats(&after)
	if cling__suitecost.begun != cling__suitecost.ended+1 {
		t.Fatalf("round %d ends, but %d began", cling__suitecost.ended+1, cling__suitecost.begun)
	}
	cling__suitecost.ended++
	cling__fmt.Printf("\n` + suitecostPrefix + `%d %d %d\n", elapsed.Nanoseconds(),
		after.TotalAlloc-cling__suitecost.before.TotalAlloc, after.Mallocs-cling__suitecost.before.Mallocs)
}
`)
	return begin, end
}
