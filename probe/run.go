package probe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cling-go/cling/internal/proc"
)

// TestPackage is a package whose tests to run: its import path and
// directory.
type TestPackage struct {
	Path, Dir string
}

// TestOptions configure a test run under the probes.
type TestOptions struct {
	// Dir is the directory the go command runs in.
	Dir      string
	Packages []TestPackage
	// Run is passed to go test -run.
	Run  string
	Tags []string
	// Extra are further go test flags.
	Extra []string
}

// TestRun is the outcome of running test suites under the probes.
type TestRun struct {
	// Covered tells, per goal (coupled branch), whether a test covered it.
	Covered []bool
	// Failed lists the failing tests as package.TestName, sorted.
	Failed []string
	// Tests is the number of test functions the suites contain (marked).
	Tests int
}

// TestError is a test run that could not measure anything: the packages
// have no tests, or the instrumented build failed.
type TestError struct{ Msg string }

func (e *TestError) Error() string { return e.Msg }

// RunTests runs the tests of the given packages with the probes, always
// with -count=1, and collects the coupled branches they cover. A failing
// suite is not an error: its coverage is measured all the same and the
// failing tests are listed.
func (s *Session) RunTests(ctx context.Context, opts TestOptions) (*TestRun, error) {
	run := &TestRun{}
	for _, p := range opts.Packages {
		n, err := MarkTests(s.WS, p.Dir, s.RTImport)
		if err != nil {
			return nil, err
		}
		run.Tests += n
	}
	if run.Tests == 0 {
		var names []string
		for _, p := range opts.Packages {
			names = append(names, p.Path)
		}
		return nil, &TestError{Msg: fmt.Sprintf("no tests to run in %s", strings.Join(names, " "))}
	}
	overlay, err := s.WS.OverlayFile()
	if err != nil {
		return nil, err
	}
	coverDir, err := os.MkdirTemp(s.WS.Dir, "cover-")
	if err != nil {
		return nil, err
	}
	args := []string{"test", "-overlay", overlay, "-vet=off", "-count=1", "-json"}
	if len(opts.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(opts.Tags, ","))
	}
	if opts.Run != "" {
		args = append(args, "-run", opts.Run)
	}
	args = append(args, opts.Extra...)
	for _, p := range opts.Packages {
		args = append(args, p.Path)
	}
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = opts.Dir
	cmd.Env = append(os.Environ(), "CLING_COVER_DIR="+coverDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting go test: %w", err)
	}
	events := readTestEvents(stdout)
	werr := cmd.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if msg := events.buildError(stderr.String()); msg != "" {
		msg = s.WS.Unoverlay(msg, opts.Dir)
		if file, _, _ := strings.Cut(msg, ":"); strings.HasSuffix(file, "_test.go") {
			return nil, &TestError{Msg: "the tests do not build: " + msg}
		}
		return nil, &TestError{Msg: "the instrumented build failed (a cling bug; please report it): " + msg}
	}
	if werr != nil && len(events.failed) == 0 && !events.anyPackageFailed {
		return nil, &TestError{Msg: "go test failed: " + firstErrorLine(stderr.String(), werr.Error())}
	}
	run.Failed = events.failed
	run.Covered, err = readCovered(coverDir, len(s.Plan.A.Goals))
	if err != nil {
		return nil, err
	}
	return run, nil
}

// testEvents is what cling needs from go test -json output.
type testEvents struct {
	failed           []string
	anyPackageFailed bool
	buildOutput      []string
}

type testEvent struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

func readTestEvents(r io.Reader) *testEvents {
	ev := &testEvents{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Action == "build-output":
			ev.buildOutput = append(ev.buildOutput, e.Output)
		case e.Action == "fail" && e.Test != "" && !strings.Contains(e.Test, "/"):
			ev.failed = append(ev.failed, e.Package+"."+e.Test)
		case e.Action == "fail" && e.Test == "":
			ev.anyPackageFailed = true
		case e.Action == "output" && e.Test == "" && strings.Contains(e.Output, "[setup failed]"):
			ev.buildOutput = append(ev.buildOutput, e.Output)
		}
	}
	sort.Strings(ev.failed)
	return ev
}

// buildError returns the first compiler error of a failed build, or "".
func (ev *testEvents) buildError(stderr string) string {
	lines := append(append([]string(nil), ev.buildOutput...), strings.Split(stderr, "\n")...)
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "FAIL") {
			continue
		}
		if strings.Contains(l, ".go:") || strings.Contains(l, "setup failed") {
			return l
		}
	}
	return ""
}

func firstErrorLine(s, def string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return def
}

// readCovered ORs the per-process coverage files the runtime wrote.
func readCovered(dir string, goals int) ([]bool, error) {
	covered := make([]bool, goals)
	files, err := filepath.Glob(filepath.Join(dir, "cover-*"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading coverage: %w", err)
		}
		for i := 0; i < len(b) && i < goals; i++ {
			if b[i] != 0 {
				covered[i] = true
			}
		}
	}
	return covered, nil
}
