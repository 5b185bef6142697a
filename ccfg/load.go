package ccfg

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// LoadConfig says which packages to load and how.
type LoadConfig struct {
	// Dir is the directory patterns are resolved against ("" means the
	// current directory), like `go -C DIR`.
	Dir string
	// Tags are build tags, as for `go build -tags`.
	Tags []string
	// Patterns are go package patterns (import paths, ./relative paths, ./...).
	Patterns []string
	// WithImports also loads, from source, every direct import of the matched
	// packages that lies outside the standard library, so that callees in
	// dependency modules can be analysed. With Std, standard-library imports
	// are loaded from source as well.
	WithImports bool
	// Std includes standard-library imports when WithImports is set.
	Std bool
	// Overlay maps absolute file paths to replacement contents, as
	// packages.Config.Overlay.
	Overlay map[string][]byte
	// TypesOnly leaves the SSA form out: the packages are only parsed and
	// type-checked (Program.SSA and Package.SSA are nil).
	TypesOnly bool
	// SkipBroken leaves out, instead of failing, the packages that do not
	// type-check (their own errors, or those of a package they import) and
	// lists them in Program.Skipped. Loading still fails when no matched
	// package is left, with the first broken package's error. It is for
	// commands that survey a whole module, where one package that does
	// not build under the installed toolchain should not hide the rest.
	SkipBroken bool
}

// SkippedPackage is a package Load left out under LoadConfig.SkipBroken.
type SkippedPackage struct {
	// Path is the package's import path.
	Path string
	// Reason says what is wrong with it, in one line.
	Reason string
}

// Program is a set of packages loaded from source with their SSA form.
// Packages loaded only for their types (dependencies) have no syntax and
// contribute no functions.
type Program struct {
	Fset *token.FileSet
	SSA  *ssa.Program
	// Packages are the packages loaded from source, sorted by import path.
	Packages []*Package
	// MainModule is the module containing Dir, if any.
	MainModule *packages.Module
	// Dir is the absolute directory patterns were resolved against.
	Dir string
	// Tags are the build tags the packages were loaded with.
	Tags []string
	// Skipped are the packages left out under LoadConfig.SkipBroken, sorted
	// by import path.
	Skipped []SkippedPackage
	byPath  map[string]*Package
}

// Package is one package loaded from source.
type Package struct {
	Path string
	Name string
	// Dir is the package directory.
	Dir string
	// Module is the module providing the package (nil for the standard library).
	Module *packages.Module
	// Files are the parsed (non-test) Go files, in the order of GoFiles.
	Files []*ast.File
	// GoFiles are the absolute paths of Files.
	GoFiles []string
	Types   *types.Package
	Info    *types.Info
	SSA     *ssa.Package
	// Matched is true for packages matched by the load patterns.
	Matched bool
	// Standard is true for standard-library packages.
	Standard bool
}

// SourceFile is a non-test Go file of a package loaded from source, as
// the instrumenter and the mutant writer edit it.
type SourceFile struct {
	Path string
	AST  *ast.File
	// TF is the file's position table in the program's FileSet.
	TF  *token.File
	Src []byte
}

// SourceFiles reads the non-test files of pkg. It fails for a cgo package,
// whose compiled files are not its source, and for a file that changed on
// disk since it was loaded.
func (p *Program) SourceFiles(pkg *Package) ([]SourceFile, error) {
	if len(pkg.Files) != len(pkg.GoFiles) {
		return nil, fmt.Errorf("package %s uses cgo, which cling does not support", pkg.Path)
	}
	var out []SourceFile
	for i, f := range pkg.Files {
		path := pkg.GoFiles[i]
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		tf := p.Fset.File(f.Pos())
		if tf == nil || tf.Size() != len(src) {
			return nil, fmt.Errorf("%s changed since it was loaded", path)
		}
		out = append(out, SourceFile{Path: path, AST: f, TF: tf, Src: src})
	}
	return out, nil
}

// Package returns the loaded package with the given import path, or nil.
func (p *Program) Package(path string) *Package { return p.byPath[path] }

