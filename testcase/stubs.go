package testcase

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cling-go/cling/ccfg"
	"golang.org/x/tools/go/ssa"
)

// maxStubs bounds the stub types a cluster declares, and maxStubMethods
// the methods of an interface a stub implements.
const (
	maxStubs       = 10
	maxStubMethods = 4
)

// assertedInterfaces lists the interface types, with methods, that the
// functions funcs (R's and E's, sorted by position) assert values to: the
// types of type assertions, comma-ok or not, and of the interface cases
// of type switches (which SSA writes as comma-ok assertions), each once,
// in source order. Code that asks `if m, ok := v.(Marshaler); ok` takes
// that branch only for a value whose type has the methods.
func assertedInterfaces(funcs []*ccfg.Function) []types.Type {
	var out []types.Type
	for _, f := range funcs {
		if f.SSA == nil {
			continue
		}
		for _, b := range f.SSA.Blocks {
			for _, ins := range b.Instrs {
				ta, ok := ins.(*ssa.TypeAssert)
				if !ok {
					continue
				}
				iface, ok := ta.AssertedType.Underlying().(*types.Interface)
				if !ok || iface.NumMethods() == 0 {
					continue
				}
				if !slices.ContainsFunc(out, func(t types.Type) bool { return types.Identical(t, ta.AssertedType) }) {
					out = append(out, ta.AssertedType)
				}
			}
		}
	}
	return out
}

// stubTypes builds, in package pkg, a struct type the test declares for
// each interface of asserted (at most maxStubs) that a test of package
// from can implement: every method exported, at most maxStubMethods of
// them, every type of their signatures nameable from the test. A stub
// holds one field per result of each method, and its methods (value
// receivers) return those fields, so that the search chooses what the
// methods return as it chooses any field:
//
//	type stubBytesMarshaler struct {
//		Result []byte
//		Err    error
//	}
//
//	func (s stubBytesMarshaler) MarshalYAML() ([]byte, error) { return s.Result, s.Err }
//
// The error interface is left out (errors have their own producers), and
// so is an interface that an earlier stub already implements.
func stubTypes(pkg *types.Package, asserted []types.Type, from *types.Package) []*types.Named {
	var out []*types.Named
	taken := map[string]bool{}
	for _, t := range asserted {
		if len(out) == maxStubs {
			break
		}
		iface := t.Underlying().(*types.Interface)
		if IsError(t) || iface.NumMethods() > maxStubMethods || !stubbable(iface, from) {
			continue
		}
		if slices.ContainsFunc(out, func(s *types.Named) bool { return types.Implements(s, iface) }) {
			continue
		}
		n := types.NewNamed(types.NewTypeName(token.NoPos, pkg, stubName(t, len(out)+1, taken), nil), nil, nil)
		var fields []*types.Var
		var tags []string
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			results := m.Type().(*types.Signature).Results()
			for j, name := range resultFields(iface.NumMethods(), m.Name(), results) {
				fields = append(fields, types.NewField(token.NoPos, pkg, name, results.At(j).Type(), false))
				tags = append(tags, "")
			}
		}
		n.SetUnderlying(types.NewStruct(fields, tags))
		recv := types.NewVar(token.NoPos, pkg, "s", n)
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			sig := m.Type().(*types.Signature)
			n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name(), types.NewSignatureType(recv, nil, nil, sig.Params(), sig.Results(), sig.Variadic())))
		}
		out = append(out, n)
	}
	return out
}

// IsStub reports whether t is a stub type (see stubTypes): a declared
// type with methods.
func IsStub(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && IsDeclaredPkg(n.Obj().Pkg()) && n.NumMethods() > 0
}

// stubbable reports whether a type the test declares can implement
// iface: its methods are exported and their signatures can be written in
// a test of package from.
func stubbable(iface *types.Interface, from *types.Package) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if !m.Exported() {
			return false
		}
		sig := m.Type().(*types.Signature)
		for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
			for j := 0; j < tuple.Len(); j++ {
				if !nameable(tuple.At(j).Type(), from) {
					return false
				}
			}
		}
	}
	return true
}

