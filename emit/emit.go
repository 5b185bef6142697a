// Package emit writes the tests cling keeps as Go source: one gofmt'd
// test file of package R_test in which each test case of package testcase
// becomes a test function that replays its statements and asserts the
// values its execution showed (a testcase.Outcome), in the style of
// testify or of the standard library's testing package. Emission chooses
// variable names that shadow no package, writes single-use pure values
// inline, and manages the file's imports.
package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cling-go/cling/testcase"
)

// Dialect is the assertion style of emitted tests.
type Dialect int

const (
	// Testify asserts with github.com/stretchr/testify (assert, require).
	Testify Dialect = iota
	// Std asserts with the standard library's testing package only, for
	// modules that do not depend on testify.
	Std
)

// Test is one test to emit: its name, statements, what its execution
// showed, and a comment saying what it covers.
type Test struct {
	Name    string
	Test    *testcase.Test
	Outcome *testcase.Outcome
	Comment string
}

// Options configure emission.
type Options struct {
	// Package is the test package's name (R_test).
	Package string
	// Header is a comment placed above the package clause.
	Header string
	// Dialect is the assertion style.
	Dialect Dialect
	// MaxEndAsserts bounds the assertions on final state per test.
	MaxEndAsserts int
	// GoVersion is the language version of the test file (go1.16, ...):
	// before go1.18 the empty interface is written interface{}.
	GoVersion string
	// Declared are the package-scope names the package's other test files
	// declare: imports and helpers of the file get other names.
	Declared map[string]bool
}

// File renders tests as a gofmt'd Go test file.
func File(c *testcase.Cluster, tests []Test, opts Options) ([]byte, error) {
	r, err := Render(c, tests, opts)
	return r.Src, err
}

// Rendered is an emitted test file and where its assertions are.
type Rendered struct {
	// Src is the gofmt'd file.
	Src []byte
	// Assertions are the file's assertions, test by test, in the order
	// they appear.
	Assertions []Assertion
}

// Assertion is one assertion of an emitted file: a statement that checks
// an observation, or that a statement panics.
type Assertion struct {
	// Test is the index of the test it belongs to, in the tests rendered.
	Test int
	// From and To are the first and last line of the statement in Src.
	From, To int
	// Observation is what it asserts, unless Panic is set: then it asserts
	// that the test's PanicStmt panics, and, when PanicValue is set, with
	// the outcome's panic text.
	Observation testcase.Observation
	Panic       bool
	PanicValue  bool
}

// Render renders tests as a gofmt'd Go test file, as File does, and tells
// where each assertion is in it. When the source cannot be formatted,
// Src is the unformatted source, and the error says why.
func Render(c *testcase.Cluster, tests []Test, opts Options) (*Rendered, error) {
	im := newImports(c.Caller.Types, opts.Declared)
	im.noAny = opts.GoVersion != "" && version.Compare(opts.GoVersion, "go1.18") < 0
	helper := freeName("mustPanic", opts.Declared)
	im.declare(c, tests, opts.Declared)
	var body bytes.Buffer
	var marks []mark
	needsPanicHelper := false
	for i, et := range tests {
		e := &testEmitter{c: c, im: im, t: et.Test, out: et.Outcome, dialect: opts.Dialect, maxEnd: opts.MaxEndAsserts, panicHelper: helper}
		code, usesHelper := e.emit()
		needsPanicHelper = needsPanicHelper || usesHelper
		if et.Comment != "" {
			for _, line := range wrap(et.Comment, 77) {
				fmt.Fprintf(&body, "// %s\n", line)
			}
		}
		fmt.Fprintf(&body, "func %s(t *testing.T) {\n", et.Name)
		for _, m := range e.marks {
			m.test, m.offset = i, m.offset+body.Len()
			marks = append(marks, m)
		}
		fmt.Fprintf(&body, "%s}\n\n", code)
	}
	if needsPanicHelper {
		body.WriteString(strings.ReplaceAll(panicHelper, "mustPanic", helper))
	}
	im.use("testing", "testing")
	if opts.Dialect == Testify {
		if strings.Contains(body.String(), "\tassert.") {
			im.use("github.com/stretchr/testify/assert", "assert")
		}
		if strings.Contains(body.String(), "\trequire.") {
			im.use("github.com/stretchr/testify/require", "require")
		}
	}
	file, offset := assemble(nil, opts, im, body.Bytes())
	for i := range marks {
		marks[i].offset += offset
	}
	src, err := format.Source(file)
	if err != nil {
		return &Rendered{Src: file}, fmt.Errorf("formatting generated tests: %w", err)
	}
	assertions, err := placeAssertions(file, src, tests, marks)
	if err != nil {
		return &Rendered{Src: src}, err
	}
	return &Rendered{Src: src, Assertions: assertions}, nil
}

// assemble puts a file together, unformatted: the lines before (a build
// constraint), the header comment, the package clause, the imports, the
// types the tests declare and the body. It returns the file and the
// offset of the body in it.
func assemble(before []byte, opts Options, im *imports, body []byte) ([]byte, int) {
	var file bytes.Buffer
	file.Write(before)
	if opts.Header != "" {
		for _, line := range wrap(opts.Header, 77) {
			fmt.Fprintf(&file, "// %s\n", strings.TrimRight(line, " "))
		}
		file.WriteString("\n")
	}
	fmt.Fprintf(&file, "package %s\n\n", opts.Package)
	// The declarations first: the methods of stubs may name packages
	// nothing else in the file imports.
	var decls strings.Builder
	for _, d := range im.decls {
		decls.WriteString(im.rename(testcase.DeclSource(d, im.typ)) + "\n")
	}
	im.write(&file)
	file.WriteString(decls.String())
	offset := file.Len()
	file.Write(body)
	return file.Bytes(), offset
}

// mark is where the emitter wrote an assertion: its test and its offset
// in the unformatted file (at the indentation of its first line).
type mark struct {
	test, offset int
	obs          testcase.Observation
	panic        bool
	panicValue   bool
}

// placeAssertions finds the lines of the marked assertions in the
// formatted file. Each assertion is one statement of its test function's
// body, and formatting keeps the statements in order, so the statement
// that starts at a mark's offset in the unformatted file is the statement
// of the same index in the formatted one.
func placeAssertions(unformatted, formatted []byte, tests []Test, marks []mark) ([]Assertion, error) {
	before, _, err := testBodies(unformatted)
	if err != nil {
		return nil, err
	}
	after, fset, err := testBodies(formatted)
	if err != nil {
		return nil, err
	}
	var out []Assertion
	for _, m := range marks {
		name := tests[m.test].Name
		start := m.offset + len(unformatted[m.offset:]) - len(bytes.TrimLeft(unformatted[m.offset:], " \t"))
		k := slices.IndexFunc(before[name], func(s ast.Stmt) bool { return int(s.Pos())-1 == start })
		if k < 0 || k >= len(after[name]) {
			return nil, fmt.Errorf("internal error: no statement of %s at an assertion", name)
		}
		s := after[name][k]
		out = append(out, Assertion{Test: m.test, From: fset.Position(s.Pos()).Line, To: fset.Position(s.End()).Line, Observation: m.obs, Panic: m.panic, PanicValue: m.panicValue})
	}
	return out, nil
}

