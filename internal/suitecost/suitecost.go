// Package suitecost measures what a test file costs to run: the time its
// tests take and the heap they allocate, under go test, in fresh
// processes. It builds the package's test binary once, with the file and
// a small file of its own that reads the clock and the allocation
// counters (runtime.ReadMemStats, which is exact) when the test package
// is initialised and again in a test that runs after the file's tests,
// and runs only those tests, as `go test -run` of the file does, in as
// many processes as asked. cling gen reports the cost of the suite it
// writes with it, and the effectiveness benchmark compares suites.
package suitecost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/internal/proc"
)

// Suite is a test file to measure.
type Suite struct {
	// Dir is the directory the go command runs in (in the module).
	Dir string
	// Package is the import path of the package the file tests.
	Package string
	// File is the absolute path of the test file, and Src its content
	// (the file need not exist: the build overlays it).
	File string
	Src  []byte
	// Tags are build tags.
	Tags []string
}

// Binary is a suite's test binary, ready to run.
type Binary struct {
	path    string
	pattern string
	// Tests are the names of the suite's tests.
	Tests []string
}

// markerTest is the test that reports the counters; it runs after the
// suite's tests (its file sorts after the suite's, and go test runs the
// tests of a package in file order).
const markerTest = "TestCling__SuiteCost"

// markerLine starts the line the marker test prints.
const markerLine = "cling-suite-cost"

// Build compiles the test binary of the suite's package with the suite's
// file (through an overlay) and the marker file, in work, an existing
// directory.
func Build(ctx context.Context, s Suite, work string) (*Binary, error) {
	f, err := parser.ParseFile(token.NewFileSet(), s.File, s.Src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", s.File, err)
	}
	b := &Binary{path: filepath.Join(work, "suite.test"), Tests: testNames(f)}
	if len(b.Tests) == 0 {
		return nil, fmt.Errorf("%s has no tests", s.File)
	}
	b.pattern = gotest.RunPattern(append(append([]string(nil), b.Tests...), markerTest))
	suite, marker := filepath.Join(work, "suite_test.go"), filepath.Join(work, "marker_test.go")
	if err := os.WriteFile(suite, s.Src, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(marker, markerSource(f.Name.Name), 0o644); err != nil {
		return nil, err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {
		s.File:             suite,
		markerPath(s.File): marker,
	}})
	if err != nil {
		return nil, err
	}
	overlayFile := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		return nil, err
	}
	out, err := gotest.Build(ctx, gotest.BuildOptions{Dir: s.Dir, Package: s.Package, Binary: b.path, Overlay: overlayFile, Tags: s.Tags})
	if err != nil {
		return nil, fmt.Errorf("building the tests of %s: %v: %s", s.File, err, firstLines(out, 3))
	}
	return b, nil
}

// markerPath is where the marker file goes: next to the suite's file,
// with a name that sorts after it ("x_test.go" < "x_test_clingcost_test.go").
func markerPath(file string) string {
	return strings.TrimSuffix(file, ".go") + "_clingcost_test.go"
}

// markerSource is the marker file for a test package.
func markerSource(pkg string) []byte {
	return []byte(`// Code written by cling to measure the cost of a test file. DO NOT EDIT.

package ` + pkg + `

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

var cling__costStart, cling__costBytes, cling__costObjects = cling__costRead()

func cling__costRead() (time.Time, uint64, uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return time.Now(), m.TotalAlloc, m.Mallocs
}

func ` + markerTest + `(t *testing.T) {
	now, b, o := cling__costRead()
	fmt.Printf("` + markerLine + ` %d %d %d\n", now.Sub(cling__costStart).Nanoseconds(), b-cling__costBytes, o-cling__costObjects)
}
`)
}

// testNames lists the test functions of a file.
func testNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
			continue
		}
		if rest := fd.Name.Name[len("Test"):]; rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			continue // not a test: go test needs Test followed by a non-lower-case letter
		}
		out = append(out, fd.Name.Name)
	}
	return out
}

// Sample is what one process measured, per pass over the suite's tests.
type Sample struct {
	// Seconds is the time from the initialisation of the test package to
	// the end of the suite's last test.
	Seconds float64
	// Bytes and Objects are the heap bytes and objects allocated
	// meanwhile.
	Bytes, Objects float64
}

// Run runs the suite's tests count times (-test.count) in one new
// process, in dir (a copy of the package directory: the tests may write
// there), and returns what it measured divided by count.
func (b *Binary) Run(ctx context.Context, dir string, count int) (Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := proc.Command(ctx, b.path, "-test.run", b.pattern, "-test.count", strconv.Itoa(count))
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Sample{}, ctx.Err()
		}
		return Sample{}, fmt.Errorf("running the suite: %v: %s", err, firstLines(out.Bytes(), 3))
	}
	var ns, allocated, objects float64
	found := false
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 4 && f[0] == markerLine {
			ns, _ = strconv.ParseFloat(f[1], 64)
			allocated, _ = strconv.ParseFloat(f[2], 64)
			objects, _ = strconv.ParseFloat(f[3], 64)
			found = true // the last pass's line has the totals
		}
	}
	if !found {
		return Sample{}, fmt.Errorf("running the suite: no measurement in its output: %s", firstLines(out.Bytes(), 3))
	}
	n := float64(count)
	return Sample{Seconds: ns / 1e9 / n, Bytes: allocated / n, Objects: objects / n}, nil
}

// Cost is what a suite costs per pass over its tests, the median of
// several processes.
type Cost struct {
	// Processes is how many processes ran the suite, Count how many
	// passes each made (-test.count).
	Processes int `json:"processes"`
	Count     int `json:"count"`
	// Seconds, Bytes and Objects are the medians over the processes of
	// the run time, the heap bytes and the heap objects allocated, per
	// pass.
	Seconds float64 `json:"seconds"`
	Bytes   float64 `json:"allocatedBytes"`
	Objects float64 `json:"allocations"`
}

// Median summarises the samples of processes that each made count
// passes.
func Median(samples []Sample, count int) Cost {
	c := Cost{Processes: len(samples), Count: count}
	pick := func(f func(Sample) float64) float64 {
		xs := make([]float64, len(samples))
		for i, s := range samples {
			xs[i] = f(s)
		}
		return median(xs)
	}
	c.Seconds = pick(func(s Sample) float64 { return s.Seconds })
	c.Bytes = pick(func(s Sample) float64 { return s.Bytes })
	c.Objects = pick(func(s Sample) float64 { return s.Objects })
	return c
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

// Measure builds the suite's binary in work and runs it in processes
// fresh processes of count passes each, in dir.
func Measure(ctx context.Context, s Suite, work, dir string, processes, count int) (*Cost, error) {
	b, err := Build(ctx, s, work)
	if err != nil {
		return nil, err
	}
	var samples []Sample
	for i := 0; i < processes; i++ {
		sm, err := b.Run(ctx, dir, count)
		if err != nil {
			return nil, err
		}
		samples = append(samples, sm)
	}
	c := Median(samples, count)
	return &c, nil
}

// firstLines returns the first n non-empty lines of out, joined by "; ".
func firstLines(out []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && len(lines) < n {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; ")
}
