package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/internal/proc"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
)

// BuildOptions configure building the executor.
type BuildOptions struct {
	// Tags are build tags.
	Tags []string
	// CacheDir holds built executors by content hash; "" uses the user
	// cache directory (cling/executors).
	CacheDir string
	// Dir is the working directory in which a freshly built test binary
	// must start the executor (the workers' directory); "" is a new
	// directory of the workspace.
	Dir string
	// Exclude lists files of the caller's directory the executor is built
	// without: the test file the run will overwrite.
	Exclude []string
	// Plain builds the plain executor, without trying the caller's test
	// binary.
	Plain bool
}

// Environment says what the executor was built as.
type Environment string

const (
	// TestBinary is an executor built as the caller's test binary: the
	// caller's internal and external test files are compiled in, their
	// init functions and TestMain run before the executor serves, as for
	// the tests cling writes.
	TestBinary Environment = "test"
	// PlainMain is an executor built as a main package of its own, without
	// the caller's test files: the fallback when the test binary does not
	// build or does not start the executor.
	PlainMain Environment = "plain"
)

// Executable is a built executor and how to start its processes.
type Executable struct {
	// Path is the executable file; Args and Env are the arguments and
	// the environment variables its processes start with.
	Path string
	Args []string
	Env  []string
	// Environment says what it was built as; PlainReason, for PlainMain,
	// why it is not the caller's test binary ("" when BuildOptions.Plain
	// asked for it).
	Environment Environment
	PlainReason string
}

// Build generates the executor for a cluster into the session's overlay
// and builds it, or reuses a build of identical inputs from the cache.
//
// The executor is a package of the caller's directory tree (so it may
// import what the caller may), named like the caller's external test
// package. It is built as the caller's test binary, through one external
// test file added by the overlay whose test function runs the executor
// (go test -c, without vet), so that the tests run where the written tests
// will: with the caller's test files compiled in, their init functions and
// package state, and a TestMain if there is one. If that binary does not
// build, or a process of it does not start the executor (a TestMain that
// never calls m.Run), the executor is a plain main package instead, and
// the Executable says why.
func Build(ctx context.Context, sess *probe.Session, c *testcase.Cluster, opts BuildOptions) (*Executable, error) {
	a := sess.Plan.A
	rdir := a.Caller.Pkg.Dir
	name := "clingharness"
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(rdir, name)); os.IsNotExist(err) {
			break
		}
		name = fmt.Sprintf("clingharness%d", i)
	}
	pkgName := a.Caller.Pkg.Name + "_test"
	execDir := filepath.Join(rdir, name)
	execImport := a.Caller.Pkg.Path + "/" + name
	// The executor runs the ops the cluster has now; those it makes later
	// stay out of the tests.
	c.Seal()
	src, err := executorSource(c, pkgName, sess.RTImport, []string{a.Caller.Pkg.Path, a.Callee.Pkg.Path})
	if err != nil {
		return nil, err
	}
	names := newTestFileNames(externalTestNames(rdir, pkgName))
	testFile := freeTestFile(rdir, opts.Exclude)
	for _, f := range []struct {
		path    string
		content []byte
	}{
		{filepath.Join(execDir, "executor.go"), src},
		{filepath.Join(execDir, "hrt.go"), hrtSource(pkgName)},
		{filepath.Join(execDir, "main", "main.go"), mainSource(execImport)},
		{testFile, testFileSource(pkgName, execImport, names)},
	} {
		if err := sess.WS.Set(f.path, f.content); err != nil {
			return nil, err
		}
	}
	overlay, replaced, err := executorOverlay(sess.WS, rdir, testFile, opts.Exclude)
	if err != nil {
		return nil, err
	}
	env := leakProfileEnv(ctx, a.Prog.Dir)
	key, err := buildKey(ctx, sess, overlay, replaced, a.Caller.Pkg.Path, env, opts)
	if err != nil {
		return nil, err
	}
	cache := opts.CacheDir
	if cache == "" {
		if ucd, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(ucd, "cling", "executors")
		} else {
			cache = filepath.Join(sess.WS.Dir, "executors")
		}
	}
	entry := filepath.Join(cache, key)
	if err := os.MkdirAll(entry, 0o755); err != nil {
		return nil, fmt.Errorf("creating the executor cache: %w", err)
	}
	now := time.Now()
	os.Chtimes(entry, now, now) // recently used: pruning keeps it
	defer pruneCache(cache, keepExecutors, pruneAge)
	tmp := filepath.Join(sess.WS.Dir, "executor")
	var reason string
	if !opts.Plain {
		test := &Executable{
			Path:        filepath.Join(entry, testBinaryFile),
			Args:        []string{"-test.run=^" + names.Test + "$", "-test.count=1", "-test.timeout=0"},
			Env:         []string{envExecutor + "=1"},
			Environment: TestBinary,
		}
		reason, err = buildTestBinary(ctx, sess, overlay, tmp, test.Path, env, opts)
		if err != nil {
			return nil, err
		}
		if reason == "" {
			// Whether the binary starts the executor depends on where and
			// how it runs (a TestMain may look at the environment), so it
			// is tried every time.
			dir := opts.Dir
			if dir == "" {
				if dir, err = os.MkdirTemp(sess.WS.Dir, "start-"); err != nil {
					return nil, err
				}
			}
			why := startFailure(test, dir)
			if why == "" {
				return test, nil
			}
			reason = "the test binary of " + a.Caller.Pkg.Path + " did not start the executor (" + why + "); does a TestMain not call m.Run?"
		}
	}
	plain := &Executable{Path: filepath.Join(entry, plainFile), Environment: PlainMain, PlainReason: reason}
	if _, err := os.Stat(plain.Path); err == nil {
		return plain, nil
	}
	if err := buildPlain(ctx, sess, overlay, tmp, execImport+"/main", env, opts.Tags); err != nil {
		return nil, err
	}
	if err := moveFile(tmp, plain.Path); err != nil {
		return nil, err
	}
	return plain, nil
}