// testBodies parses a file and returns the statements of each function's
// body, by name. A file's base is 1, so a position is its offset plus 1.
func testBodies(src []byte) (map[string][]ast.Stmt, *token.FileSet, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing generated tests: %w", err)
	}
	bodies := map[string][]ast.Stmt{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			bodies[fd.Name.Name] = fd.Body.List
		}
	}
	return bodies, fset, nil
}

// wrap breaks text into lines of at most width columns, keeping its line
// breaks; words longer than width stay whole.
func wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			switch {
			case line == "":
				line = w
			case len(line)+1+len(w) > width:
				out = append(out, line)
				line = w
			default:
				line += " " + w
			}
		}
		out = append(out, line)
	}
	return out
}

const panicHelper = `// mustPanic fails the test unless f panics.
func mustPanic(t *testing.T, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Error("expected a panic")
		}
	}()
	f()
}
`

// imports assigns package names in the emitted file.
type imports struct {
	self   *types.Package
	byPath map[string]string
	names  map[string]string // name -> path
	// noAny writes the empty interface as interface{} (before go1.18).
	noAny bool
	// decls are the struct types the tests declare, and renamed the new
	// names of those whose names the package's other test files take.
	decls   []*types.Named
	renamed map[string]string
}

// declare finds the declared struct types the tests use and names them.
func (im *imports) declare(c *testcase.Cluster, tests []Test, declared map[string]bool) {
	var used []types.Type
	for _, et := range tests {
		for _, s := range et.Test.Stmts {
			for k := range s.Op.Inputs() {
				used = append(used, s.Op.ArgType(k))
			}
			used = append(used, s.Op.Outputs()...)
			used = append(used, s.Op.TypeArgs...)
		}
	}
	im.decls = c.DeclaredIn(used...)
	for _, d := range im.decls {
		name := d.Obj().Name()
		n := name
		for i := 2; declared[n] || im.names[n] != ""; i++ {
			n = fmt.Sprintf("%sv%d", name, i)
		}
		if n != name {
			if im.renamed == nil {
				im.renamed = map[string]string{}
			}
			im.renamed[name] = n
		}
		im.names[n] = "" // taken by a declaration
	}
}

// typ writes a type of the file.
func (im *imports) typ(t types.Type) string {
	s := types.TypeString(t, im.qualifier)
	if im.noAny {
		s = anyWord.ReplaceAllString(s, "interface{}")
	}
	return im.rename(s)
}

// rename gives declared types their names in the file.
func (im *imports) rename(s string) string {
	for old, n := range im.renamed {
		s = regexp.MustCompile(`\b`+old+`\b`).ReplaceAllString(s, n)
	}
	return s
}

// newImports starts the imports of a file of package self; the names of
// declared are not available to them.
func newImports(self *types.Package, declared map[string]bool) *imports {
	names := map[string]string{}
	for n := range declared {
		names[n] = "" // taken by a declaration, not by an import
	}
	return &imports{self: self, byPath: map[string]string{}, names: names}
}

// use returns the name under which path is imported, adding it.
func (im *imports) use(path, name string) string {
	if n, ok := im.byPath[path]; ok {
		return n
	}
	base := name
	for i := 2; ; i++ {
		if p, taken := im.names[name]; !taken || p == path {
			break
		}
		name = fmt.Sprintf("%s%d", base, i)
	}
	im.byPath[path] = name
	im.names[name] = path
	return name
}

func (im *imports) qualifier(p *types.Package) string {
	if testcase.IsDeclaredPkg(p) {
		return "" // declared by the file
	}
	return im.use(p.Path(), p.Name())
}

// write writes the import block: standard library first, then the rest,
// as goimports groups them.
func (im *imports) write(b *bytes.Buffer) {
	var std, other []string
	for p := range im.byPath {
		if first := strings.Split(p, "/")[0]; strings.Contains(first, ".") {
			other = append(other, p)
		} else {
			std = append(std, p)
		}
	}
	sort.Strings(std)
	sort.Strings(other)
	b.WriteString("import (\n")
	for gi, group := range [][]string{std, other} {
		if gi == 1 && len(std) > 0 && len(other) > 0 {
			b.WriteString("\n")
		}
		for _, p := range group {
			name := im.byPath[p]
			if last := p[strings.LastIndex(p, "/")+1:]; last == name {
				fmt.Fprintf(b, "\t%q\n", p)
			} else {
				fmt.Fprintf(b, "\t%s %q\n", name, p)
			}
		}
	}
	b.WriteString(")\n\n")
}

// testEmitter renders one test.
type testEmitter struct {
	// panicHelper is the name of the file's mustPanic helper.
	panicHelper string
	// fault, for a reproducer of a fault, wraps the statement that fails
	// in a call of its helper instead of a panic assertion (see
	// FaultFile).
	fault   *faultCall
	c       *testcase.Cluster
	im      *imports
	t       *testcase.Test
	out     *testcase.Outcome
	dialect Dialect
	maxEnd  int

	names  map[testcase.Ref]string
	inline map[int]bool
	needed map[testcase.Ref]bool
	// argRefs are the values later statements use (not only assertions).
	argRefs  map[testcase.Ref]bool
	declared map[string]bool
	used     map[string]bool
	// pkgNames are the names of every package the test's types and calls
	// may refer to: variables must not shadow them.
	pkgNames map[string]bool
	b        strings.Builder
	// marks are where the assertions start in b.
	marks []mark
}

// typ writes t as the test names it (see testcase.WrittenType).
func (e *testEmitter) typ(t types.Type) string { return e.im.typ(testcase.WrittenType(t)) }

var anyWord = regexp.MustCompile(`\bany\b`)

