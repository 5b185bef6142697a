package probe

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/token"
	"go/types"
	"go/version"
	"sort"
	"strconv"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/srcedit"
	"github.com/cling-go/cling/internal/typeinfo"
)

// RT is the name instrumented files import the probe runtime under.
const RT = "cling__rt"

// Instrumented is the instrumented source of R and E.
type Instrumented struct {
	// Files maps the absolute path of each changed file to its new content.
	Files map[string][]byte
	// Unobservable describes the nodes and call sites the probes cannot
	// observe (constructs the instrumenter does not rewrite); their
	// coupled branches can never be covered.
	Unobservable []string
}

// Instrument rewrites every non-test file of R and E. rtImport is the
// import path under which the runtime package is reachable in the
// overlay.
func (p *Plan) Instrument(rtImport string) (*Instrumented, error) {
	out := &Instrumented{Files: map[string][]byte{}}
	for _, c := range p.A.Packages() {
		if err := p.instrumentPackage(c, rtImport, out); err != nil {
			return nil, err
		}
	}
	if p.Mode == Search {
		if err := p.dependencyExits(context.Background(), rtImport, out); err != nil {
			return nil, err
		}
	}
	sort.Strings(out.Unobservable)
	return out, nil
}

func (p *Plan) instrumentPackage(c *ccfg.CCFG, rtImport string, out *Instrumented) error {
	pkg := c.Pkg
	sources, err := p.A.Prog.SourceFiles(pkg)
	if err != nil {
		return err
	}
	byFile := map[*token.File]*fileInstr{}
	var order []*fileInstr
	for _, f := range sources {
		fi := &fileInstr{p: p, c: c, pkg: pkg, file: f.AST, path: f.Path, tf: f.TF, ed: &editor{src: f.Src}, tree: srcedit.NewTree(f.AST)}
		byFile[f.TF] = fi
		order = append(order, fi)
	}
	fileOf := func(pos token.Pos) *fileInstr { return byFile[p.A.Prog.Fset.File(pos)] }

	for _, n := range c.Nodes {
		if fi := fileOf(n.Pos); fi != nil {
			if !fi.node(n) {
				out.Unobservable = append(out.Unobservable, fmt.Sprintf("%s: %s node %s", pkg.Path, n.Kind, n.ID()))
			}
		}
	}
	for _, f := range c.External {
		if c != p.A.Caller && p.Mode == Coverage {
			break // entries into E matter to the search's approach levels only
		}
		decl, ok := f.SSA.Syntax().(*ast.FuncDecl)
		if !ok || decl.Body == nil {
			continue
		}
		if fi := fileOf(decl.Pos()); fi != nil {
			id, _ := p.EntryIndex(f)
			fi.insertAtBodyStart(decl.Body, fmt.Sprintf(" %s.Entry(%d);", RT, id))
		}
	}
	if p.cost != nil {
		for _, f := range c.Funcs {
			body := funcBody(f)
			if fi := fileOf(f.Pos()); fi != nil && body != nil {
				if probe := p.cost.callProbe(f); probe != "" {
					fi.insertAtBodyStart(body, probe)
				}
			}
		}
	}
	if c == p.A.Caller {
		for _, s := range p.A.Sites {
			if fi := fileOf(s.Call.Pos()); fi != nil {
				if why := fi.site(s); why != "" {
					out.Unobservable = append(out.Unobservable, fmt.Sprintf("%s: call site %s (%s)", pkg.Path, p.A.Prog.Pos(s.Pos), why))
				}
			}
		}
	}
	if p.Mode == Search {
		for _, fi := range order {
			fi.exits()
			fi.goroutines()
		}
	}
	if p.Extras.Any() {
		p.instrumentExtras(c, fileOf)
	}
	for _, fi := range order {
		if err := fi.output(rtImport, out); err != nil {
			return err
		}
	}
	return nil
}

// output adds the file to out, finished, if it was changed.
func (fi *fileInstr) output(rtImport string, out *Instrumented) error {
	if !fi.usesRT {
		return nil
	}
	src, err := fi.finish(rtImport)
	if err != nil {
		return fmt.Errorf("instrumenting %s: %w", fi.path, err)
	}
	out.Files[fi.path] = src
	return nil
}