// The files of an entry of the executor cache: the caller's test binary,
// or why it did not build, and the plain executor.
const (
	testBinaryFile = "test"
	testErrorFile  = "test-error"
	plainFile      = "plain"
)

// buildTestBinary builds the caller's test binary with the executor into
// bin, unless it is there already. It returns why the binary cannot be
// built ("" if it can): the test files do not build with the instrumented
// packages. That reason is cached next to bin too.
func buildTestBinary(ctx context.Context, sess *probe.Session, overlay, tmp, bin string, env []string, opts BuildOptions) (string, error) {
	if _, err := os.Stat(bin); err == nil {
		return "", nil
	}
	errFile := filepath.Join(filepath.Dir(bin), testErrorFile)
	if b, err := os.ReadFile(errFile); err == nil {
		return string(b), nil
	}
	a := sess.Plan.A
	output, err := gotest.Build(ctx, gotest.BuildOptions{Dir: a.Prog.Dir, Package: a.Caller.Pkg.Path, Binary: tmp, Overlay: overlay, Tags: opts.Tags, Env: env})
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		msg := sess.WS.Unoverlay(firstError(string(output), err), a.Prog.Dir)
		reason := "the test files of " + a.Caller.Pkg.Path + " do not build with the instrumented packages: " + msg
		if err := os.WriteFile(errFile, []byte(reason), 0o644); err != nil {
			return "", fmt.Errorf("writing the executor cache: %w", err)
		}
		return reason, nil
	}
	return "", moveFile(tmp, bin)
}

// buildPlain builds the plain executor's main package into out.
func buildPlain(ctx context.Context, sess *probe.Session, overlay, out, pkg string, env, tags []string) error {
	args := []string{"build", "-overlay", overlay, "-o", out}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	args = append(args, pkg)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = sess.Plan.A.Prog.Dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("building the executor: %s", sess.WS.Unoverlay(firstError(stderr.String(), err), sess.Plan.A.Prog.Dir))
	}
	return nil
}

// externalTestNames returns the package-level names the external test
// files (package pkgName) of dir declare.
func externalTestNames(dir, pkgName string) map[string]bool {
	names := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil || parsed.Name.Name != pkgName {
			continue
		}
		for _, name := range gotest.PackageScopeNames(parsed, true) {
			names[name] = true
		}
	}
	return names
}

// freeTestFile names the test file added to dir: one that does not exist
// and is not excluded.
func freeTestFile(dir string, exclude []string) string {
	for i := 0; ; i++ {
		name := "cling_executor_test.go"
		if i > 0 {
			name = fmt.Sprintf("cling_executor%d_test.go", i)
		}
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); os.IsNotExist(err) && !slices.Contains(exclude, path) {
			return path
		}
	}
}