// emit renders the test body; it reports whether the panic helper is used.
func (e *testEmitter) emit() (string, bool) {
	e.names = map[testcase.Ref]string{}
	e.used = map[string]bool{}
	for n := range reservedNames {
		e.used[n] = true
	}
	// err is the variable of the errors checked right away (see name); an
	// error used later as an argument needs another.
	e.used["err"] = true
	e.pkgNames = map[string]bool{}
	for _, n := range e.im.names {
		e.pkgNames[n] = true
	}
	for _, d := range e.im.decls {
		e.pkgNames[e.im.rename(d.Obj().Name())] = true
	}
	for _, s := range e.t.Stmts {
		if s.Op.Func != nil && s.Op.Func.Pkg() != nil {
			e.pkgNames[s.Op.Func.Pkg().Name()] = true
		}
		if s.Op.Var != nil && s.Op.Var.Pkg() != nil {
			e.pkgNames[s.Op.Var.Pkg().Name()] = true
		}
		for k := range s.Op.Inputs() {
			addPackageNames(s.Op.ArgType(k), e.pkgNames)
		}
		for _, t := range s.Op.Outputs() {
			addPackageNames(t, e.pkgNames)
		}
		for _, t := range s.Op.TypeArgs {
			addPackageNames(t, e.pkgNames)
		}
	}
	for n := range e.pkgNames {
		e.used[n] = true
	}
	last := len(e.t.Stmts)
	panicAt := -1
	if e.out != nil && e.out.Panicked && e.out.PanicStmt < last {
		panicAt = e.out.PanicStmt
		last = panicAt + 1
	}
	e.decideInlining(last)
	after, end := e.selectAssertions(last, panicAt)
	observed := map[int]bool{}
	for _, obs := range after {
		for _, o := range obs {
			observed[o.Ref.Stmt] = true
		}
	}
	for _, o := range end {
		observed[o.Ref.Stmt] = true
	}
	e.needed = map[testcase.Ref]bool{}
	e.declared = map[string]bool{}
	// From the last statement back, so that a value is known to be
	// needed before the statement that makes it: a value nothing needs
	// is not written (see emitStmt), and neither are the values only it
	// uses, which would be declared and not used.
	for i := last - 1; i >= 0; i-- {
		s := e.t.Stmts[i]
		if e.inline[i] || !(writtenAlways(s.Op.Kind) || i == panicAt || observed[i] || e.needed[testcase.Ref{Stmt: i}]) {
			continue
		}
		e.markArgs(s)
	}
	e.argRefs = map[testcase.Ref]bool{}
	for r := range e.needed {
		e.argRefs[r] = true
	}
	for _, obs := range after {
		for _, o := range obs {
			e.needed[o.Ref] = true
		}
	}
	for _, o := range end {
		e.needed[o.Ref] = true
	}
	released := e.released(last, panicAt)
	for _, refs := range released {
		for _, r := range refs {
			e.needed[r] = true
		}
	}
	helper := false
	for i := 0; i < last; i++ {
		if e.inline[i] {
			continue
		}
		if i == panicAt {
			helper = e.emitPanic(i)
			break
		}
		e.emitStmt(i, e.t.Stmts[i])
		for _, o := range after[i] {
			e.assert(o)
		}
		for _, r := range released[i] {
			e.deferRelease(r)
		}
	}
	for _, o := range end {
		e.assert(o)
	}
	return e.b.String(), helper
}

// released returns, per statement, the results the executor released at
// the end of the test (testcase.ObsReleased), among the calls written.
func (e *testEmitter) released(last, panicAt int) map[int][]testcase.Ref {
	if e.out == nil {
		return nil
	}
	out := map[int][]testcase.Ref{}
	for _, o := range e.out.Observations {
		i := o.Ref.Stmt
		if o.Kind != testcase.ObsReleased || i >= last || i == panicAt || e.inline[i] {
			continue
		}
		if op := e.t.Stmts[i].Op; (op.Kind == testcase.OpCall || op.Kind == testcase.OpComposite) && o.Ref.Result < len(op.Releases) && op.Releases[o.Ref.Result] != "" && !slices.Contains(out[i], o.Ref) {
			out[i] = append(out[i], o.Ref)
		}
	}
	// Deferred in the order of the results, they run last first, as the
	// executor released them.
	for _, refs := range out {
		slices.SortFunc(refs, func(a, b testcase.Ref) int { return a.Result - b.Result })
	}
	return out
}

// deferRelease writes the deferred call of the method that releases a
// result (see testcase.ReleaseMethod), with a background context if the
// method takes one.
func (e *testEmitter) deferRelease(r testcase.Ref) {
	m := testcase.ReleaseMethod(e.t.Stmts[r.Stmt].Op.Outputs()[r.Result])
	if m == nil {
		return
	}
	arg := ""
	if m.Type().(*types.Signature).Params().Len() == 1 {
		arg = e.im.use("context", "context") + ".Background()"
	}
	fmt.Fprintf(&e.b, "\tdefer %s.%s(%s)\n", e.name(r), m.Name(), arg)
}

// writtenAlways reports whether emitStmt writes a statement of the kind
// whether or not its value is needed: a call or a field set does
// something; the other kinds only make a value.
func writtenAlways(k testcase.OpKind) bool {
	return k == testcase.OpCall || k == testcase.OpFieldSet
}

// markArgs marks the values a statement uses, through inlined ones.
func (e *testEmitter) markArgs(s testcase.Stmt) {
	for _, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		if e.inline[a.Stmt] {
			e.markArgs(e.t.Stmts[a.Stmt])
			continue
		}
		e.needed[a] = true
	}
}

// decideInlining marks pure statements used exactly once to be written at
// their use.
func (e *testEmitter) decideInlining(last int) {
	e.inline = map[int]bool{}
	uses := make([]int, len(e.t.Stmts))
	for i := 0; i < last; i++ {
		for _, a := range e.t.Stmts[i].Args {
			if !a.IsOmitted() {
				uses[a.Stmt]++
			}
		}
	}
	for i := 0; i < last; i++ {
		s := e.t.Stmts[i]
		// Objects built with &T{...} stay variables: calls may change them,
		// and the test asserts on their state at the end. So do decode
		// targets (var v T; ... &v).
		if s.Op.Pure() && uses[i] == 1 && s.Op.Kind != testcase.OpZero && s.Op.Kind != testcase.OpTarget && !(s.Op.Kind == testcase.OpComposite && s.Op.Ptr) {
			e.inline[i] = true
		}
	}
}

