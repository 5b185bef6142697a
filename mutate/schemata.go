package mutate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"go/version"
	"runtime"
	"sort"
	"strconv"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/srcedit"
	"github.com/cling-go/cling/probe"
)

// rendered is the mutated source of one file, with the output range of
// each included site.
type rendered struct {
	src     []byte
	sites   []*site
	regions []srcedit.Span
}

// selection decides which mutants a rendering contains: id returns a
// mutant's ID, or -1 to leave it out; a site whose mutants are all left
// out is not rendered.
type selection func(*Mutant) int

// schemata renders every viable mutant of the run.
func schemata(m *Mutant) int {
	if m.site.disabled || m.left {
		return -1
	}
	return m.ID
}

// only renders a single mutant.
func only(id int) selection {
	return func(m *Mutant) int {
		if m.ID == id && !m.site.disabled {
			return id
		}
		return -1
	}
}

// render returns the mutated source of f for a selection of mutants. The
// runtime import goes on the package clause's line, so every line keeps
// its number.
func (f *srcFile) render(rtImport string, sel selection) (*rendered, error) {
	var eds []srcedit.Edit
	var owners []int // the index in included of each edit's site, or -1
	var included []*site
	for _, s := range f.sites {
		any := false
		for _, m := range s.mutants {
			if sel(m) >= 0 {
				any = true
				break
			}
		}
		if !any {
			continue
		}
		owner := len(included)
		included = append(included, s)
		for _, e := range s.edits {
			eds = append(eds, srcedit.Edit{Off: e.off, End: e.end, Kind: e.kind, Text: s.fill(e.tmpl, sel), Depth: e.depth, Layer: e.layer})
			owners = append(owners, owner)
		}
	}
	if len(included) == 0 {
		return &rendered{src: f.src}, nil
	}
	eds = append(eds, srcedit.Edit{Off: f.off(f.file.Name.End()), Kind: srcedit.Insert,
		Text: fmt.Sprintf("; import %s %q", rtName, rtImport)})
	owners = append(owners, -1)
	src, spans, err := srcedit.Apply(f.src, eds)
	if err != nil {
		return nil, fmt.Errorf("mutating %s: %w", f.rel, err)
	}
	r := &rendered{src: src, sites: included, regions: make([]srcedit.Span, len(included))}
	for i := range r.regions {
		r.regions[i] = srcedit.Span{Start: -1}
	}
	for i, owner := range owners {
		if owner < 0 {
			continue
		}
		reg := &r.regions[owner]
		if reg.Start < 0 || spans[i].Start < reg.Start {
			reg.Start = spans[i].Start
		}
		if spans[i].End > reg.End {
			reg.End = spans[i].End
		}
	}
	return r, nil
}

// final returns the mutated source as the go command compiles it: with the
// language version raised to go1.21 where the file is older, for the
// generic runtime helpers.
func (f *srcFile) final(r *rendered) ([]byte, error) {
	if len(r.sites) == 0 {
		return r.src, nil
	}
	return probe.RaiseVersion(r.src, f.file, f.tf, f.goVersion(), f.path)
}

func (f *srcFile) goVersion() string {
	if v := f.pkg.Info.FileVersions[f.file]; v != "" {
		return v
	}
	if m := f.pkg.Module; m != nil && m.GoVersion != "" {
		return "go" + m.GoVersion
	}
	return "go1.16"
}

// siteAt returns the innermost site of r whose output region contains off.
func (r *rendered) siteAt(off int) *site {
	best := -1
	for i, reg := range r.regions {
		if off < reg.Start || off >= reg.End {
			continue
		}
		if best < 0 || reg.End-reg.Start < r.regions[best].End-r.regions[best].Start {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return r.sites[best]
}

// checker type-checks the mutated sources of one package.
type checker struct {
	pkg      *ccfg.Package
	files    []*srcFile
	rtImport string
	imports  map[string]*types.Package
	version  string
}

// typeError is a type error located in a mutated file.
type typeError struct {
	file *srcFile
	off  int
	msg  string
}

func newChecker(pkg *ccfg.Package, files []*srcFile, rtImport string, rt *types.Package) *checker {
	c := &checker{pkg: pkg, files: files, rtImport: rtImport, imports: map[string]*types.Package{rtImport: rt}}
	for _, f := range pkg.Files {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			if pn := pkg.Info.PkgNameOf(spec); pn != nil {
				c.imports[path] = pn.Imported()
			}
		}
	}
	c.version = "go1.21"
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		if v := "go" + pkg.Module.GoVersion; version.IsValid(v) && version.Compare(v, c.version) > 0 {
			c.version = version.Lang(v)
		}
	}
	return c
}

// Import implements types.Importer with the packages R or E imports.
func (c *checker) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p, ok := c.imports[path]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("package %s not loaded", path)
}