// executorOverlay writes the overlay the executor is built through: the
// session's, with the caller's test files as they are on disk (not marked
// for a coverage run), the added test file, and the excluded files
// removed. It returns its path and what it replaces.
func executorOverlay(ws *probe.Workspace, rdir, testFile string, exclude []string) (string, map[string]string, error) {
	path, err := ws.OverlayFile()
	if err != nil {
		return "", nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("reading the overlay: %w", err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(b, &ov); err != nil {
		return "", nil, fmt.Errorf("reading the overlay: %w", err)
	}
	for file := range ov.Replace {
		if filepath.Dir(file) == rdir && strings.HasSuffix(file, "_test.go") && file != testFile {
			delete(ov.Replace, file)
		}
	}
	for _, file := range exclude {
		ov.Replace[file] = ""
	}
	if b, err = json.MarshalIndent(ov, "", "  "); err != nil {
		return "", nil, err
	}
	path = filepath.Join(ws.Dir, "executor-overlay.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", nil, fmt.Errorf("writing the overlay: %w", err)
	}
	return path, ov.Replace, nil
}

// The executor cache keeps the keepExecutors most recently used executors,
// and any used within pruneAge (another cling may be running it).
const (
	keepExecutors = 16
	pruneAge      = 24 * time.Hour
)

// pruneCache removes the entries of cache (directories, whose time is
// when they were last used) beyond the keep most recently used ones that
// have not been used for age. Errors are ignored: the cache
// is only an optimisation.
func pruneCache(cache string, keep int, age time.Duration) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type entry struct {
		dir  string
		used time.Time
	}
	var all []entry
	for _, e := range entries {
		dir := filepath.Join(cache, e.Name())
		st, err := os.Stat(dir)
		if !e.IsDir() || err != nil {
			continue
		}
		all = append(all, entry{dir, st.ModTime()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used.After(all[j].used) })
	for i, e := range all {
		if i >= keep && time.Since(e.used) > age {
			os.RemoveAll(e.dir)
		}
	}
}

// buildKey hashes everything the executor is built from: the go version,
// the tags, the overlaid files, and every Go and embedded file of the
// non-standard packages the caller's test binary depends on (the caller's
// test files and the executor included; the plain executor depends on a
// subset of them).
func buildKey(ctx context.Context, sess *probe.Session, overlay string, replaced map[string]string, pkg string, env []string, opts BuildOptions) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), strings.Join(opts.Tags, ","), env, os.Getenv("GOEXPERIMENT"), os.Getenv("GOFLAGS"))
	if out, err := exec.Command("go", "version").Output(); err == nil {
		h.Write(out)
	}
	h.Write(sess.WS.Digest())
	args := []string{"list", "-e", "-test", "-overlay", overlay, "-deps", "-f",
		`{{if not .Standard}}{{.Dir}}{{range .GoFiles}}{{"\x00"}}{{.}}{{end}}{{range .EmbedFiles}}{{"\x00"}}{{.}}{{end}}` +
			`{{range .TestGoFiles}}{{"\x00"}}{{.}}{{end}}{{range .XTestGoFiles}}{{"\x00"}}{{.}}{{end}}` +
			`{{range .TestEmbedFiles}}{{"\x00"}}{{.}}{{end}}{{range .XTestEmbedFiles}}{{"\x00"}}{{.}}{{end}}{{end}}`}
	if len(opts.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(opts.Tags, ","))
	}
	args = append(args, pkg)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = sess.Plan.A.Prog.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("listing the executor's dependencies: %s", firstError(stderr.String(), err))
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		parts := strings.Split(line, "\x00")
		if len(parts) < 2 {
			continue
		}
		for _, f := range parts[1:] {
			if filepath.IsAbs(f) {
				continue // the test main, generated from files hashed here
			}
			path := filepath.Join(parts[0], f)
			if seen[path] {
				continue // in several variants of a package
			}
			seen[path] = true
			if _, overlaid := replaced[path]; overlaid {
				continue // in the workspace digest
			}
			b, err := os.ReadFile(path)
			if err != nil {
				continue // only in the overlay
			}
			fmt.Fprintln(h, path)
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func firstError(stderr string, err error) string {
	lines := strings.Split(stderr, "\n")
	for i, l := range lines {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		// The go command continues an error on indented lines: "package
		// p" then "\timports q: ..." says which import failed and why.
		for _, more := range lines[i+1:] {
			if !strings.HasPrefix(more, "\t") {
				break
			}
			l += " " + strings.TrimSpace(more)
		}
		return l
	}
	return err.Error()
}

// moveFile renames src to dst, copying across file systems.
func moveFile(src, dst string) error {
	if err := os.Rename(src, dst); err == nil {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, b, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// leakExperiment is the Go experiment that gives the runtime its goroutine
// leak profile (Go 1.26 and later): the executor's watchdog has the
// garbage collector find goroutines blocked where nothing can wake them
// (see hrt's findLeaks).
const leakExperiment = "goroutineleakprofile"

// leakProfileEnv returns the environment the executor is built with so
// that its runtime has the leak profile: GOEXPERIMENT with leakExperiment
// added to the experiments the environment sets already, if the go
// command in dir knows it; nil otherwise (an older Go: the executor is
// built as before, and leftover goroutines that may still run retire
// their worker). Setting CLING_LEAK_PROFILE=off leaves it out.
func leakProfileEnv(ctx context.Context, dir string) []string {
	if os.Getenv("CLING_LEAK_PROFILE") == "off" {
		return nil
	}
	exps := leakExperiment
	if cur := os.Getenv("GOEXPERIMENT"); cur != "" {
		if slices.Contains(strings.Split(cur, ","), leakExperiment) {
			return nil // set already
		}
		exps = cur + "," + leakExperiment
	}
	env := []string{"GOEXPERIMENT=" + exps}
	cmd := proc.Command(ctx, "go", "env", "GOEXPERIMENT")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if cmd.Run() != nil {
		return nil // unknown to this go command
	}
	return env
}