// selectAssertions chooses the observations that become assertions: the
// results of calls right after them, and up to maxEnd fields of the values
// built by the test, at its end.
func (e *testEmitter) selectAssertions(last, panicAt int) (after map[int][]testcase.Observation, end []testcase.Observation) {
	after = map[int][]testcase.Observation{}
	if e.out == nil {
		return after, nil
	}
	var targets []testcase.Observation
	// A slice asserted by its contents needs no assertion of its length.
	byContents := map[testcase.Observation]bool{}
	for _, o := range e.out.Observations {
		if (o.Kind == testcase.ObsElems || o.Kind == testcase.ObsBytes) && e.renderable(o) {
			o.Kind, o.Text = testcase.ObsLen, ""
			byContents[o] = true
		}
	}
	untouched := untouchedStandardCalls(e.t)
	for _, o := range e.out.Observations {
		i := o.Ref.Stmt
		if i >= last || i == panicAt || e.inline[i] || o.Kind == testcase.ObsReleased {
			continue
		}
		s := e.t.Stmts[i]
		if o.Kind == testcase.ObsNotNil {
			continue // says little; nil, when observed, says more
		}
		if o.Kind == testcase.ObsLen {
			key := o
			key.Text = ""
			if byContents[key] {
				continue
			}
		}
		if !o.End {
			if s.Op.Kind == testcase.OpCall && !s.Op.IsStdProvider() && !untouched[i] && e.renderable(o) && !e.failedCall(i, o) {
				after[i] = append(after[i], o)
			}
			continue
		}
		if s.Op.Kind == testcase.OpTarget && (o.Path == "*" || strings.HasPrefix(o.Path, ".")) && e.renderable(o) {
			// What a decoder left in its target: the point of the test.
			targets = append(targets, o)
			continue
		}
		if (s.Op.Kind == testcase.OpCall || s.Op.Kind == testcase.OpComposite) && (strings.HasPrefix(o.Path, ".") || o.Path == "String()") && e.renderable(o) {
			end = append(end, o)
		}
	}
	end = append(targets, end...)
	// A value asserted right after its call as it still is at the end
	// (a String text) needs no second assertion.
	asserted := map[testcase.Observation]bool{}
	for _, obs := range after {
		for _, o := range obs {
			asserted[o] = true
		}
	}
	end = slices.DeleteFunc(end, func(o testcase.Observation) bool {
		o.End = false
		return asserted[o]
	})
	if len(end) > e.maxEnd {
		end = end[:e.maxEnd]
	}
	// Errors first: the rest of a result is meaningful only if the call
	// did (or did not) fail as observed.
	for i := range after {
		sort.SliceStable(after[i], func(a, b int) bool {
			ea := after[i][a].Kind == testcase.ObsNoError || after[i][a].Kind == testcase.ObsError
			eb := after[i][b].Kind == testcase.ObsNoError || after[i][b].Kind == testcase.ObsError
			return ea && !eb
		})
	}
	return after, end
}

// untouchedStandardCalls marks the statements that call the standard
// library to set up inputs from values R's API has not touched: neither
// passed to a call of R nor made from one, nor sharing a value with one
// that was (values are grouped by the statements that take and make
// them, so a byte slice whose backing array R wrote into counts as
// touched). What such a call returns is the standard library's doing
// (bytes.NewBufferString("#") holds "#"), so it is not asserted; what the
// value holds at the end of the test still is, when R changed it.
func untouchedStandardCalls(t *testcase.Test) []bool {
	group := make([]int, len(t.Stmts))
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	touched := make([]bool, len(t.Stmts))
	out := make([]bool, len(t.Stmts))
	for i, s := range t.Stmts {
		group[i] = i
		if s.Op.CallsStandard() && s.Op.SetsUp() {
			out[i] = true
			for _, a := range s.Args {
				if !a.IsOmitted() && touched[find(a.Stmt)] {
					out[i] = false
				}
			}
		}
		r := find(i)
		for _, a := range s.Args {
			if a.IsOmitted() {
				continue
			}
			if g := find(a.Stmt); g != r {
				group[g] = r
				touched[r] = touched[r] || touched[g]
			}
		}
		if !s.Op.SetsUp() {
			touched[r] = true
		}
	}
	return out
}

// failedCall reports whether o observes a non-error result of a call that
// returned a non-nil error (whose other results are usually zero values).
func (e *testEmitter) failedCall(i int, o testcase.Observation) bool {
	if o.Kind == testcase.ObsNoError || o.Kind == testcase.ObsError {
		return false
	}
	for _, other := range e.out.Observations {
		if !other.End && other.Ref.Stmt == i && other.Kind == testcase.ObsError {
			return true
		}
	}
	return false
}

// renderable reports whether an observation can be written as an
// assertion.
func (e *testEmitter) renderable(o testcase.Observation) bool {
	_, t := e.target(o)
	if t == nil {
		return false
	}
	switch o.Kind {
	case testcase.ObsBool, testcase.ObsInt, testcase.ObsUint, testcase.ObsFloat, testcase.ObsString:
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsComplex == 0 && !(o.Kind == testcase.ObsFloat && strings.Contains(o.Text, "NaN"))
	case testcase.ObsLen:
		// The value's static type must have a length (an interface holding
		// a slice does not).
		return testcase.HasLen(t)
	case testcase.ObsBytes:
		// string(x) of a slice of bytes.
		sl, ok := t.Underlying().(*types.Slice)
		return ok && types.Identical(sl.Elem(), types.Typ[types.Byte])
	case testcase.ObsElems:
		_, _, ok := e.sliceValues(o, t)
		return ok
	case testcase.ObsNil:
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Interface, *types.Slice, *types.Map, *types.Chan, *types.Signature:
			return true
		}
		return false
	}
	return true
}