// fileInstr collects the edits of one file.
type fileInstr struct {
	p      *Plan
	c      *ccfg.CCFG
	pkg    *ccfg.Package
	file   *ast.File
	path   string
	tf     *token.File
	ed     *editor
	tree   *srcedit.Tree
	usesRT bool
	temps  int
	// switches whose tag has been bound to a temporary, with its name.
	tags map[*ast.SwitchStmt]string
	// type switches and select statements already instrumented.
	typeSwitches map[*ast.TypeSwitchStmt]bool
	selects      map[*ast.SelectStmt]bool
	// function bodies that restore the call-site depth on exit.
	restored map[*ast.BlockStmt]bool
	// goSites are the calls of go statements wrapped as call sites, whose
	// wrapper also hands their panics to the executor.
	goSites map[*ast.CallExpr]bool
}

func (fi *fileInstr) off(pos token.Pos) int { return fi.tf.Offset(pos) }

func (fi *fileInstr) wrap(n ast.Node, open, close string, layer int) {
	fi.usesRT = true
	fi.ed.wrap(fi.off(n.Pos()), fi.off(n.End()), open, close, fi.tree.Depth(n), layer)
}

func (fi *fileInstr) insert(pos token.Pos, text string) {
	fi.usesRT = true
	fi.ed.insert(fi.off(pos), text)
}

func (fi *fileInstr) insertAtBodyStart(body *ast.BlockStmt, text string) {
	fi.insert(body.Lbrace+1, text)
}

func (fi *fileInstr) typeOf(e ast.Expr) types.Type {
	if tv, ok := fi.pkg.Info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

func (fi *fileInstr) text(n ast.Node) string {
	return string(fi.ed.src[fi.off(n.Pos()):fi.off(n.End())])
}

// node instruments one branching node; it returns false if it cannot.
func (fi *fileInstr) node(n *ccfg.BranchNode) bool {
	id := fi.p.NodeIndex(n)
	switch n.Kind {
	case ccfg.KindCond:
		return fi.cond(n.Anchor.(ast.Expr), id)
	case ccfg.KindCase:
		return fi.switchCase(n.Stmt.(*ast.SwitchStmt), n.Anchor.(ast.Expr), id)
	case ccfg.KindTypeCase:
		return fi.typeSwitch(n.Stmt.(*ast.TypeSwitchStmt))
	case ccfg.KindSelect:
		return fi.selectStmt(n.Stmt.(*ast.SelectStmt))
	case ccfg.KindRange:
		return fi.rangeStmt(n.Anchor.(*ast.RangeStmt), id)
	}
	return false
}

var opCodes = map[token.Token]int{token.EQL: 0, token.NEQ: 1, token.LSS: 2, token.LEQ: 3, token.GTR: 4, token.GEQ: 5}

const negBit = 8

// cond instruments a boolean condition. Comparisons of numbers and
// strings report branch distances; anything else reports 0/1.
func (fi *fileInstr) cond(anchor ast.Expr, id int32) bool {
	core, neg := anchor, false
	for {
		switch e := core.(type) {
		case *ast.ParenExpr:
			core = e.X
			continue
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				core, neg = e.X, !neg
				continue
			}
		}
		break
	}
	if be, ok := core.(*ast.BinaryExpr); ok && fi.p.Mode == Search {
		if op, isCmp := opCodes[be.Op]; isCmp {
			if fn, conv := fi.numericKind(be); fn != "" {
				if neg {
					op |= negBit
				}
				fi.wrap(be.X, fmt.Sprintf("%s.%s(%d, %d, %s(", RT, fn, id, op, conv), ")", 1)
				fi.ed.replace(fi.off(be.OpPos), fi.off(be.OpPos)+len(be.Op.String()), ",")
				fi.wrap(be.Y, conv+"(", "))", 1)
				return true
			}
		}
	}
	fi.wrap(core, fmt.Sprintf("%s.B(%d, %t, ", RT, id, neg), ")", 0)
	return true
}

