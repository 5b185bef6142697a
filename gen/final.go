package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/internal/proc"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
)

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

// covers reports whether a result covers every goal of goals.
func covers(r harness.Result, goals []int32) bool {
	if r.Trace == nil || r.Status == harness.TimedOut || r.Status == harness.Crashed {
		return false
	}
	have := map[int32]bool{}
	for _, g := range r.Trace.Covered {
		have[g] = true
	}
	for _, g := range goals {
		if !have[g] {
			return false
		}
	}
	return true
}

// minimize shrinks each kept test to what it needs to cover its goals.
// First, statements are tried from last to first, together with the
// statements that use their values; then the arguments of composite
// literals, slices, maps, channels and variadic calls are left out, one at
// a time; last, string literals are shortened by removing ever smaller
// runs of characters (as delta debugging does). A change stays if the test
// still calls a covering function and still covers its goals. All tests
// are shrunk together, one candidate each per round.
func minimize(ctx context.Context, x *harness.Executor, kept []mosa.ArchivedTest) ([]mosa.ArchivedTest, error) {
	shrinkers := make([]*shrinker, len(kept))
	for i, k := range kept {
		t := k.Test.Clone()
		t.Prune()
		shrinkers[i] = &shrinker{t: t, pos: t.Len() - 1}
	}
	for {
		var cands []*testcase.Test
		var owners []int
		for i, s := range shrinkers {
			if c := s.next(); c != nil {
				cands = append(cands, c)
				owners = append(owners, i)
			}
		}
		if len(cands) == 0 {
			break
		}
		res, err := x.Run(ctx, cands, false)
		if err != nil {
			return nil, err
		}
		for j, r := range res {
			if i := owners[j]; covers(r, kept[i].Goals) {
				shrinkers[i].accept(cands[j])
			}
		}
	}
	out := make([]mosa.ArchivedTest, len(kept))
	for i, s := range shrinkers {
		out[i] = mosa.ArchivedTest{Test: s.t, Goals: kept[i].Goals}
	}
	return out, nil
}

// shrinker proposes smaller versions of one test, one at a time.
type shrinker struct {
	t *testcase.Test
	// Removing statements: pos is the next statement to try.
	pos int
	// Dropping arguments: the statement fromEnd places before the end
	// (arguments never change what follows them), and its next argument
	// arg, counting down; argsLeft is false until the statement's
	// arguments are being tried.
	dropping bool
	fromEnd  int
	arg      int
	argsLeft bool
	// Shortening strings: the literal of statement str loses the run of
	// chunk characters at off; chunk 0 means the literal is not begun.
	shortening      bool
	str, chunk, off int
}

// next returns the next candidate, or nil when there is none left.
func (s *shrinker) next() *testcase.Test {
	for !s.dropping {
		if s.pos < 0 {
			s.dropping = true
			break
		}
		i := s.pos
		s.pos--
		if s.t.Stmts[i].Op.Pure() {
			continue // pruned with its last use
		}
		c := s.t.Clone()
		c.Remove(i)
		c.Prune()
		if c.HasCovering() && c.Len() > 0 {
			return c
		}
	}
	for !s.shortening {
		i := s.t.Len() - 1 - s.fromEnd
		if i < 0 {
			s.shortening = true
			break
		}
		if !s.argsLeft {
			s.arg = len(s.t.Stmts[i].Args) - 1
			s.argsLeft = true
		}
		if s.arg < 0 {
			s.fromEnd++
			s.argsLeft = false
			continue
		}
		k := s.arg
		s.arg--
		if c, ok := s.t.DropArg(i, k); ok && c.HasCovering() {
			return c
		}
	}
	for s.str < s.t.Len() {
		st := s.t.Stmts[s.str]
		v, isString := st.Value.(string)
		runes := []rune(v)
		if st.Op.Kind != testcase.OpPrim || !isString || len(runes) == 0 {
			s.str++
			continue
		}
		if s.chunk == 0 {
			s.chunk, s.off = len(runes), 0
		}
		if s.off >= len(runes) {
			if s.chunk == 1 {
				s.str++
				s.chunk = 0
				continue
			}
			s.chunk, s.off = (s.chunk+1)/2, 0
			continue
		}
		end := min(s.off+s.chunk, len(runes))
		c := s.t.Clone()
		c.Stmts[s.str].Value = string(runes[:s.off]) + string(runes[end:])
		s.off += s.chunk
		return c
	}
	return nil
}

// accept makes a candidate that still covers the goals the test.
func (s *shrinker) accept(c *testcase.Test) {
	s.t = c
	s.pos = min(s.pos, c.Len()-1)
	if s.shortening {
		// The run at off is gone: the next run starts where it did.
		s.off -= s.chunk
	}
}