// name returns (assigning on first use) the variable of a result.
func (e *testEmitter) name(r testcase.Ref) string {
	if n, ok := e.names[r]; ok {
		return n
	}
	t := e.t.Stmts[r.Stmt].Op.Outputs()[r.Result]
	if testcase.IsError(t) && !e.argRefs[r] {
		// An error only checked right away: one err variable serves all.
		e.names[r] = "err"
		return "err"
	}
	base := varBase(t)
	op := e.t.Stmts[r.Stmt].Op
	switch op.Kind {
	case testcase.OpCall:
		if _, unnamedFunc := t.(*types.Signature); unnamedFunc && op.Func != nil && op.Func.Name() != "" {
			// The function a constructor returns (chi's
			// middleware.Timeout(d), a func(http.Handler) http.Handler) is
			// named after the constructor: timeout(mux).
			base = lowerFirst(op.Func.Name())
			if e.pkgNames[base] || reservedNames[base] || token.IsKeyword(base) {
				base = "fn"
			}
		}
	case testcase.OpFunc:
		base = "f"
	case testcase.OpTempDir:
		base = "dir"
		if e.t.Stmts[r.Stmt].Op.File {
			base = "path"
		}
	}
	if e.pkgNames[base] || reservedNames[base] {
		// A name taken by a package (car for car.Car): use initials.
		if short := initials(t); short != "" && !e.pkgNames[short] {
			base = short
		}
	}
	n := base
	for i := 2; e.used[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	e.used[n] = true
	e.names[r] = n
	return n
}

// expr renders the value of a reference as an expression of the expected
// type.
func (e *testEmitter) expr(r testcase.Ref, expected types.Type) string {
	if e.inline[r.Stmt] {
		return e.pureExpr(e.t.Stmts[r.Stmt], expected)
	}
	if e.t.Stmts[r.Stmt].Op.Kind == testcase.OpTarget {
		return "&" + e.name(r)
	}
	return e.name(r)
}

// emitStmt writes a statement that is not inlined.
func (e *testEmitter) emitStmt(i int, s testcase.Stmt) {
	switch s.Op.Kind {
	case testcase.OpCall:
		call := e.callExpr(s)
		var lhs []string
		named := false
		for r := range s.Op.Results {
			ref := testcase.Ref{Stmt: i, Result: r}
			if e.needed[ref] {
				lhs = append(lhs, e.name(ref))
				named = true
			} else {
				lhs = append(lhs, "_")
			}
		}
		if !named {
			fmt.Fprintf(&e.b, "\t%s\n", call)
			return
		}
		fmt.Fprintf(&e.b, "\t%s %s %s\n", strings.Join(lhs, ", "), e.assignOp(lhs), call)
	case testcase.OpFieldSet:
		fmt.Fprintf(&e.b, "\t%s.%s = %s\n", e.recvExpr(s.Args[0], s.Op.Params[0]), s.Op.Fields[0].Name(), e.expr(s.Args[1], s.Op.Params[1]))
	case testcase.OpZero, testcase.OpNil:
		ref := testcase.Ref{Stmt: i}
		if e.needed[ref] {
			n := e.name(ref)
			e.declared[n] = true
			fmt.Fprintf(&e.b, "\tvar %s %s\n", n, e.typ(s.Op.Type))
		}
	case testcase.OpTarget:
		// var v T here, &v where it is used.
		ref := testcase.Ref{Stmt: i}
		if e.needed[ref] {
			n := e.name(ref)
			e.declared[n] = true
			fmt.Fprintf(&e.b, "\tvar %s %s\n", n, e.typ(s.Op.Type.(*types.Pointer).Elem()))
		}
	default:
		ref := testcase.Ref{Stmt: i}
		if e.needed[ref] {
			n := e.name(ref)
			e.declared[n] = true
			fmt.Fprintf(&e.b, "\t%s := %s\n", n, e.pureExpr(s, nil))
		}
	}
}

// assignOp returns := if the left-hand side declares a new variable, =
// otherwise, and records the declarations.
func (e *testEmitter) assignOp(lhs []string) string {
	fresh := false
	for _, n := range lhs {
		if n != "_" && !e.declared[n] {
			fresh = true
			e.declared[n] = true
		}
	}
	if fresh {
		return ":="
	}
	return "="
}

// callExpr renders a call.
func (e *testEmitter) callExpr(s testcase.Stmt) string {
	op := s.Op
	var b strings.Builder
	params := op.Params
	args := s.Args
	if op.Invoke {
		b.WriteString(e.recvExpr(args[0], params[0]))
		params, args = params[1:], args[1:]
	} else if op.Method {
		b.WriteString(e.recvExpr(args[0], params[0]) + "." + op.Func.Name())
		params, args = params[1:], args[1:]
	} else {
		b.WriteString(e.im.use(op.Func.Pkg().Path(), op.Func.Pkg().Name()) + "." + op.Func.Name())
	}
	if len(op.TypeArgs) > 0 {
		var ts []string
		for _, t := range op.TypeArgs {
			ts = append(ts, e.typ(t))
		}
		b.WriteString("[" + strings.Join(ts, ", ") + "]")
	}
	b.WriteString("(")
	var parts []string
	for j, a := range args {
		if op.Variadic && j == len(args)-1 {
			if a.IsOmitted() {
				continue
			}
			if e.inline[a.Stmt] && e.t.Stmts[a.Stmt].Op.Kind == testcase.OpSlice {
				// An inlined slice: pass its elements.
				_, elem := e.t.Stmts[a.Stmt].Op.ElemTypes()
				for _, x := range e.t.Stmts[a.Stmt].Args {
					parts = append(parts, e.expr(x, elem))
				}
				continue
			}
			parts = append(parts, e.expr(a, params[j])+"...")
			continue
		}
		parts = append(parts, e.expr(a, params[j]))
	}
	b.WriteString(strings.Join(parts, ", "))
	b.WriteString(")")
	return b.String()
}

// recvExpr renders the operand of a selector: a method's receiver or the
// object of a field set. Inlined composite literals need parentheses, an
// inlined nil its type: (*T)(nil).M(); a decode target is its variable
// (v.M() and v.F, not &v.M(): Go takes the variable's address).
func (e *testEmitter) recvExpr(r testcase.Ref, t types.Type) string {
	if !e.inline[r.Stmt] {
		return e.name(r)
	}
	if s := e.t.Stmts[r.Stmt]; s.Op.Kind == testcase.OpNil {
		return e.pureExpr(s, nil)
	}
	return "(" + e.expr(r, t) + ")"
}

// pureExpr renders a pure statement as an expression.
func (e *testEmitter) pureExpr(s testcase.Stmt, expected types.Type) string {
	op := s.Op
	switch op.Kind {
	case testcase.OpPrim:
		return e.literal(op.Type, s.Value, expected)
	case testcase.OpNil:
		// nil where the expected type is nil-able; a typed nil where it
		// would otherwise become a nil interface.
		if expected != nil && (types.IsInterface(op.Type) || !types.IsInterface(expected)) {
			return "nil"
		}
		return "(" + e.typ(op.Type) + ")(nil)"
	case testcase.OpComposite:
		st := op.Type
		prefix := ""
		if op.Ptr {
			st = st.(*types.Pointer).Elem()
			prefix = "&"
		}
		var fields []string
		for j, a := range s.Args {
			if a.IsOmitted() {
				continue
			}
			f := op.Fields[j]
			fields = append(fields, f.Name()+": "+e.expr(a, f.Type()))
		}
		return prefix + e.typ(st) + "{" + strings.Join(fields, ", ") + "}"
	case testcase.OpSlice:
		_, elem := op.ElemTypes()
		var xs []string
		for _, a := range s.Args {
			xs = append(xs, e.expr(a, elem))
		}
		return e.typ(op.Type) + "{" + strings.Join(xs, ", ") + "}"
	case testcase.OpMap:
		key, elem := op.ElemTypes()
		var xs []string
		for j := 0; j+1 < len(s.Args); j += 2 {
			xs = append(xs, e.expr(s.Args[j], key)+": "+e.expr(s.Args[j+1], elem))
		}
		return e.typ(op.Type) + "{" + strings.Join(xs, ", ") + "}"
	case testcase.OpZero:
		return e.typ(op.Type) + "{}"
	case testcase.OpTarget:
		return "new(" + e.typ(op.Type.(*types.Pointer).Elem()) + ")"
	case testcase.OpGlobal:
		return e.im.use(op.Var.Pkg().Path(), op.Var.Pkg().Name()) + "." + op.Var.Name()
	case testcase.OpTempDir:
		if op.File {
			return e.im.use("path/filepath", "filepath") + `.Join(t.TempDir(), "file")`
		}
		return "t.TempDir()"
	case testcase.OpFunc:
		lit, _ := s.Value.(testcase.FuncLit)
		w := testcase.FuncWriter{
			Type:   e.typ,
			Const:  func(t types.Type, v any) string { return e.literal(t, v, t) },
			Errors: func() string { return e.im.use("errors", "errors") },
		}
		src := w.Literal(op, lit)
		if _, named := types.Unalias(op.Type).(*types.Named); named && testcase.WrittenType(op.Type) == op.Type && (expected == nil || !types.Identical(expected, op.Type)) {
			src = e.typ(op.Type) + "(" + src + ")"
		}
		return src
	case testcase.OpChan:
		ch := op.Type.Underlying().(*types.Chan)
		if ch.Dir() == types.SendOnly {
			return fmt.Sprintf("make(chan %s, %d)", e.typ(ch.Elem()), sendBuffer)
		}
		var b strings.Builder
		capacity := len(s.Args)
		if op.Open {
			capacity = max(capacity, 1)
		}
		fmt.Fprintf(&b, "func() %s { ch := make(chan %s, %d); ", e.typ(op.Type), e.typ(ch.Elem()), capacity)
		for _, a := range s.Args {
			fmt.Fprintf(&b, "ch <- %s; ", e.expr(a, ch.Elem()))
		}
		if !op.Open {
			b.WriteString("close(ch); ")
		}
		b.WriteString("return ch }()")
		return b.String()
	}
	return "nil"
}

// sendBuffer is the capacity of the channels tests give to code that sends
// on them.
const sendBuffer = 16

// literal renders a basic value. It is written bare where the expected
// type receives it unchanged, and converted otherwise.
func (e *testEmitter) literal(t types.Type, v any, expected types.Type) string {
	lit := basicLiteral(v)
	if needsMath(v) {
		e.im.use("math", "math")
	}
	if _, basic := t.Underlying().(*types.Basic); basic && expected != nil && types.Identical(expected, t) {
		return lit
	}
	if isDefaultType(t, v) && (expected == nil || types.IsInterface(expected)) {
		return lit
	}
	return e.typ(t) + "(" + lit + ")"
}

// isDefaultType reports whether an untyped literal of v gets type t by
// default (int, float64, string, bool).
func isDefaultType(t types.Type, v any) bool {
	b, ok := t.(*types.Basic)
	if !ok {
		return false
	}
	switch v.(type) {
	case int64:
		return b.Kind() == types.Int
	case float64:
		return b.Kind() == types.Float64 && strings.ContainsAny(basicLiteral(v), ".eE")
	case string:
		return b.Kind() == types.String
	case bool:
		return b.Kind() == types.Bool
	}
	return false
}

func needsMath(v any) bool {
	if _, ok := extremeInt(v); ok {
		return true
	}
	f, ok := v.(float64)
	return ok && (math.IsInf(f, 0) || math.IsNaN(f))
}

// extremeInt names the integer limits by their constants in package math:
// math.MaxInt64 reads better than 9223372036854775807.
func extremeInt(v any) (string, bool) {
	switch x := v.(type) {
	case int64:
		switch x {
		case math.MaxInt64:
			return "math.MaxInt64", true
		case math.MinInt64:
			return "math.MinInt64", true
		case math.MaxInt32:
			return "math.MaxInt32", true
		case math.MinInt32:
			return "math.MinInt32", true
		}
	case uint64:
		switch x {
		case math.MaxUint64:
			return "math.MaxUint64", true
		case math.MaxUint32:
			return "math.MaxUint32", true
		}
	}
	return "", false
}

func basicLiteral(v any) string {
	if name, ok := extremeInt(v); ok {
		return name
	}
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "math.NaN()"
		case math.IsInf(x, 1):
			return "math.Inf(1)"
		case math.IsInf(x, -1):
			return "math.Inf(-1)"
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		return stringLiteral(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// stringLiteral writes s as a Go string literal: raw when that spares
// escapes (`b"\xff"` rather than "b\"\\xff\""), quoted otherwise (line
// ends, backquotes, control characters).
func stringLiteral(s string) string {
	if strings.ContainsAny(s, `"\`) && strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// bytesLiteral renders the content of a byte slice as a string literal:
// as text when it is valid UTF-8, else with every byte outside printable
// ASCII escaped (\xc9\x99, not the ə a decoder would make of it), since
// it is binary data.
func bytesLiteral(s string) string {
	if utf8.ValidString(s) {
		return stringLiteral(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// assert writes one assertion, and marks where it starts.
func (e *testEmitter) assert(o testcase.Observation) {
	start := e.b.Len()
	defer func() {
		if e.b.Len() > start {
			e.marks = append(e.marks, mark{offset: start, obs: o})
		}
	}()
	target, ttype := e.target(o)
	if ttype == nil {
		return
	}
	std := e.dialect == Std
	switch o.Kind {
	case testcase.ObsNoError:
		if std {
			fmt.Fprintf(&e.b, "\tif %s != nil {\n\t\tt.Fatalf(\"unexpected error: %%v\", %s)\n\t}\n", target, target)
		} else {
			fmt.Fprintf(&e.b, "\trequire.NoError(t, %s)\n", target)
		}
	case testcase.ObsError:
		if std {
			fmt.Fprintf(&e.b, "\tif %s == nil || %s.Error() != %s {\n\t\tt.Errorf(\"%s = %%v, want error %%q\", %s, %s)\n\t}\n",
				target, target, stringLiteral(o.Text), escapeFormat(target), target, stringLiteral(o.Text))
		} else {
			fmt.Fprintf(&e.b, "\tassert.EqualError(t, %s, %s)\n", target, stringLiteral(o.Text))
		}
	case testcase.ObsNil:
		_, isFunc := ttype.Underlying().(*types.Signature)
		switch {
		case std && isFunc:
			// vet rejects a func value as a %v operand.
			fmt.Fprintf(&e.b, "\tif %s != nil {\n\t\tt.Errorf(\"%s is not nil\")\n\t}\n", target, escapeFormat(target))
		case std:
			fmt.Fprintf(&e.b, "\tif %s != nil {\n\t\tt.Errorf(\"%s = %%v, want nil\", %s)\n\t}\n", target, escapeFormat(target), target)
		default:
			fmt.Fprintf(&e.b, "\tassert.Nil(t, %s)\n", target)
		}
	case testcase.ObsNotNil:
		if std {
			fmt.Fprintf(&e.b, "\tif %s == nil {\n\t\tt.Errorf(\"%s is nil\")\n\t}\n", target, escapeFormat(target))
		} else {
			fmt.Fprintf(&e.b, "\tassert.NotNil(t, %s)\n", target)
		}
	case testcase.ObsLen:
		if std {
			fmt.Fprintf(&e.b, "\tif got := len(%s); got != %s {\n\t\tt.Errorf(\"len(%s) = %%d, want %s\", got)\n\t}\n", target, o.Text, escapeFormat(target), o.Text)
		} else {
			fmt.Fprintf(&e.b, "\tassert.Len(t, %s, %s)\n", target, o.Text)
		}
	case testcase.ObsBytes:
		want := bytesLiteral(o.Text)
		if std {
			fmt.Fprintf(&e.b, "\tif string(%s) != %s {\n\t\tt.Errorf(\"%s = %%q, want %%q\", %s, %s)\n\t}\n", target, want, escapeFormat(target), target, want)
		} else {
			fmt.Fprintf(&e.b, "\tassert.Equal(t, %s, string(%s))\n", want, target)
		}
	case testcase.ObsElems:
		want := e.sliceLiteral(o, ttype)
		if want == "" {
			return
		}
		if std {
			reflect := e.im.use("reflect", "reflect")
			fmt.Fprintf(&e.b, "\tif got, want := %s, %s; !%s.DeepEqual(got, want) {\n\t\tt.Errorf(\"%s = %%v, want %%v\", got, want)\n\t}\n", target, want, reflect, escapeFormat(target))
		} else {
			fmt.Fprintf(&e.b, "\tassert.Equal(t, %s, %s)\n", want, target)
		}
	default:
		want := e.observedLiteral(o, ttype)
		if want == "" {
			return
		}
		if std && o.Kind == testcase.ObsBool {
			neg := "!"
			if o.Text != "true" {
				neg = ""
			}
			fmt.Fprintf(&e.b, "\tif %s%s {\n\t\tt.Errorf(\"%s = %%v, want %s\", %s)\n\t}\n", neg, target, escapeFormat(target), o.Text, target)
		} else if std {
			fmt.Fprintf(&e.b, "\tif %s != %s {\n\t\tt.Errorf(\"%s = %%v, want %%v\", %s, %s)\n\t}\n", target, want, escapeFormat(target), target, want)
		} else if o.Kind == testcase.ObsBool {
			fn := "False"
			if o.Text == "true" {
				fn = "True"
			}
			fmt.Fprintf(&e.b, "\tassert.%s(t, %s)\n", fn, target)
		} else {
			fmt.Fprintf(&e.b, "\tassert.Equal(t, %s, %s)\n", want, target)
		}
	}
}

func escapeFormat(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// sliceLiteral renders the elements an ObsElems observation saw as a
// composite literal of slice type t (a slice of a basic type the test can
// name), "" if it cannot.
func (e *testEmitter) sliceLiteral(o testcase.Observation, t types.Type) string {
	elem, values, ok := e.sliceValues(o, t)
	if !ok {
		return ""
	}
	lits := make([]string, len(values))
	for i, v := range values {
		lits[i] = e.literal(elem, v, elem)
	}
	return e.typ(t) + "{" + strings.Join(lits, ", ") + "}"
}

// sliceValues parses the elements an ObsElems observation saw as values
// of the element type of slice type t, and reports whether a literal of
// t can hold them (t a slice of a basic type the test can name). Unlike
// sliceLiteral, it adds no import.
func (e *testEmitter) sliceValues(o testcase.Observation, t types.Type) (types.Type, []any, bool) {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok || !testcase.Nameable(t, e.c.Caller.Types) {
		return nil, nil, false
	}
	elem := sl.Elem()
	b, ok := elem.Underlying().(*types.Basic)
	if !ok {
		return nil, nil, false
	}
	var kind testcase.ObsKind
	switch info := b.Info(); {
	case info&types.IsBoolean != 0:
		kind = testcase.ObsBool
	case info&types.IsUnsigned != 0:
		kind = testcase.ObsUint
	case info&types.IsInteger != 0:
		kind = testcase.ObsInt
	case info&types.IsFloat != 0:
		kind = testcase.ObsFloat
	case info&types.IsString != 0:
		kind = testcase.ObsString
	default:
		return nil, nil, false
	}
	texts, ok := testcase.Elems(o.Text)
	if !ok {
		return nil, nil, false
	}
	values := make([]any, len(texts))
	for i, text := range texts {
		v, ok := observedValue(kind, text)
		if !ok {
			return nil, nil, false
		}
		values[i] = v
	}
	return elem, values, true
}

// observedLiteral renders an observed basic value as a literal of type t.
func (e *testEmitter) observedLiteral(o testcase.Observation, t types.Type) string {
	v, ok := observedValue(o.Kind, o.Text)
	if !ok {
		return ""
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsComplex != 0 {
		return ""
	}
	return e.literal(t, v, nil)
}

// observedValue parses the text of an observed basic value of kind k.
func observedValue(k testcase.ObsKind, text string) (any, bool) {
	switch k {
	case testcase.ObsBool:
		return text == "true", true
	case testcase.ObsInt:
		x, err := strconv.ParseInt(text, 10, 64)
		return x, err == nil
	case testcase.ObsUint:
		x, err := strconv.ParseUint(text, 10, 64)
		return x, err == nil
	case testcase.ObsFloat:
		x, err := strconv.ParseFloat(text, 64)
		return x, err == nil && !math.IsNaN(x)
	case testcase.ObsString:
		return text, true
	}
	return nil, false
}

// target renders the observed part of a value and its type; the type is
// nil if the path does not fit the static type.
func (e *testEmitter) target(o testcase.Observation) (string, types.Type) {
	expr := "{}"
	if e.names != nil {
		if n, ok := e.names[o.Ref]; ok {
			expr = n
		} else if e.needed[o.Ref] {
			expr = e.name(o.Ref)
		}
	}
	op := e.t.Stmts[o.Ref.Stmt].Op
	t := op.Outputs()[o.Ref.Result]
	fset := e.c.Analysis().Prog.Fset
	if op.Concrete != nil && o.Path != "" {
		// The variable of a standard-library provider has the type its
		// function returns, whose fields and methods the value shows.
		t, fset = op.Concrete, testcase.StdFileSet()
	}
	path := o.Path
	if strings.HasPrefix(path, ".") {
		name := path[1:]
		rest := ""
		if i := strings.IndexByte(name, '.'); i >= 0 {
			name, rest = name[:i], name[i:]
		}
		f := field(t, name)
		if f == nil || testcase.Deprecated(fset, f) {
			// A deprecated field is not for tests to read (linters
			// flag it).
			return "", nil
		}
		t = f.Type()
		expr += "." + name
		path = strings.TrimPrefix(rest, ".")
	}
	switch path {
	case "":
	case "*":
		// What a decode target points to: its variable.
		p, ok := t.(*types.Pointer)
		if !ok {
			return "", nil
		}
		t = p.Elem()
	case "String()":
		// The executor saw the dynamic value's String method; the
		// variable's static type (an interface the value was returned
		// as) may lack it.
		if !hasStringMethod(t) {
			return "", nil
		}
		expr += ".String()"
		t = types.Typ[types.String]
	default:
		return "", nil
	}
	return expr, t
}

// hasStringMethod reports whether x.String() is a string for a variable
// x of type t.
func hasStringMethod(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "String")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// field returns an exported field of a struct (through a pointer), nil
// if there is none of that name.
func field(t types.Type, name string) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// emitPanic writes the statement that panics, wrapped in an assertion,
// and marks where it starts.
func (e *testEmitter) emitPanic(i int) bool {
	m := mark{offset: e.b.Len(), panic: true}
	defer func() { e.marks = append(e.marks, m) }()
	s := e.t.Stmts[i]
	var stmt string
	switch s.Op.Kind {
	case testcase.OpCall:
		stmt = e.callExpr(s)
	case testcase.OpFieldSet:
		stmt = fmt.Sprintf("%s.%s = %s", e.recvExpr(s.Args[0], s.Op.Params[0]), s.Op.Fields[0].Name(), e.expr(s.Args[1], s.Op.Params[1]))
	default:
		stmt = "_ = " + e.pureExpr(s, nil)
	}
	if s.Op.Kind == testcase.OpCall && len(s.Op.Results) > 0 {
		blanks := strings.TrimSuffix(strings.Repeat("_, ", len(s.Op.Results)), ", ")
		stmt = blanks + " = " + stmt
	}
	if e.fault != nil {
		e.fault.write(&e.b, stmt)
		return false
	}
	if e.dialect == Std {
		fmt.Fprintf(&e.b, "\t%s(t, func() { %s })\n", e.panicHelper, stmt)
		return true
	}
	switch {
	case e.out.PanicIsError && e.out.PanicText != "":
		m.panicValue = true
		fmt.Fprintf(&e.b, "\tassert.PanicsWithError(t, %s, func() { %s })\n", stringLiteral(e.out.PanicText), stmt)
	case e.out.PanicIsText:
		m.panicValue = true
		fmt.Fprintf(&e.b, "\tassert.PanicsWithValue(t, %s, func() { %s })\n", stringLiteral(e.out.PanicText), stmt)
	default:
		fmt.Fprintf(&e.b, "\tassert.Panics(t, func() { %s })\n", stmt)
	}
	return false
}

// varBase is the name stem of a variable of type t: the lower-cased type
// name (cart for *checkout.Cart), err for errors, a short name for basic
// types.
func varBase(t types.Type) string {
	if testcase.IsError(t) {
		return "err"
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if testcase.IsDeclared(t) {
		return "v"
	}
	switch u := t.(type) {
	case *types.Named:
		return lowerFirst(u.Obj().Name())
	case *types.Alias:
		return lowerFirst(u.Obj().Name())
	case *types.Slice:
		if types.Identical(u.Elem(), types.Typ[types.Byte]) {
			return "data"
		}
		return varBase(u.Elem()) + "s"
	case *types.Map:
		return "m"
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return "s"
		case u.Info()&types.IsBoolean != 0:
			return "ok"
		case u.Info()&types.IsFloat != 0:
			return "x"
		case u.Info()&types.IsInteger != 0:
			return "n"
		}
	}
	return "v"
}

// addPackageNames adds the names of the packages a type mentions.
func addPackageNames(t types.Type, names map[string]bool) {
	switch u := t.(type) {
	case *types.Named:
		if p := u.Obj().Pkg(); p != nil {
			names[p.Name()] = true
		}
		for i := 0; i < u.TypeArgs().Len(); i++ {
			addPackageNames(u.TypeArgs().At(i), names)
		}
	case *types.Pointer:
		addPackageNames(u.Elem(), names)
	case *types.Slice:
		addPackageNames(u.Elem(), names)
	case *types.Array:
		addPackageNames(u.Elem(), names)
	case *types.Map:
		addPackageNames(u.Key(), names)
		addPackageNames(u.Elem(), names)
	case *types.Chan:
		addPackageNames(u.Elem(), names)
	}
}

// initials abbreviates a named type: c for Car, sp for ShippingPolicy.
func initials(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	var b strings.Builder
	for i, r := range n.Obj().Name() {
		if i == 0 || unicode.IsUpper(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	out := b.String()
	if token.IsKeyword(out) || reservedNames[out] {
		return ""
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return "v"
	}
	// Leading acronyms: URLParser -> urlParser, ID -> id.
	rs := []rune(s)
	i := 0
	for i < len(rs) && unicode.IsUpper(rs[i]) {
		i++
	}
	switch {
	case i == 0:
	case i == 1 || i == len(rs):
		for j := 0; j < i; j++ {
			rs[j] = unicode.ToLower(rs[j])
		}
	default:
		for j := 0; j < i-1; j++ {
			rs[j] = unicode.ToLower(rs[j])
		}
	}
	out := string(rs)
	if token.IsKeyword(out) {
		out += "v"
	}
	return out
}

// reservedNames are identifiers emitted variables must not shadow.
var reservedNames = map[string]bool{
	"t": true, "len": true, "cap": true, "new": true, "make": true, "append": true, "copy": true,
	"delete": true, "panic": true, "recover": true, "print": true, "println": true, "close": true,
	"nil": true, "true": true, "false": true, "iota": true, "string": true, "int": true, "error": true,
	"bool": true, "byte": true, "rune": true, "float64": true, "any": true, "min": true, "max": true,
	"clear": true, "assert": true, "require": true, "testing": true, "mustPanic": true,
}
