package probe

import (
	"crypto/sha256"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/fstree"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

//go:embed rt/*.go
var runtimeFS embed.FS

// Workspace holds the replaced files of one cling run in a private
// temporary directory and describes them to the go command as an -overlay
// file. Files of the main module are overlaid in place; a dependency module
// whose files must change (it lives in the read-only module cache, which
// overlays may not touch) is copied into the workspace and substituted by a
// replace directive in an overlaid go.mod. Nothing is ever written into
// the user's tree.
type Workspace struct {
	// Dir is the private temporary directory; Close removes it.
	Dir string
	// ModRoot and ModPath are the main module's directory and path.
	ModRoot, ModPath string
	modCache         string
	replace          map[string]string // absolute path -> backing file
	copies           map[string]string // module dir -> copy dir
	copyPaths        map[string]string // module dir -> module path
	rtDir            string
	digests          map[string][32]byte // every Set path -> content hash
	hidden           map[string]bool     // paths the go command sees as deleted
}

// NewWorkspace creates a workspace for the main module of prog.
func NewWorkspace(prog *ccfg.Program) (*Workspace, error) {
	if prog.MainModule == nil || prog.MainModule.Dir == "" {
		return nil, &ccfg.LoadError{Msg: "cling needs a Go module: no go.mod found for " + prog.Dir}
	}
	dir, err := os.MkdirTemp("", "cling-")
	if err != nil {
		return nil, fmt.Errorf("creating workspace: %w", err)
	}
	modCache := ""
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		modCache = strings.TrimSpace(string(out))
	}
	w := newWorkspace(dir, prog.MainModule.Dir, prog.MainModule.Path, modCache)
	for _, p := range prog.Packages {
		if m := p.Module; m != nil && !m.Main && m.Dir != "" {
			w.copyPaths[m.Dir] = m.Path
		}
	}
	return w, nil
}

// newWorkspace is an empty workspace in dir for the main module at
// modRoot, whose dependencies are in the module cache at modCache.
func newWorkspace(dir, modRoot, modPath, modCache string) *Workspace {
	return &Workspace{
		Dir:       dir,
		ModRoot:   modRoot,
		ModPath:   modPath,
		modCache:  modCache,
		replace:   map[string]string{},
		copies:    map[string]string{},
		copyPaths: map[string]string{},
		digests:   map[string][32]byte{},
		hidden:    map[string]bool{},
	}
}

// Close removes the workspace's temporary directory.
func (w *Workspace) Close() error {
	if w == nil || w.Dir == "" {
		return nil
	}
	return os.RemoveAll(w.Dir)
}