// numericKind chooses the runtime comparison for a comparison's operand
// type: I, U, F or S with the conversion applied to each operand, or ""
// for comparisons without a numeric distance.
func (fi *fileInstr) numericKind(be *ast.BinaryExpr) (fn, conv string) {
	for _, operand := range []ast.Expr{be.X, be.Y} {
		if t := fi.typeOf(operand); t != nil && types.IsInterface(t) {
			// i == "" with i an interface: the constant is converted to
			// the interface, and the operand is no number or string.
			return "", ""
		}
	}
	t := fi.typeOf(be.X)
	if b, ok := t.(*types.Basic); !ok || b.Info()&types.IsUntyped != 0 {
		t = fi.typeOf(be.Y)
	}
	if t == nil {
		return "", ""
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return "", ""
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUntyped != 0 {
		return "", ""
	}
	info := b.Info()
	switch {
	case info&types.IsInteger != 0 && info&types.IsUnsigned != 0:
		return "U", "uint64"
	case info&types.IsInteger != 0:
		return "I", "int64"
	case info&types.IsFloat != 0:
		return "F", "float64"
	case info&types.IsString != 0:
		return "S", "string"
	}
	return "", ""
}

// switchCase instruments one value of a tagged switch's case list: the
// value becomes a probe call comparing it with the tag, returning it.
func (fi *fileInstr) switchCase(sw *ast.SwitchStmt, v ast.Expr, id int32) bool {
	tag, ok := fi.switchTag(sw)
	if !ok {
		return false
	}
	fn := "SwV"
	t := fi.typeOf(sw.Tag)
	switch {
	case t == nil:
		return false
	case fi.p.Mode == Coverage && !types.IsInterface(t):
	case types.IsInterface(t):
		if _, isParam := t.(*types.TypeParam); !isParam {
			fn = "SwE"
		}
	default:
		if b, ok := t.Underlying().(*types.Basic); ok {
			if _, isParam := t.(*types.TypeParam); !isParam {
				info := b.Info()
				switch {
				case info&types.IsUntyped != 0:
				case info&types.IsInteger != 0 && info&types.IsUnsigned != 0:
					fn = "SwU"
				case info&types.IsInteger != 0:
					fn = "SwI"
				case info&types.IsFloat != 0:
					fn = "SwF"
				case info&types.IsString != 0:
					fn = "SwS"
				}
			}
		}
	}
	fi.wrap(v, fmt.Sprintf("%s.%s(%d, %s, ", RT, fn, id, tag), ")", 0)
	return true
}

// switchTag returns an expression that evaluates to the switch's tag
// without side effects: a temporary bound in the switch's init statement,
// or the tag itself if it is a plain name.
func (fi *fileInstr) switchTag(sw *ast.SwitchStmt) (string, bool) {
	if fi.tags == nil {
		fi.tags = map[*ast.SwitchStmt]string{}
	}
	if t, ok := fi.tags[sw]; ok {
		return t, t != ""
	}
	name := ""
	switch {
	case sw.Init == nil:
		fi.temps++
		name = fmt.Sprintf("cling__tag%d", fi.temps)
		fi.insert(sw.Tag.Pos(), name+" := ")
		fi.insert(sw.Tag.End(), "; "+name)
	case isPure(sw.Tag):
		name = fi.text(sw.Tag)
	}
	fi.tags[sw] = name
	return name, name != ""
}

// isPure reports whether evaluating e again has no effect and yields the
// same value: names and field selections of names.
func isPure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return isPure(x.X)
	case *ast.SelectorExpr:
		return isPure(x.X)
	}
	return false
}