// stubName names the stub of interface t: stub and the interface's name
// (stubBytesMarshaler, stubJsonMarshaler for an unexported
// jsonMarshaler), or stub and its number for an interface literal.
func stubName(t types.Type, number int, taken map[string]bool) string {
	base := "stub" + strconv.Itoa(number)
	if n, ok := types.Unalias(t).(*types.Named); ok {
		r, size := utf8.DecodeRuneInString(n.Obj().Name())
		base = "stub" + string(unicode.ToUpper(r)) + n.Obj().Name()[size:]
	}
	name := base
	for i := 2; taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	taken[name] = true
	return name
}

// countsBytes reports whether a method of signature sig has the shape
// of Read, Write, ReadAt or WriteAt: a first parameter of type []byte and
// a first result of type int, the count of p's bytes read or written.
func countsBytes(sig *types.Signature) bool {
	if sig.Params().Len() == 0 || sig.Results().Len() == 0 || sig.Variadic() && sig.Params().Len() == 1 {
		return false
	}
	p, ok := sig.Params().At(0).Type().(*types.Slice)
	return ok && types.Identical(p.Elem(), types.Typ[types.Byte]) && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int])
}

// resultFields names the fields of a stub that hold the results of its
// method: Result (Result2, ...) for values and Err (Err2, ...) for
// errors when the stub has one method; with more, or when a field would
// take the method's own name (a method Err() error), the method's name
// before them (MarshalTextResult, MarshalTextErr, ErrErr).
func resultFields(methods int, method string, results *types.Tuple) []string {
	if methods == 1 {
		names := fieldNames("", results)
		if !slices.Contains(names, method) {
			return names
		}
	}
	return fieldNames(method, results)
}

// fieldNames names the fields of the results, each after prefix.
func fieldNames(prefix string, results *types.Tuple) []string {
	var names []string
	values, errs := 0, 0
	for i := 0; i < results.Len(); i++ {
		base, count := "Result", &values
		if IsError(results.At(i).Type()) {
			base, count = "Err", &errs
		}
		*count++
		name := prefix + base
		if *count > 1 {
			name += strconv.Itoa(*count)
		}
		names = append(names, name)
	}
	return names
}

// stubMethodsSource renders the methods of stub n, each returning the
// fields that hold its results; typ renders types.
func stubMethodsSource(n *types.Named, typ func(types.Type) string) string {
	var b strings.Builder
	for i := 0; i < n.NumMethods(); i++ {
		m := n.Method(i)
		sig := m.Type().(*types.Signature)
		counts := countsBytes(sig)
		var params []string
		for j := 0; j < sig.Params().Len(); j++ {
			pt := sig.Params().At(j).Type()
			if sig.Variadic() && j == sig.Params().Len()-1 {
				params = append(params, "..."+typ(pt.(*types.Slice).Elem()))
				continue
			}
			if j == 0 && counts {
				params = append(params, "p "+typ(pt))
				continue
			}
			params = append(params, typ(pt))
		}
		if counts {
			for j := 1; j < len(params); j++ {
				params[j] = "_ " + params[j]
			}
		}
		var results, fields []string
		for j, name := range resultFields(n.NumMethods(), m.Name(), sig.Results()) {
			results = append(results, typ(sig.Results().At(j).Type()))
			fields = append(fields, "s."+name)
		}
		head := "func (s " + n.Obj().Name() + ") " + m.Name() + "(" + strings.Join(params, ", ") + ")"
		switch len(results) {
		case 0:
			b.WriteString("\n" + head + " {}\n")
			continue
		case 1:
			head += " " + results[0]
		default:
			head += " (" + strings.Join(results, ", ") + ")"
		}
		if counts {
			// The count stays within what io.Reader and io.Writer
			// allow, 0 <= n <= len(p): a stub that broke it would make
			// the code that trusts it fail, the test's doing.
			b.WriteString("\n" + head + " {\n\tn := " + fields[0] + "\n\tif n > len(p) {\n\t\tn = len(p)\n\t}\n\tif n < 0 {\n\t\tn = 0\n\t}\n\treturn " +
				strings.Join(append([]string{"n"}, fields[1:]...), ", ") + "\n}\n")
			continue
		}
		b.WriteString("\n" + head + " {\n\treturn " + strings.Join(fields, ", ") + "\n}\n")
	}
	return b.String()
}