// check renders the package's files with the viable mutants and returns
// the type errors.
func (c *checker) check() ([]typeError, map[*srcFile]*rendered, error) {
	fset := token.NewFileSet()
	byName := map[string]*srcFile{}
	outs := map[*srcFile]*rendered{}
	var files []*ast.File
	var errs []typeError
	for _, f := range c.files {
		r, err := f.render(c.rtImport, schemata)
		if err != nil {
			return nil, nil, err
		}
		outs[f] = r
		byName[f.path] = f
		af, err := parser.ParseFile(fset, f.path, r.src, parser.SkipObjectResolution)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					errs = append(errs, typeError{file: f, off: e.Pos.Offset, msg: e.Error()})
				}
				continue
			}
			return nil, nil, err
		}
		files = append(files, af)
	}
	if len(errs) > 0 {
		return errs, outs, nil
	}
	conf := types.Config{
		Importer:  c,
		GoVersion: c.version,
		Sizes:     types.SizesFor("gc", runtime.GOARCH),
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				p := te.Fset.PositionFor(te.Pos, false)
				if f := byName[p.Filename]; f != nil {
					errs = append(errs, typeError{file: f, off: p.Offset, msg: te.Msg})
					return
				}
			}
			errs = append(errs, typeError{off: -1, msg: err.Error()})
		},
	}
	conf.Check(c.pkg.Path, fset, files, nil)
	return errs, outs, nil
}

// filterViable type-checks the package with all its mutants and disables
// the sites whose mutants cause type errors, until it type-checks. A
// site is disabled when an error lies in its text, innermost first; sites
// disabled along the way are then tried again one by one, so that a site
// blamed for an error of an enclosing one comes back.
func (c *checker) filterViable() error {
	var disabled []*site
	for round := 0; ; round++ {
		errs, outs, err := c.check()
		if err != nil {
			return err
		}
		if len(errs) == 0 {
			break
		}
		progress := false
		for _, e := range errs {
			if e.file == nil {
				return fmt.Errorf("type-checking the mutants of %s: %s", c.pkg.Path, e.msg)
			}
			s := outs[e.file].siteAt(e.off)
			if s == nil {
				return fmt.Errorf("type-checking the mutants of %s: %s: %s", c.pkg.Path, e.file.rel, e.msg)
			}
			if !s.disabled {
				s.disabled, s.reason = true, e.msg
				disabled = append(disabled, s)
				progress = true
			}
		}
		if !progress {
			return fmt.Errorf("type-checking the mutants of %s: %s", c.pkg.Path, errs[0].msg)
		}
	}
	const maxRetries = 200
	if len(disabled) > 1 && len(disabled) <= maxRetries {
		for _, s := range disabled {
			s.disabled = false
			errs, _, err := c.check()
			if err != nil {
				return err
			}
			if len(errs) > 0 {
				s.disabled = true
			}
		}
	}
	return nil
}

// runtimeStub type-checks the API of the mutant runtime (probe/rt's
// mutant.go with its function bodies left out), the package that mutated
// files import as path.
func runtimeStub(path string) (*types.Package, error) {
	src, err := probe.RuntimeSource("mutant.go")
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "mutant.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing the mutant runtime: %w", err)
	}
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				d.Body = &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
					Fun: ast.NewIdent("panic"), Args: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: "0"}}}}}}
				decls = append(decls, d)
			}
		case *ast.GenDecl:
			if d.Tok == token.TYPE || d.Tok == token.CONST {
				decls = append(decls, d)
			}
		}
	}
	f.Decls, f.Imports = decls, nil
	conf := types.Config{GoVersion: "go1.21"}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, fmt.Errorf("type-checking the mutant runtime: %w", err)
	}
	return pkg, nil
}

// markNotViable sets the status of the mutants of disabled sites.
func (g *generator) markNotViable() {
	for _, m := range g.mutants {
		if m.site.disabled {
			m.Status = NotViable
			m.Reason = m.site.reason
		}
	}
}

// checkViability filters the mutants of R and E that do not type-check.
func (g *generator) checkViability(rtImport string) error {
	rt, err := runtimeStub(rtImport)
	if err != nil {
		return err
	}
	for _, pkg := range []*ccfg.Package{g.a.Caller.Pkg, g.a.Callee.Pkg} {
		files := g.filesOf(pkg)
		has := false
		for _, f := range files {
			has = has || len(f.sites) > 0
		}
		if !has {
			continue
		}
		if err := newChecker(pkg, files, rtImport, rt).filterViable(); err != nil {
			return err
		}
	}
	g.markNotViable()
	return nil
}

// mutatedFiles renders the files of R and E that hold selected mutants, as
// the go command compiles them, by absolute path.
func (g *generator) mutatedFiles(rtImport string, sel selection) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, f := range g.files {
		r, err := f.render(rtImport, sel)
		if err != nil {
			return nil, err
		}
		if len(r.sites) == 0 {
			continue
		}
		src, err := f.final(r)
		if err != nil {
			return nil, fmt.Errorf("mutating %s: %w", f.rel, err)
		}
		out[f.path] = src
	}
	return out, nil
}

// sortedPaths returns the keys of a file map in order.
func sortedPaths(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