// typeSwitch instruments all case clauses of a type switch at once: each
// clause reports which type of the statement's flattened list matched.
func (fi *fileInstr) typeSwitch(ts *ast.TypeSwitchStmt) bool {
	if fi.typeSwitches == nil {
		fi.typeSwitches = map[*ast.TypeSwitchStmt]bool{}
	}
	if fi.typeSwitches[ts] {
		return true
	}
	fi.typeSwitches[ts] = true
	list := fi.p.listOf[ts]
	// The guard variable, needed to tell apart the types of a clause with
	// several of them.
	guard := ""
	multi := false
	for _, cl := range ts.Body.List {
		if len(cl.(*ast.CaseClause).List) > 1 {
			multi = true
		}
	}
	if multi {
		switch a := ts.Assign.(type) {
		case *ast.AssignStmt:
			guard = a.Lhs[0].(*ast.Ident).Name
		case *ast.ExprStmt:
			fi.temps++
			guard = fmt.Sprintf("cling__guard%d", fi.temps)
			fi.insert(a.Pos(), guard+" := ")
		}
	}
	total := 0
	for _, cl := range ts.Body.List {
		total += len(cl.(*ast.CaseClause).List)
	}
	base := 0
	hasDefault := false
	for _, cl := range ts.Body.List {
		cc := cl.(*ast.CaseClause)
		var k string
		switch len(cc.List) {
		case 0:
			hasDefault = true
			k = fmt.Sprint(total)
		case 1:
			k = fmt.Sprint(base)
		default:
			var sb strings.Builder
			fmt.Fprintf(&sb, "%d+func() int32 { switch %s.(type) {", base, guard)
			for j, t := range cc.List {
				fmt.Fprintf(&sb, " case %s: return %d;", oneLine(fi.text(t)), j)
			}
			sb.WriteString(" }; return 0 }()")
			k = sb.String()
		}
		fi.insert(cc.Colon+1, fmt.Sprintf(" %s.List(%d, %s);", RT, list, k))
		base += len(cc.List)
	}
	if !hasDefault {
		fi.insert(ts.Body.Rbrace, fmt.Sprintf("default: %s.List(%d, %d); ", RT, list, total))
	}
	return true
}

// selectStmt instruments all clauses of a select statement at once.
func (fi *fileInstr) selectStmt(ss *ast.SelectStmt) bool {
	if fi.selects == nil {
		fi.selects = map[*ast.SelectStmt]bool{}
	}
	if fi.selects[ss] {
		return true
	}
	fi.selects[ss] = true
	list := fi.p.listOf[ss]
	n := 0
	for _, cl := range ss.Body.List {
		if cl.(*ast.CommClause).Comm != nil {
			n++
		}
	}
	k := 0
	for _, cl := range ss.Body.List {
		cc := cl.(*ast.CommClause)
		if cc.Comm == nil {
			fi.insert(cc.Colon+1, fmt.Sprintf(" %s.List(%d, %d);", RT, list, n))
			continue
		}
		fi.insert(cc.Colon+1, fmt.Sprintf(" %s.List(%d, %d);", RT, list, k))
		k++
	}
	return true
}

// rangeStmt instruments a range loop: an iteration starting is the true
// outcome; reaching the statement after the loop other than by break is
// the false outcome.
func (fi *fileInstr) rangeStmt(rs *ast.RangeStmt, id int32) bool {
	fi.insertAtBodyStart(rs.Body, fmt.Sprintf(" %s.RangeIter(%d);", RT, id))
	fi.insert(rs.End(), fmt.Sprintf("; %s.RangeEnd(%d)", RT, id))
	var label *ast.Ident
	if ls, ok := fi.tree.Parent[rs].(*ast.LabeledStmt); ok {
		label = ls.Label
	}
	// Find the breaks that leave this loop.
	var walk func(n ast.Node, inner bool)
	walk = func(n ast.Node, inner bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(x, true)
					return false
				}
			case *ast.BranchStmt:
				if x.Tok != token.BREAK {
					return true
				}
				leaves := (x.Label == nil && !inner) || (x.Label != nil && label != nil && x.Label.Name == label.Name)
				if leaves {
					fi.insert(x.Pos(), fmt.Sprintf("{ %s.RangeBreak(%d); ", RT, id))
					fi.insert(x.End(), " }")
				}
			}
			return true
		})
	}
	walk(rs.Body, false)
	return true
}