// observedTest is a minimised test with the stable values of two runs.
type observedTest struct {
	test    *testcase.Test
	goals   []int32
	outcome *testcase.Outcome
	// covers are all the goals both runs covered (goals plus what the
	// test covers by the way).
	covers []int32
}

// observe runs every test twice, observing values, and keeps what the two
// runs agree on. A test whose two runs end differently is dropped.
func observe(ctx context.Context, x *harness.Executor, kept []mosa.ArchivedTest) ([]observedTest, error) {
	tests := make([]*testcase.Test, len(kept))
	for i, k := range kept {
		tests[i] = k.Test
	}
	first, err := x.Run(ctx, tests, true)
	if err != nil {
		return nil, err
	}
	// The second run gets fresh worker processes: values that depend on
	// the process (addresses, map order, state left by earlier tests) then
	// differ and are not asserted.
	x.Close()
	second, err := x.Run(ctx, tests, true)
	if err != nil {
		return nil, err
	}
	var out []observedTest
	for i, k := range kept {
		if !covers(first[i], k.Goals) || !covers(second[i], k.Goals) {
			continue
		}
		o := testcase.Stable(first[i].Outcome, second[i].Outcome)
		if o == nil {
			continue
		}
		both := map[int32]bool{}
		for _, g := range second[i].Trace.Covered {
			both[g] = true
		}
		var covers []int32
		for _, g := range first[i].Trace.Covered {
			if both[g] {
				covers = append(covers, g)
			}
		}
		out = append(out, observedTest{test: k.Test, goals: k.Goals, outcome: o, covers: covers})
	}
	return out, nil
}

// maxFallbackLevels bounds how far back finish reaches into the tests the
// archive replaced.
const maxFallbackLevels = 2

// finish turns the archive into the verified file: it minimises the kept
// tests, observes their values (the unminimised test stands in for a
// minimised one that behaved differently in two runs), names them and
// verifies the file (see verify). A goal whose test is dropped on the way,
// because it behaved differently from run to run or failed under go test,
// gets the test the archive held for it before that one, verified
// together with the tests that survived; then the one before that. It
// returns the source, the surviving tests and the names of the dropped
// ones.
func finish(ctx context.Context, a *couple.Analysis, x *harness.Executor, c *testcase.Cluster, archive *mosa.Archive, dialect emit.Dialect, out string, cfg Config) ([]byte, []namedTest, []string, error) {
	var (
		src     []byte
		final   []namedTest
		dropped []string
		taken   = map[string]bool{}
	)
	candidates := archive.Tests()
	var wanted []int32
	for _, k := range candidates {
		wanted = append(wanted, k.Goals...)
	}
	for level := 0; len(candidates) > 0; level++ {
		kept, err := minimize(ctx, x, candidates)
		if err != nil {
			return nil, nil, nil, err
		}
		emitted, err := observe(ctx, x, kept)
		if err != nil {
			return nil, nil, nil, err
		}
		// Minimisation keeps a change after one run, so a shorter test
		// can be flakier than the one it came from: where the minimised
		// test did not behave the same twice, the original gets its turn.
		if len(emitted) < len(kept) {
			stable := map[*testcase.Test]bool{}
			for _, e := range emitted {
				stable[e.test] = true
			}
			var originals []mosa.ArchivedTest
			for i, k := range kept {
				if !stable[k.Test] {
					originals = append(originals, candidates[i])
				}
			}
			more, err := observe(ctx, x, originals)
			if err != nil {
				return nil, nil, nil, err
			}
			emitted = append(emitted, more...)
		}
		if named := nameTests(a, emitted, taken); len(named) > 0 {
			tests := append(append([]namedTest(nil), final...), named...)
			s, f, d, err := verify(ctx, a, c, tests, dialect, out, cfg)
			if err != nil {
				return nil, nil, nil, err
			}
			if s != nil {
				src, final = s, f
				dropped = append(dropped, d...)
			} else {
				dropped = append(dropped, namesOf(named)...)
			}
			for _, t := range final {
				taken[t.Name] = true
			}
		}
		if level == maxFallbackLevels {
			break
		}
		covered := map[int32]bool{}
		for _, t := range final {
			for _, g := range t.covers {
				covered[g] = true
			}
		}
		var lost []int32
		for _, g := range wanted {
			if !covered[g] {
				lost = append(lost, g)
			}
		}
		candidates = archive.Fallbacks(lost, level)
	}
	return src, final, dropped, nil
}

// maxVerifyRounds bounds how often failing tests are dropped and the file
// verified again.
const maxVerifyRounds = 6

