package mutate

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/srcedit"
	"github.com/cling-go/cling/internal/typeinfo"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/targets"
)

// rtName is the name mutated files import the probe runtime under.
const rtName = probe.RT

// Wrapper layers: wrappers of the same node nest in this order, outermost
// first.
const (
	layerRet   = 0
	layerCall  = 16
	layerCond  = 32
	layerCmp   = 33
	layerMath  = 34
	layerConst = 35
)

// srcFile is one non-test Go file of R or E.
type srcFile struct {
	path, rel string
	pkg       *ccfg.Package
	file      *ast.File
	tf        *token.File
	src       []byte
	tree      *srcedit.Tree
	sites     []*site
}

// site is one mutated place of a file: the edits that guard its mutants.
// The edits' texts hold placeholders for the IDs of the site's mutants, so
// that a mutant left out (not viable, or not selected) renders as -1, the
// ID of no mutant.
type site struct {
	file    *srcFile
	edits   []siteEdit
	mutants []*Mutant
	// disabled is set for the sites whose mutants are not viable.
	disabled bool
	reason   string
}

type siteEdit struct {
	kind         srcedit.Kind
	off, end     int
	tmpl         string
	depth, layer int
}

// ph is the placeholder of the k-th mutant of a site.
func ph(k int) string { return "\x00" + string(rune('0'+k)) }

// fill replaces the placeholders of tmpl by the IDs of the site's mutants.
func (s *site) fill(tmpl string, id func(*Mutant) int) string {
	if !strings.Contains(tmpl, "\x00") {
		return tmpl
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == 0 && i+1 < len(tmpl) {
			k := int(tmpl[i+1] - '0')
			b.WriteString(strconv.Itoa(id(s.mutants[k])))
			i++
			continue
		}
		b.WriteByte(tmpl[i])
	}
	return b.String()
}

// generator finds the mutants of a pair and renders the mutated sources.
type generator struct {
	a       *couple.Analysis
	ops     map[Operator]bool
	files   []*srcFile
	byTF    map[*token.File]*srcFile
	mutants []*Mutant
	// ifMutants are the pair's interface mutants, found by package
	// targets when an interface operator is selected.
	ifMutants []*targets.Mutant
}

// newGenerator finds every mutant of the operators in R and E.
func newGenerator(a *couple.Analysis, ops []Operator) (*generator, error) {
	g := &generator{a: a, ops: map[Operator]bool{}, byTF: map[*token.File]*srcFile{}}
	for _, o := range ops {
		g.ops[o] = true
	}
	if g.ops[RetStaRep] || g.ops[FunCalDel] {
		ms, err := targets.InterfaceMutants(a)
		if err != nil {
			return nil, err
		}
		g.ifMutants = ms
	}
	for _, c := range []*ccfg.CCFG{a.Caller, a.Callee} {
		if err := g.addFiles(c.Pkg); err != nil {
			return nil, err
		}
	}
	// The passes over the pair run first, in operator order, then one
	// walk of the function bodies offers every node to the visitors.
	var visitors []*nodeVisitor
	seen := map[*nodeVisitor]bool{}
	for _, d := range registry {
		if !g.ops[d.Name] {
			continue
		}
		if d.pass != nil {
			d.pass(g)
		}
		if d.node != nil && !seen[d.node] {
			seen[d.node] = true
			visitors = append(visitors, d.node)
		}
	}
	if len(visitors) > 0 {
		for _, f := range g.files {
			g.walkBodies(f, visitors)
		}
	}
	g.number()
	return g, nil
}