// site instruments a call site so that the call runs in its context; it
// returns why not, if it cannot.
func (fi *fileInstr) site(s *couple.CallSite) string {
	call := s.Call
	id := s.Index
	info := fi.pkg.Info
	sig, _ := typeOfSig(fi.typeOf(call.Fun))
	if s.Kind != couple.PlainCall {
		return fi.deferredSite(s, sig)
	}
	fi.restoreIn(call)
	// Enter the context just before the call: while the receiver or the
	// function value is evaluated (arguments are evaluated after it).
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if selection := info.Selections[sel]; selection != nil && selection.Kind() == types.MethodVal {
			addr := ""
			if needsAddr(selection, fi.typeOf(sel.X)) {
				addr = "&"
			}
			fi.wrap(sel.X, fmt.Sprintf("%s.Recv(%d, %s", RT, id, addr), ")", 2)
			fi.exit(call, sig)
			return ""
		}
	}
	if fi.inferredGeneric(fun) {
		// A generic function whose type arguments are inferred cannot be
		// used as a value: enter while a typed argument is evaluated. An
		// argument that is itself such a function (its type arguments
		// inferred from the call's parameter) cannot be wrapped either.
		arg := -1
		for i, a := range call.Args {
			if t := fi.typeOf(a); t != nil {
				if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
					continue
				}
				if fi.inferredGeneric(ast.Unparen(a)) {
					continue
				}
				arg = i
				break
			}
		}
		if arg < 0 {
			return "generic call with untyped or generic function arguments only"
		}
		fi.wrap(call.Args[arg], fmt.Sprintf("%s.Arg(%d, ", RT, id), ")", 2)
		fi.exit(call, sig)
		return ""
	}
	fi.wrap(call.Fun, fmt.Sprintf("%s.Fn(%s.Enter(%d), ", RT, RT, id), ")", 2)
	fi.exit(call, sig)
	return ""
}

// exit leaves the call site's context when the call returns.
func (fi *fileInstr) exit(call *ast.CallExpr, sig *types.Signature) {
	results := 0
	if sig != nil {
		results = sig.Results().Len()
	}
	if stmt, ok := fi.tree.Parent[call].(*ast.ExprStmt); ok {
		if inList(fi.tree.Parent, stmt) {
			fi.insert(stmt.End(), fmt.Sprintf("; %s.X0()", RT))
		}
		// Elsewhere (a for statement's post statement, an init statement)
		// the enclosing function's deferred Restore leaves the context.
		return
	}
	if results >= 1 && results <= 4 {
		fi.wrap(call, fmt.Sprintf("%s.X%d(", RT, results), ")", 3)
	}
}

// inList reports whether a statement sits in a statement list (a block or
// a case clause), possibly under labels, where statements can follow it.
func inList(parent map[ast.Node]ast.Node, stmt ast.Stmt) bool {
	var n ast.Node = stmt
	for {
		switch p := parent[n].(type) {
		case *ast.LabeledStmt:
			n = p
			continue
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return true
		}
		return false
	}
}

// deferredSite instruments the call of a go or defer statement by wrapping
// the function so that the call enters the site when it finally runs.
func (fi *fileInstr) deferredSite(s *couple.CallSite, sig *types.Signature) string {
	if sig == nil {
		return "unknown signature"
	}
	for _, t := range s.Targets {
		if callsRecover(t) {
			return "the deferred function calls recover"
		}
	}
	if fi.inferredGeneric(ast.Unparen(s.Call.Fun)) {
		return "deferred generic call with inferred type arguments"
	}
	w := wrapperOf(sig)
	if w == "" {
		return "too many parameters or results"
	}
	site := strconv.Itoa(s.Index)
	if s.Kind == couple.GoCall && fi.p.Mode == Search {
		site = RT + ".GoBit|" + site
		if fi.goSites == nil {
			fi.goSites = map[*ast.CallExpr]bool{}
		}
		fi.goSites[s.Call] = true
	}
	fi.wrap(s.Call.Fun, fmt.Sprintf("%s.%s(%s, ", RT, w, site), ")", 2)
	return ""
}

// wrapperOf names the runtime's W function that wraps a function of
// signature sig, or returns "" if there is none (more than four
// parameters or two results).
func wrapperOf(sig *types.Signature) string {
	params, results := sig.Params().Len(), sig.Results().Len()
	if params > 4 || results > 2 {
		return ""
	}
	v := ""
	if sig.Variadic() {
		v = "V"
	}
	return fmt.Sprintf("W%d_%d%s", params, results, v)
}

// restoreIn makes the function enclosing a call restore the call-site
// depth when it returns or unwinds, so a panic that leaves a call site
// never leaves its context behind.
func (fi *fileInstr) restoreIn(call *ast.CallExpr) {
	var body *ast.BlockStmt
	for n := fi.tree.Parent[call]; n != nil && body == nil; n = fi.tree.Parent[n] {
		switch f := n.(type) {
		case *ast.FuncLit:
			body = f.Body
		case *ast.FuncDecl:
			body = f.Body
		}
	}
	if body == nil {
		return
	}
	if fi.restored == nil {
		fi.restored = map[*ast.BlockStmt]bool{}
	}
	if fi.restored[body] {
		return
	}
	fi.restored[body] = true
	fi.insertAtBodyStart(body, fmt.Sprintf(" defer %s.Restore(%s.Depth());", RT, RT))
}