// verify emits the tests and runs them, through an overlay of the output
// file only, with go test -count=N (vet included), dropping the tests that
// do not compile or fail, until the file passes. It returns the source,
// the surviving tests and the names of the dropped ones.
func verify(ctx context.Context, a *couple.Analysis, c *testcase.Cluster, tests []namedTest, dialect emit.Dialect, out string, cfg Config) ([]byte, []namedTest, []string, error) {
	declared := declaredInTests(a, a.Caller.Pkg.Name+"_test", out)
	avoidNames(tests, declared)
	var dropped []string
	for round := 0; round < maxVerifyRounds && len(tests) > 0; round++ {
		sortNamed(tests)
		src, err := renderFile(a, c, tests, dialect, declared)
		if err != nil {
			return nil, nil, nil, err
		}
		failed, err := runGenerated(ctx, a, src, tests, out, cfg)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(failed) == 0 {
			return src, tests, dropped, nil
		}
		var keep []namedTest
		for _, t := range tests {
			if failed[t.Name] {
				dropped = append(dropped, t.Name)
			} else {
				keep = append(keep, t)
			}
		}
		tests = keep
	}
	if len(tests) > 0 {
		dropped = append(dropped, namesOf(tests)...)
	}
	return nil, nil, dropped, nil
}

func namesOf(ts []namedTest) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// renderFile renders the file.
func renderFile(a *couple.Analysis, c *testcase.Cluster, tests []namedTest, dialect emit.Dialect, declared map[string]bool) ([]byte, error) {
	ets := make([]emit.Test, len(tests))
	for i, t := range tests {
		ets[i] = t.Test
	}
	header := fmt.Sprintf("%s\n\nIntegration tests of %s calling into %s. Each test drives %s's API so that a branch of %s runs inside a call made at one of %s's call sites (a coupled branch).",
		strings.TrimPrefix(Marker, "// "), a.Caller.Pkg.Path, a.Callee.Pkg.Path, a.Caller.Pkg.Name, a.Callee.Pkg.Name, a.Caller.Pkg.Name)
	goVersion := "go1.16" // the go command's default without a go directive
	if m := a.Caller.Pkg.Module; m != nil && m.GoVersion != "" {
		goVersion = "go" + m.GoVersion
	}
	return emit.File(c, ets, emit.Options{
		Package:       a.Caller.Pkg.Name + "_test",
		Header:        header,
		Dialect:       dialect,
		MaxEndAsserts: 4,
		GoVersion:     goVersion,
		Declared:      declared,
	})
}

// declaredInTests returns the package-scope names the other test files
// of R's directory declare: in package R_test (pkg) every kind of
// declaration, with which an import or a test of the generated file would
// clash, and in any test file the functions, so that a generated test is
// never confused with a hand-written one of the same name.
func declaredInTests(a *couple.Analysis, pkg, out string) map[string]bool {
	taken := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(a.Caller.Pkg.Dir, "*_test.go"))
	for _, f := range files {
		if filepath.Clean(f) == filepath.Clean(out) {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		external := parsed.Name.Name == pkg
		for _, d := range parsed.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					taken[d.Name.Name] = true
				}
			case *ast.GenDecl:
				if !external || d.Tok == token.IMPORT {
					continue
				}
				for _, spec := range d.Specs {
					switch sp := spec.(type) {
					case *ast.TypeSpec:
						taken[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							taken[n.Name] = true
						}
					}
				}
			}
		}
	}
	return taken
}

// avoidNames renames tests whose names are taken.
func avoidNames(tests []namedTest, taken map[string]bool) {
	seen := map[string]bool{}
	for i := range tests {
		name := tests[i].Name
		for n := 2; taken[name] || seen[name]; n++ {
			name = fmt.Sprintf("%s_%d", tests[i].Name, n)
		}
		seen[name] = true
		tests[i].Name = name
	}
}

// runGenerated runs the emitted tests against the original (not
// instrumented) packages and returns the names of the tests that failed,
// did not compile, or have vet findings. The test binary is built through
// an overlay of the output file only, and runs in a temporary copy of the
// package directory (its files and testdata), so that nothing the tests do
// can touch the module.
func runGenerated(ctx context.Context, a *couple.Analysis, src []byte, tests []namedTest, out string, cfg Config) (map[string]bool, error) {
	ws, err := probe.NewWorkspace(a.Prog)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	if err := ws.Set(out, src); err != nil {
		return nil, err
	}
	overlay, err := ws.OverlayFile()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(ws.Dir, "verify.test")
	buildOut, err := gotest.Build(ctx, gotest.BuildOptions{Dir: a.Prog.Dir, Package: a.Caller.Pkg.Path, Binary: bin, Overlay: overlay, Tags: cfg.Tags})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	debug(cfg, buildOut)
	if err != nil {
		lines := strings.Split(string(buildOut), "\n")
		blamed := blame(src, out, lines)
		if len(blamed) == 0 {
			return nil, &Error{Msg: "the generated tests do not build: " + firstLine(lines)}
		}
		return blamed, nil
	}
	dir := filepath.Join(ws.Dir, "pkg")
	if err := copyPackageDir(a.Caller.Pkg.Dir, dir); err != nil {
		return nil, err
	}
	// The runs are split over two processes, so that values that differ
	// between processes fail too.
	count := max(cfg.Verify, 2)
	failed := map[string]bool{}
	for _, n := range []int{count - count/2, count / 2} {
		f, err := runTests(ctx, bin, dir, tests, n, cfg)
		if err != nil {
			return nil, err
		}
		for name := range f {
			failed[name] = true
		}
	}
	if len(failed) > 0 {
		return failed, nil
	}
	return vetGenerated(ctx, a, src, out, overlay, cfg)
}