// LoadError is an error in the user's input found while loading: a package
// that does not exist, a pattern that matches nothing, a type error.
type LoadError struct{ Msg string }

func (e *LoadError) Error() string { return e.Msg }

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Load loads the packages matched by cfg.Patterns from source, type-checks
// them and builds their SSA form with generics instantiated. Dependencies are
// read from export data unless cfg.WithImports asks for their source.
func Load(cfg LoadConfig) (*Program, error) {
	dir, err := absDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	if len(cfg.Patterns) == 0 {
		return nil, &LoadError{Msg: "no package patterns given"}
	}
	var buildFlags []string
	if len(cfg.Tags) > 0 {
		buildFlags = append(buildFlags, "-tags="+strings.Join(cfg.Tags, ","))
	}
	patterns := cfg.Patterns
	if cfg.WithImports {
		extra, err := directImports(dir, buildFlags, patterns, cfg.Std)
		if err != nil {
			return nil, err
		}
		patterns = append(append([]string(nil), patterns...), extra...)
	}
	pcfg := &packages.Config{
		Mode:       loadMode,
		Dir:        dir,
		BuildFlags: buildFlags,
		Overlay:    cfg.Overlay,
		Env:        os.Environ(),
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: %v", strings.Join(cfg.Patterns, " "), goCommandMessage(err))}
	}
	matched := matchedSet(pkgs, len(cfg.Patterns) < len(patterns), cfg.Patterns, dir)
	var skipped []SkippedPackage
	if cfg.SkipBroken {
		if pkgs, skipped, err = skipBroken(pkgs, matched, cfg.Patterns); err != nil {
			return nil, err
		}
	}
	if err := checkLoaded(pkgs, cfg.Patterns); err != nil {
		return nil, err
	}
	prog := &Program{Dir: dir, Tags: cfg.Tags, Skipped: skipped, byPath: map[string]*Package{}}
	if len(pkgs) > 0 {
		prog.Fset = pkgs[0].Fset
	}
	prog.MainModule = mainModule(dir, pkgs)
	if cfg.TypesOnly {
		for _, p := range pkgs {
			prog.add(newPackage(p, nil, matched[p.PkgPath]))
		}
		prog.sortPackages()
		return prog, nil
	}
	prog.SSA = ssa.NewProgram(prog.Fset, ssa.InstantiateGenerics)

	// Create SSA packages for every dependency known only through its
	// types, then for the source packages, then build.
	created := map[*types.Package]bool{}
	for _, p := range pkgs {
		created[p.Types] = true
	}
	var createDeps func(ts []*types.Package)
	createDeps = func(ts []*types.Package) {
		for _, t := range ts {
			if created[t] {
				continue
			}
			created[t] = true
			prog.SSA.CreatePackage(t, nil, nil, true)
			createDeps(t.Imports())
		}
	}
	for _, p := range pkgs {
		createDeps(p.Types.Imports())
	}
	for _, p := range pkgs {
		sp := prog.SSA.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true)
		sp.SetDebugMode(true)
		prog.add(newPackage(p, sp, matched[p.PkgPath]))
	}
	prog.sortPackages()
	prog.SSA.Build()
	return prog, nil
}

// newPackage is the Package of a loaded package, with its SSA form sp.
func newPackage(p *packages.Package, sp *ssa.Package, matched bool) *Package {
	pkg := &Package{
		Path:     p.PkgPath,
		Name:     p.Name,
		Module:   p.Module,
		Files:    p.Syntax,
		GoFiles:  p.CompiledGoFiles,
		Types:    p.Types,
		Info:     p.TypesInfo,
		SSA:      sp,
		Matched:  matched,
		Standard: p.Module == nil && IsStdPath(p.PkgPath),
	}
	if len(p.GoFiles) > 0 {
		pkg.Dir = filepath.Dir(p.GoFiles[0])
	}
	return pkg
}

func (p *Program) add(pkg *Package) {
	p.Packages = append(p.Packages, pkg)
	p.byPath[pkg.Path] = pkg
}