// inferredGeneric reports whether fun names a generic function whose type
// arguments are inferred at the call.
func (fi *fileInstr) inferredGeneric(fun ast.Expr) bool {
	return typeinfo.InferredGeneric(fi.pkg.Info, fun)
}

// needsAddr reports whether a method call takes the address of its
// receiver implicitly (a pointer method called on an addressable value).
func needsAddr(sel *types.Selection, recvType types.Type) bool {
	fn, ok := sel.Obj().(*types.Func)
	if !ok || recvType == nil {
		return false
	}
	if types.IsInterface(recvType) {
		return false
	}
	if _, isPtr := recvType.Underlying().(*types.Pointer); isPtr {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	if _, ptrRecv := recv.Type().(*types.Pointer); !ptrRecv {
		return false
	}
	return !sel.Indirect()
}

func typeOfSig(t types.Type) (*types.Signature, bool) {
	if t == nil {
		return nil, false
	}
	s, ok := t.Underlying().(*types.Signature)
	return s, ok
}

// callsRecover reports whether a function calls the recover builtin.
func callsRecover(f *ccfg.Function) bool {
	found := false
	if f.SSA.Syntax() == nil {
		return false
	}
	ast.Inspect(f.SSA.Syntax(), func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "recover" {
				if _, isBuiltin := f.Pkg.Info.Uses[id].(*types.Builtin); isBuiltin {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// finish adds the runtime import (on the package clause's line, so no line
// moves) and, for files whose Go version predates generics in the
// runtime's API, a build constraint that raises the file's language
// version to go1.21 with a //line directive that keeps positions exact.
func (fi *fileInstr) finish(rtImport string) ([]byte, error) {
	fi.ed.insert(fi.off(fi.file.Name.End()), fmt.Sprintf("; import %s %q", RT, rtImport))
	src, err := fi.ed.apply()
	if err != nil {
		return nil, err
	}
	return raiseVersion(src, fi.file, fi.tf, fi.fileVersion(), fi.path)
}

func (fi *fileInstr) fileVersion() string {
	if v := fi.pkg.Info.FileVersions[fi.file]; v != "" {
		return v
	}
	if m := fi.pkg.Module; m != nil && m.GoVersion != "" {
		return "go" + m.GoVersion
	}
	return "go1.16"
}

// raiseVersion makes src compile as at least go1.21 (the language version
// of the generic runtime calls), without changing the semantics of files
// that are newer: a //go:build line selecting go1.21 would downgrade them.
func raiseVersion(src []byte, f *ast.File, tf *token.File, fileVersion, path string) ([]byte, error) {
	if version.Compare(fileVersion, "go1.21") >= 0 {
		return src, nil
	}
	var goBuild *ast.Comment
	var plus []string
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				goBuild = c
			case constraint.IsPlusBuild(c.Text):
				plus = append(plus, c.Text)
			}
		}
	}
	if goBuild != nil {
		expr, err := constraint.Parse(goBuild.Text)
		if err != nil {
			return nil, fmt.Errorf("build constraint: %w", err)
		}
		line := "//go:build " + (&constraint.AndExpr{X: expr, Y: &constraint.TagExpr{Tag: "go1.21"}}).String()
		start, end := tf.Offset(goBuild.Pos()), tf.Offset(goBuild.End())
		return bytes.Join([][]byte{src[:start], []byte(line), src[end:]}, nil), nil
	}
	var expr constraint.Expr = &constraint.TagExpr{Tag: "go1.21"}
	for _, p := range plus {
		x, err := constraint.Parse(p)
		if err != nil {
			return nil, fmt.Errorf("build constraint: %w", err)
		}
		expr = &constraint.AndExpr{X: x, Y: expr}
	}
	header := fmt.Sprintf("//go:build %s\n\n//line %s:1\n", expr, path)
	return append([]byte(header), src...), nil
}