// Set makes the go command see content at path.
func (w *Workspace) Set(path string, content []byte) error {
	w.digests[path] = sha256.Sum256(content)
	if modDir, ok := w.inModCache(path); ok {
		cp, err := w.copyModule(modDir)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(modDir, path)
		return os.WriteFile(filepath.Join(cp, rel), content, 0o644)
	}
	backing := filepath.Join(w.Dir, "overlay", fmt.Sprintf("%04d-%s", len(w.replace), filepath.Base(path)))
	if old, ok := w.replace[path]; ok {
		backing = old
	}
	if err := os.MkdirAll(filepath.Dir(backing), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(backing, content, 0o644); err != nil {
		return fmt.Errorf("writing overlay file: %w", err)
	}
	w.replace[path] = backing
	return nil
}

// Hide makes the go command see the file at path, in the main module, as
// deleted.
func (w *Workspace) Hide(path string) {
	w.hidden[path] = true
	w.digests[path] = [32]byte{} // no content
}

// Hidden reports whether path was hidden.
func (w *Workspace) Hidden(path string) bool { return w.hidden[path] }

// Digest hashes every file set in the workspace (paths and contents), to
// key builds on their inputs.
func (w *Workspace) Digest() []byte {
	paths := make([]string, 0, len(w.digests))
	for p := range w.digests {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		d := w.digests[p]
		h.Write([]byte(p))
		h.Write(d[:])
	}
	return h.Sum(nil)
}

// Overlaid reports whether path was set in the workspace, and the file
// that backs it.
func (w *Workspace) Overlaid(path string) (string, bool) {
	if _, ok := w.digests[path]; !ok {
		return "", false
	}
	if b, ok := w.replace[path]; ok {
		return b, true
	}
	return w.ActualPath(path), true
}

// ActualPath returns the path under which the go command compiles the file
// at path: the path itself, or its place in a copied module.
func (w *Workspace) ActualPath(path string) string {
	for modDir, cp := range w.copies {
		if rel, ok := within(modDir, path); ok {
			return filepath.Join(cp, rel)
		}
	}
	return path
}

// Unoverlay rewrites, in a message of the go command, the paths of
// overlay files and module copies into the user's paths, relative to dir
// when they lie under it.
func (w *Workspace) Unoverlay(msg, dir string) string {
	for orig, backing := range w.replace {
		if strings.Contains(msg, backing) {
			shown := orig
			if rel, ok := within(dir, orig); ok {
				shown = rel
			}
			msg = strings.ReplaceAll(msg, backing, shown)
		}
	}
	for modDir, cp := range w.copies {
		msg = strings.ReplaceAll(msg, cp, modDir)
	}
	return msg
}

// OriginalPath maps a path reported by the go command back to the user's
// file.
func (w *Workspace) OriginalPath(path string) string {
	for modDir, cp := range w.copies {
		if rel, ok := within(cp, path); ok {
			return filepath.Join(modDir, rel)
		}
	}
	return path
}

func (w *Workspace) inModCache(path string) (string, bool) {
	if w.modCache == "" {
		return "", false
	}
	if _, ok := within(w.modCache, path); !ok {
		return "", false
	}
	best := ""
	for modDir := range w.copyPaths {
		if _, ok := within(modDir, path); ok && len(modDir) > len(best) {
			best = modDir
		}
	}
	if best == "" {
		// A module the analysis did not load (a package R and E
		// import, whose exits are rewritten): its directory in the
		// cache names it.
		modDir, modPath, ok := cachedModule(w.modCache, path)
		if !ok {
			return "", false
		}
		w.copyPaths[modDir] = modPath
		best = modDir
	}
	return best, true
}

// cachedModule returns the directory and the path of the module whose
// files in the module cache at modCache hold path: the directory is the
// first one named path@version (github.com/!burnt!sushi/toml@v1.4.0 for
// github.com/BurntSushi/toml). False if path is in none.
func cachedModule(modCache, path string) (dir, modPath string, ok bool) {
	rel, ok := within(modCache, path)
	if !ok {
		return "", "", false
	}
	elems := strings.Split(filepath.ToSlash(rel), "/")
	for i, e := range elems[:len(elems)-1] {
		at := strings.IndexByte(e, '@')
		if at < 0 {
			continue
		}
		escaped := strings.Join(append(slices.Clone(elems[:i]), e[:at]), "/")
		p, err := module.UnescapePath(escaped)
		if err != nil {
			return "", "", false
		}
		return filepath.Join(modCache, filepath.FromSlash(strings.Join(elems[:i+1], "/"))), p, true
	}
	return "", "", false
}

func within(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// copyModule copies a dependency module out of the module cache into the
// workspace, writable.
func (w *Workspace) copyModule(modDir string) (string, error) {
	if cp, ok := w.copies[modDir]; ok {
		return cp, nil
	}
	cp := filepath.Join(w.Dir, "mod", fmt.Sprintf("%d-%s", len(w.copies), filepath.Base(modDir)))
	if err := fstree.Copy(modDir, cp); err != nil {
		return "", fmt.Errorf("copying module: %w", err)
	}
	// A replacement directory needs a go.mod; modules published without
	// one get the minimal file the go command would synthesise.
	if _, err := os.Stat(filepath.Join(cp, "go.mod")); os.IsNotExist(err) {
		if err := os.WriteFile(filepath.Join(cp, "go.mod"), []byte("module "+w.copyPaths[modDir]+"\n"), 0o644); err != nil {
			return "", err
		}
	}
	w.copies[modDir] = cp
	return cp, nil
}

// RuntimeImport installs the probe runtime as a new package of the main
// module, with the given table.go, and returns its import path.
func (w *Workspace) RuntimeImport(table []byte) (string, error) {
	name := "clingprobe_rt"
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(w.ModRoot, name)); os.IsNotExist(err) {
			break
		}
		name = fmt.Sprintf("clingprobe_rt%d", i)
	}
	w.rtDir = filepath.Join(w.ModRoot, name)
	err := eachRuntimeFile(func(file string, src []byte) error {
		if file == "table.go" {
			src = table
		}
		return w.Set(filepath.Join(w.rtDir, file), src)
	})
	if err != nil {
		return "", err
	}
	return w.ModPath + "/" + name, nil
}

// eachRuntimeFile calls f with the name and source of each file of the
// probe runtime, its tests left out, and stops at the first error.
func eachRuntimeFile(f func(name string, src []byte) error) error {
	entries, err := runtimeFS.ReadDir("rt")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := runtimeFS.ReadFile("rt/" + e.Name())
		if err != nil {
			return err
		}
		if err := f(e.Name(), src); err != nil {
			return err
		}
	}
	return nil
}

// OverlayFile writes the overlay description for the go command and
// returns its path.
func (w *Workspace) OverlayFile() (string, error) {
	if len(w.copies) > 0 {
		if err := w.overlayGoMod(); err != nil {
			return "", err
		}
	}
	replace := map[string]string{}
	keys := make([]string, 0, len(w.replace))
	for k := range w.replace {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		replace[k] = w.replace[k]
	}
	for k := range w.hidden {
		replace[k] = "" // deleted, for the go command
	}
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(w.Dir, "overlay.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", fmt.Errorf("writing overlay: %w", err)
	}
	return path, nil
}

// overlayGoMod overlays the main module's go.mod with replace directives
// pointing the copied dependency modules at their copies.
func (w *Workspace) overlayGoMod() error {
	gomod := filepath.Join(w.ModRoot, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return fmt.Errorf("reading go.mod: %w", err)
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return fmt.Errorf("parsing go.mod: %w", err)
	}
	dirs := make([]string, 0, len(w.copies))
	for d := range w.copies {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := f.AddReplace(w.copyPaths[d], "", w.copies[d], ""); err != nil {
			return fmt.Errorf("replacing %s: %w", w.copyPaths[d], err)
		}
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	return w.Set(gomod, out)
}