func (p *Program) sortPackages() {
	sort.Slice(p.Packages, func(i, j int) bool { return p.Packages[i].Path < p.Packages[j].Path })
}

func absDir(d string) (string, error) {
	if d == "" {
		d = "."
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("resolving directory %s: %w", d, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", &LoadError{Msg: fmt.Sprintf("directory %s does not exist", d)}
	}
	return abs, nil
}

// checkLoaded turns the errors go/packages attaches to packages into one
// LoadError naming the first problem.
func checkLoaded(pkgs []*packages.Package, patterns []string) error {
	if len(pkgs) == 0 {
		return &LoadError{Msg: fmt.Sprintf("pattern %s matched no packages", strings.Join(patterns, " "))}
	}
	for _, p := range pkgs {
		if len(p.Errors) == 0 {
			continue
		}
		e := p.Errors[0]
		for _, pe := range p.Errors {
			if pe.Kind == packages.TypeError || pe.Kind == packages.ParseError {
				e = pe
				break
			}
		}
		msg := firstLine(e.Msg)
		switch {
		case e.Kind == packages.TypeError || e.Kind == packages.ParseError:
			return &LoadError{Msg: fmt.Sprintf("package %s has errors: %s: %s", p.PkgPath, e.Pos, msg)}
		case strings.HasPrefix(msg, "go: ") && p.ID == "command-line-arguments":
			// The go command could not even resolve the patterns: a
			// broken go.mod or go.work, a missing toolchain. Its own
			// words name the problem.
			return &LoadError{Msg: fmt.Sprintf("the go command failed: %s", strings.TrimPrefix(msg, "go: "))}
		case strings.Contains(msg, "matched no packages") || strings.Contains(msg, "no Go files") ||
			strings.Contains(msg, "no such file or directory"):
			return &LoadError{Msg: fmt.Sprintf("pattern %s matched no packages", displayPkg(p))}
		case strings.Contains(msg, "is not in std") || strings.Contains(msg, "cannot find") ||
			strings.Contains(msg, "no required module") || strings.Contains(msg, "directory not found") ||
			strings.Contains(msg, "does not contain package") || strings.Contains(msg, "not in module") ||
			strings.Contains(msg, "outside main module"):
			return &LoadError{Msg: fmt.Sprintf("unknown package %s: %s", displayPkg(p), msg)}
		default:
			pos := ""
			if e.Pos != "" {
				pos = e.Pos + ": "
			}
			return &LoadError{Msg: fmt.Sprintf("package %s: %s%s", displayPkg(p), pos, msg)}
		}
	}
	for _, p := range pkgs {
		if p.Types == nil || p.IllTyped || p.TypesInfo == nil {
			return &LoadError{Msg: fmt.Sprintf("package %s could not be type-checked", displayPkg(p))}
		}
	}
	return nil
}

// skipBroken splits pkgs into the packages that type-check and those that
// do not, as LoadConfig.SkipBroken asks. A package is broken when it has
// errors, or when one of the packages it imports, directly or not, does:
// go/packages marks it IllTyped, and its types may be incomplete. It fails
// when no matched package is left, with checkLoaded's error for the
// first broken one.
func skipBroken(pkgs []*packages.Package, matched map[string]bool, patterns []string) ([]*packages.Package, []SkippedPackage, error) {
	var ok, broken []*packages.Package
	var skipped []SkippedPackage
	for _, p := range pkgs {
		reason := brokenReason(p)
		if reason == "" {
			ok = append(ok, p)
			continue
		}
		broken = append(broken, p)
		skipped = append(skipped, SkippedPackage{Path: displayPkg(p), Reason: reason})
	}
	anyMatched := false
	for _, p := range ok {
		anyMatched = anyMatched || matched[p.PkgPath]
	}
	if !anyMatched && len(broken) > 0 {
		return nil, nil, checkLoaded(broken, patterns)
	}
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	return ok, skipped, nil
}

// brokenReason says in one line why p does not type-check, or returns ""
// when it does.
func brokenReason(p *packages.Package) string {
	if len(p.Errors) > 0 {
		var le *LoadError
		if errors.As(checkLoaded([]*packages.Package{p}, nil), &le) {
			return le.Msg
		}
		return firstLine(p.Errors[0].Msg)
	}
	if p.Types != nil && !p.IllTyped && p.TypesInfo != nil {
		return ""
	}
	if dep := brokenImport(p, map[string]bool{}); dep != nil {
		return fmt.Sprintf("it imports %s, which has errors: %s", displayPkg(dep), firstLine(dep.Errors[0].Msg))
	}
	return fmt.Sprintf("package %s could not be type-checked", displayPkg(p))
}

// brokenImport finds a package p imports, directly or not, that has
// errors of its own, visiting imports in the order of their paths.
func brokenImport(p *packages.Package, seen map[string]bool) *packages.Package {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		ip := p.Imports[path]
		if seen[ip.ID] {
			continue
		}
		seen[ip.ID] = true
		if len(ip.Errors) > 0 {
			return ip
		}
		if d := brokenImport(ip, seen); d != nil {
			return d
		}
	}
	return nil
}

