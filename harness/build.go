package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

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
}

// Build generates the executor for a cluster into the session's overlay
// and builds it, or reuses a build of identical inputs from the cache. It
// returns the path of the executable.
func Build(ctx context.Context, sess *probe.Session, c *testcase.Cluster, opts BuildOptions) (string, error) {
	a := sess.Plan.A
	src, err := mainSource(c, sess.RTImport, []string{a.Caller.Pkg.Path, a.Callee.Pkg.Path})
	if err != nil {
		return "", err
	}
	name := "clingharness_main"
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(a.Caller.Pkg.Dir, name)); os.IsNotExist(err) {
			break
		}
		name = fmt.Sprintf("clingharness_main%d", i)
	}
	dir := filepath.Join(a.Caller.Pkg.Dir, name)
	if err := sess.WS.Set(filepath.Join(dir, "main.go"), src); err != nil {
		return "", err
	}
	if err := sess.WS.Set(filepath.Join(dir, "hrt.go"), hrtSource()); err != nil {
		return "", err
	}
	overlay, err := sess.WS.OverlayFile()
	if err != nil {
		return "", err
	}
	key, err := buildKey(ctx, sess, overlay, a.Caller.Pkg.Path+"/"+name, opts.Tags)
	if err != nil {
		return "", err
	}
	cache := opts.CacheDir
	if cache == "" {
		if ucd, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(ucd, "cling", "executors")
		} else {
			cache = filepath.Join(sess.WS.Dir, "executors")
		}
	}
	bin := filepath.Join(cache, key, "executor")
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
		now := time.Now()
		os.Chtimes(bin, now, now) // recently used: pruning keeps it
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", fmt.Errorf("creating the executor cache: %w", err)
	}
	tmp := filepath.Join(sess.WS.Dir, "executor")
	args := []string{"build", "-overlay", overlay, "-o", tmp}
	if len(opts.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(opts.Tags, ","))
	}
	args = append(args, a.Caller.Pkg.Path+"/"+name)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = a.Prog.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("building the executor: %s", firstError(stderr.String(), err))
	}
	if err := moveFile(tmp, bin); err != nil {
		return "", err
	}
	pruneCache(cache, keepExecutors, pruneAge)
	return bin, nil
}

// The executor cache keeps the keepExecutors most recently used executors,
// and any used within pruneAge (another cling may be running it).
const (
	keepExecutors = 16
	pruneAge      = 24 * time.Hour
)

// pruneCache removes the executors of cache beyond the keep most recently
// used ones that have not been used for age. Errors are ignored: the cache
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
		st, err := os.Stat(filepath.Join(dir, "executor"))
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
// non-standard packages the executor depends on.
func buildKey(ctx context.Context, sess *probe.Session, overlay, pkg string, tags []string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), strings.Join(tags, ","))
	if out, err := exec.Command("go", "version").Output(); err == nil {
		h.Write(out)
	}
	h.Write(sess.WS.Digest())
	args := []string{"list", "-overlay", overlay, "-deps", "-f",
		`{{if not .Standard}}{{.Dir}}{{range .GoFiles}}{{"\x00"}}{{.}}{{end}}{{range .EmbedFiles}}{{"\x00"}}{{.}}{{end}}{{end}}`}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
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
	for _, line := range strings.Split(string(out), "\n") {
		parts := strings.Split(line, "\x00")
		if len(parts) < 2 {
			continue
		}
		for _, f := range parts[1:] {
			path := filepath.Join(parts[0], f)
			if _, overlaid := sess.WS.Overlaid(path); overlaid {
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
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
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