func (g *generator) addFiles(pkg *ccfg.Package) error {
	sources, err := g.a.Prog.SourceFiles(pkg)
	if err != nil {
		return err
	}
	var files []*srcFile
	for _, f := range sources {
		sf := &srcFile{path: f.Path, rel: g.a.Prog.RelFile(f.Path), pkg: pkg, file: f.AST, tf: f.TF, src: f.Src, tree: srcedit.NewTree(f.AST)}
		files = append(files, sf)
		g.byTF[f.TF] = sf
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	g.files = append(g.files, files...)
	return nil
}

// keep leaves out the mutants sel rejects: they keep their IDs (and their
// places in their sites) but are not rendered, checked or run.
func (g *generator) keep(sel func(*Mutant) bool) {
	kept := g.mutants[:0]
	for _, m := range g.mutants {
		if sel(m) {
			kept = append(kept, m)
		} else {
			m.left = true
		}
	}
	g.mutants = kept
}

// sources returns the files of R and E for reports.
func (g *generator) sources() []*Source {
	var out []*Source
	for _, f := range g.files {
		out = append(out, &Source{Rel: f.rel, Package: f.pkg.Path, Text: string(f.src)})
	}
	return out
}

// fileOf returns the file containing pos, or nil for a test file.
func (g *generator) fileOf(pos token.Pos) *srcFile { return g.byTF[g.a.Prog.Fset.File(pos)] }

// filesOf returns the files of a package.
func (g *generator) filesOf(pkg *ccfg.Package) []*srcFile {
	var out []*srcFile
	for _, f := range g.files {
		if f.pkg == pkg {
			out = append(out, f)
		}
	}
	return out
}

// number sorts the mutants into source order and assigns their IDs.
func (g *generator) number() {
	sort.SliceStable(g.mutants, func(i, j int) bool {
		a, b := g.mutants[i], g.mutants[j]
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Operator != b.Operator {
			return a.Operator.rank() < b.Operator.rank()
		}
		return a.variant < b.variant
	})
	for i, m := range g.mutants {
		m.ID = i + 1
	}
}

func (f *srcFile) off(p token.Pos) int { return f.tf.Offset(p) }

func (f *srcFile) text(n ast.Node) string { return string(f.src[f.off(n.Pos()):f.off(n.End())]) }

func (f *srcFile) info() *types.Info { return f.pkg.Info }

// newSite starts a site in f.
func (g *generator) newSite(f *srcFile) *site {
	s := &site{file: f}
	f.sites = append(f.sites, s)
	return s
}

// wrap surrounds node n with open and close.
func (s *site) wrap(n ast.Node, open, close string, layer int) {
	f := s.file
	d := f.tree.Depth(n)
	s.edits = append(s.edits,
		siteEdit{kind: srcedit.Open, off: f.off(n.Pos()), tmpl: open, depth: d, layer: layer},
		siteEdit{kind: srcedit.Close, off: f.off(n.End()), tmpl: close, depth: d, layer: layer})
}

// replace replaces the source between two offsets (an insertion if they
// are equal).
func (s *site) replace(off, end int, text string) {
	s.edits = append(s.edits, siteEdit{kind: srcedit.Replace, off: off, end: end, tmpl: text})
}

// closeAt inserts a closing text at off, for a wrapper opened by a
// replacement.
func (s *site) closeAt(off int, text string, depth, layer int) {
	s.edits = append(s.edits, siteEdit{kind: srcedit.Close, off: off, tmpl: text, depth: depth, layer: layer})
}

// add records the k-th mutant of site s (its placeholder is ph(k)).
func (g *generator) add(s *site, op Operator, pos token.Pos, variant int, desc string) {
	f := s.file
	p := g.a.Prog.Fset.PositionFor(pos, false)
	m := &Mutant{
		Operator: op, Package: f.pkg.Path, File: f.path, Rel: f.rel,
		Line: p.Line, Col: p.Column, Offset: p.Offset,
		Description: desc, site: s, variant: variant,
	}
	s.mutants = append(s.mutants, m)
	g.mutants = append(g.mutants, m)
}

// typeText names t in file f, with the file's import names, and false if
// it cannot be named there.
func (f *srcFile) typeText(t types.Type) (string, bool) {
	return typeinfo.TypeText(f.pkg.Types, f.info(), f.file, t)
}

// interfaceMutants returns the pair's interface mutants, in ID order.
func (g *generator) interfaceMutants() []*targets.Mutant { return g.ifMutants }

// walkBodies offers every node of the function bodies of f to the
// visitors, except the insides of type expressions and of constant and
// type declarations, which must stay constant.
func (g *generator) walkBodies(f *srcFile, visitors []*nodeVisitor) {
	for _, d := range f.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.CONST && x.Tok != token.TYPE
			case *ast.ArrayType, *ast.StructType, *ast.InterfaceType, *ast.FuncType, *ast.MapType, *ast.ChanType:
				return false
			}
			for _, v := range visitors {
				v.visit(g, f, n)
			}
			return true
		})
	}
}

// operandType is the type of a binary operation's operands: the typed
// operand's type, or nil if both are untyped or the types differ.
func operandType(info *types.Info, x, y ast.Expr) types.Type {
	tx, ty := info.Types[x].Type, info.Types[y].Type
	switch {
	case typeinfo.IsUntyped(tx) && typeinfo.IsUntyped(ty):
		return nil
	case typeinfo.IsUntyped(tx):
		return ty
	case typeinfo.IsUntyped(ty):
		return tx
	case types.Identical(tx, ty):
		return tx
	}
	return nil
}

// isPure reports whether evaluating e twice has no effect and yields the
// same value: names, selections, dereferences and indexing by names and
// literals.
func isPure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return isPure(x.X)
	case *ast.SelectorExpr:
		return isPure(x.X)
	case *ast.StarExpr:
		return isPure(x.X)
	case *ast.IndexExpr:
		return isPure(x.X) && isPure(x.Index)
	}
	return false
}