func displayPkg(p *packages.Package) string {
	if p.PkgPath != "" {
		return p.PkgPath
	}
	return p.ID
}

// goCommandMessage returns the first informative line of an error of
// packages.Load, without the "err: exit status 1: stderr: go: " that
// go/packages wraps around what the go command printed.
func goCommandMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "stderr: "); i >= 0 && strings.HasPrefix(msg, "err: exit status") {
		msg = msg[i+len("stderr: "):]
	}
	return strings.TrimPrefix(firstLine(msg), "go: ")
}

// firstLine returns the first informative line of a go command message,
// skipping "# package" headers.
func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return strings.TrimSpace(s)
}

// directImports lists the import paths imported by the packages matching
// patterns that are not themselves matched: outside the standard library
// unless std is set.
func directImports(dir string, buildFlags, patterns []string, std bool) ([]string, error) {
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedImports | packages.NeedModule,
		Dir:        dir,
		BuildFlags: buildFlags,
		Env:        os.Environ(),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: %v", strings.Join(patterns, " "), goCommandMessage(err))}
	}
	if err := checkListed(pkgs, patterns); err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, p := range pkgs {
		have[p.PkgPath] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range pkgs {
		for path, ip := range p.Imports {
			if have[path] || seen[path] || path == "C" || path == "unsafe" {
				continue
			}
			if ip.Module == nil && IsStdPath(path) && !std {
				continue
			}
			seen[path] = true
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out, nil
}

func checkListed(pkgs []*packages.Package, patterns []string) error {
	if len(pkgs) == 0 {
		return &LoadError{Msg: fmt.Sprintf("pattern %s matched no packages", strings.Join(patterns, " "))}
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			if e.Kind == packages.ListError {
				return checkLoaded([]*packages.Package{p}, patterns)
			}
		}
	}
	return nil
}

// matchedSet reports which loaded packages were matched by the user's
// patterns (as opposed to being added as imports).
func matchedSet(pkgs []*packages.Package, hasExtra bool, patterns []string, dir string) map[string]bool {
	m := map[string]bool{}
	if !hasExtra {
		for _, p := range pkgs {
			m[p.PkgPath] = true
		}
		return m
	}
	cfg := &packages.Config{Mode: packages.NeedName, Dir: dir, Env: os.Environ()}
	listed, err := packages.Load(cfg, patterns...)
	if err != nil {
		return m
	}
	for _, p := range listed {
		m[p.PkgPath] = true
	}
	return m
}

func mainModule(dir string, pkgs []*packages.Package) *packages.Module {
	var best *packages.Module
	for _, p := range pkgs {
		m := p.Module
		for m != nil && m.Replace != nil && m.Dir == "" {
			m = m.Replace
		}
		if m == nil || !m.Main {
			continue
		}
		if rel, err := filepath.Rel(m.Dir, dir); err == nil && !strings.HasPrefix(rel, "..") {
			if best == nil || len(m.Dir) > len(best.Dir) {
				best = m
			}
		}
	}
	return best
}

// IsStdPath reports whether an import path names a package of the
// standard library: its first element has no dot, as the go command
// decides.
func IsStdPath(path string) bool {
	first := path
	if i := strings.IndexByte(path, '/'); i >= 0 {
		first = path[:i]
	}
	return !strings.Contains(first, ".")
}

// RelFile names an absolute file path for reports: relative to the main
// module's root for files of the main module, as modulepath/relpath for
// files of other modules and as importpath/file for files of the standard
// library (the forms Go's coverage profiles use), so that reports and
// written tests do not depend on where the module cache or GOROOT is.
func (p *Program) RelFile(filename string) string {
	if p.MainModule != nil {
		if rel, ok := under(p.MainModule.Dir, filename); ok {
			return rel
		}
	}
	for _, pkg := range p.Packages {
		if pkg.Standard && pkg.Dir != "" && filepath.Dir(filename) == filepath.Clean(pkg.Dir) {
			return pkg.Path + "/" + filepath.Base(filename)
		}
		if pkg.Module == nil || pkg.Module.Dir == "" {
			continue
		}
		if rel, ok := under(pkg.Module.Dir, filename); ok {
			return pkg.Module.Path + "/" + rel
		}
	}
	if rel, ok := under(p.Dir, filename); ok {
		return rel
	}
	return filepath.ToSlash(filename)
}

func under(root, file string) (string, bool) {
	rel, err := filepath.Rel(root, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Pos formats a position as file:line:col with the file named by RelFile.
func (p *Program) Pos(pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	ps := p.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.RelFile(ps.Filename), ps.Line, ps.Column)
}

// IsLoadError reports whether err is a problem with the user's input.
func IsLoadError(err error) bool {
	var le *LoadError
	return errors.As(err, &le)
}

// ImportPathOf maps a command-line package name (an import path, or a
// directory relative to the program's directory) to the import path of a
// package loaded from source.
func ImportPathOf(p *Program, pattern string) (string, error) {
	if pkg := p.Package(pattern); pkg != nil {
		return pkg.Path, nil
	}
	dir := pattern
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p.Dir, dir)
	}
	dir = filepath.Clean(dir)
	for _, pkg := range p.Packages {
		if pkg.Dir == dir {
			return pkg.Path, nil
		}
	}
	return "", &LoadError{Msg: fmt.Sprintf("unknown package %s", pattern)}
}