// runTests runs the tests n times each in one process of the test binary
// and returns the names of those that failed. A test that ends the
// process (a panic in a test, a fatal runtime error, the binary's
// timeout) fails, and the tests that had not run n times yet run again in
// a new process, so that one such test does not cost the others.
func runTests(ctx context.Context, bin, dir string, tests []namedTest, n int, cfg Config) (map[string]bool, error) {
	failed := map[string]bool{}
	passes := map[string]int{}
	pending := tests
	for len(pending) > 0 {
		var names []string
		for _, t := range pending {
			names = append(names, t.Name)
		}
		// Every test passed the executor's timeout twice already; the
		// binary's timeout only guards against one that now hangs. The
		// binary runs under go tool test2json, whose whole output goes
		// to the debug writer.
		timeout := max(2*time.Minute, time.Duration(n*len(pending))*cfg.Timeout/4)
		out, err := gotest.Run(ctx, gotest.RunOptions{
			Binary:    bin,
			Dir:       dir,
			Run:       gotest.RunPattern(names),
			Count:     n,
			Timeout:   timeout,
			Test2JSON: true,
		})
		if err != nil {
			return nil, err
		}
		debug(cfg, out.Output)
		// A test fails when it or one of its subtests reported a
		// failure, or when it never ended: the process died while it ran.
		broken := false
		for _, t := range out.Tests {
			if t.Fails > 0 || t.SubtestFails > 0 || t.Running {
				failed[t.Name] = true
				broken = true
			}
			passes[t.Name] += t.Passes + t.Skips
		}
		if out.Err == nil {
			break
		}
		if !broken {
			// The process died outside any test: blame every test.
			for _, t := range pending {
				failed[t.Name] = true
			}
			break
		}
		var again []namedTest
		for _, t := range pending {
			if !failed[t.Name] && passes[t.Name] < n {
				again = append(again, t)
			}
		}
		pending = again
	}
	return failed, nil
}

// copyPackageDir copies a package directory's files and its testdata tree,
// the files its tests may read, to dst.
func copyPackageDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		switch {
		case e.IsDir() && e.Name() == "testdata":
			if err := fstree.Copy(from, to); err != nil {
				return err
			}
		case e.Type().IsRegular():
			b, err := os.ReadFile(from)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, b, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// vetGenerated runs go vet on the caller package with the generated file
// and blames the tests its findings in that file point into.
func vetGenerated(ctx context.Context, a *couple.Analysis, src []byte, out, overlay string, cfg Config) (map[string]bool, error) {
	args := []string{"vet", "-overlay", overlay}
	if len(cfg.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(cfg.Tags, ","))
	}
	args = append(args, a.Caller.Pkg.Path)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = a.Prog.Dir
	output, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	debug(cfg, output)
	return blame(src, out, strings.Split(string(output), "\n")), nil
}

// debug writes the output of a go command to cfg.Debug, if set.
func debug(cfg Config, output []byte) {
	if cfg.Debug != nil {
		cfg.Debug.Write(output)
	}
}

// blame maps error lines that point into the generated file to the test
// functions containing them.
func blame(src []byte, out string, lines []string) map[string]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, out, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	type span struct {
		name     string
		from, to int
	}
	var spans []span
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Test") {
			spans = append(spans, span{fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	base := filepath.Base(out)
	re := regexp.MustCompile(regexp.QuoteMeta(base) + `:(\d+)(:\d+)?`)
	blamed := map[string]bool{}
	for _, l := range lines {
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			line, _ := strconv.Atoi(m[1])
			for _, s := range spans {
				if line >= s.from && line <= s.to {
					blamed[s.name] = true
				}
			}
		}
	}
	return blamed
}

func firstLine(lines []string) string {
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "FAIL") {
			return l
		}
	}
	return "unknown error"
}

// seedConstants adds to the constant pool the literals of the test files of
// R and E (realistic inputs) and of the other packages the cluster calls.
// Only the parse of their files is needed, not a type-checked load.
func seedConstants(a *couple.Analysis, c *testcase.Cluster, tags []string) {
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
			if i < 2 && !strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
			if err == nil {
				c.Constants.Add(parsed)
			}
		}
	}
}