// PosKey is a position that orders deterministically: token.Pos values
// depend on the order in which files happened to be parsed, which go/packages
// does in parallel.
type PosKey struct {
	File   string
	Offset int
}

// Less orders keys by file name, then offset.
func (k PosKey) Less(o PosKey) bool {
	if k.File != o.File {
		return k.File < o.File
	}
	return k.Offset < o.Offset
}

// Key returns the deterministic ordering key of pos.
func (p *Program) Key(pos token.Pos) PosKey {
	f := p.Fset.File(pos)
	if f == nil {
		return PosKey{}
	}
	return PosKey{File: f.Name(), Offset: f.Offset(pos)}
}

// ListedPackage is a package found by List: its import path and directory.
type ListedPackage struct {
	Path, Dir string
}

// List resolves package patterns to import paths and directories without
// loading them.
func List(cfg LoadConfig) ([]ListedPackage, error) {
	dir, err := absDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	var buildFlags []string
	if len(cfg.Tags) > 0 {
		buildFlags = append(buildFlags, "-tags="+strings.Join(cfg.Tags, ","))
	}
	pc := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule, Dir: dir, BuildFlags: buildFlags, Env: os.Environ()}
	pkgs, err := packages.Load(pc, cfg.Patterns...)
	if err != nil {
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: %v", strings.Join(cfg.Patterns, " "), goCommandMessage(err))}
	}
	if err := checkListed(pkgs, cfg.Patterns); err != nil {
		return nil, err
	}
	var out []ListedPackage
	for _, p := range pkgs {
		// Dir is set for test-only packages too, which have no GoFiles.
		out = append(out, ListedPackage{Path: p.PkgPath, Dir: p.Dir})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
