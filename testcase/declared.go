package testcase

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// DeclaredPath is the import path of the synthetic package that holds
// the struct types a generated test declares itself (Cluster.Declared).
// Nothing imports it: the executor's main package and the emitted test
// file declare the types they use, and print them unqualified.
const DeclaredPath = "cling.test/declared"

// IsDeclaredPkg reports whether p is the package of the declared types.
func IsDeclaredPkg(p *types.Package) bool { return p != nil && p.Path() == DeclaredPath }

// IsDeclared reports whether t is a struct type the test declares.
func IsDeclared(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && IsDeclaredPkg(n.Obj().Pkg())
}

// declaredTypes builds the struct types tests declare: a handful of fixed
// shapes of the values reflection-driven code walks, tagged with what R's
// and E's code reads (see tagging):
//
//	item1: scalars and collections of them (string, int, float64, bool,
//	       []string, map[string]string);
//	item2: an embedded item1, an int64, a field the tag skips ("-", when
//	       the code compares a tag with "-"), a []byte and an unexported
//	       field;
//	item3: a pointer to itself (recursion), a map with struct values and
//	       a slice of structs;
//	item4: fields of the other kinds a reflect.Kind switch tells apart
//	       (int8, uint, float32) and dynamic values (any, []any,
//	       map[string]any).
func declaredTypes(tags tagging) []*types.Named {
	pkg := types.NewPackage(DeclaredPath, "")
	named := func(name string) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), nil, nil)
	}
	item1, item2, item3, item4 := named("item1"), named("item2"), named("item3"), named("item4")
	str := types.Typ[types.String]
	anyT := types.Universe.Lookup("any").Type()
	type field struct {
		name     string
		typ      types.Type
		embedded bool
		skip     bool // tagged "-"
	}
	build := func(n *types.Named, fields []field) {
		var vars []*types.Var
		var tagList []string
		for _, f := range fields {
			vars = append(vars, types.NewField(token.NoPos, pkg, f.name, f.typ, f.embedded))
			tag := ""
			switch {
			case f.embedded || !token.IsExported(f.name):
			case f.skip:
				tag = tags.skip()
			default:
				tag = tags.next(strings.ToLower(f.name))
			}
			tagList = append(tagList, tag)
		}
		n.SetUnderlying(types.NewStruct(vars, tagList))
	}
	build(item1, []field{
		{name: "Name", typ: str},
		{name: "Count", typ: types.Typ[types.Int]},
		{name: "Ratio", typ: types.Typ[types.Float64]},
		{name: "Enabled", typ: types.Typ[types.Bool]},
		{name: "Tags", typ: types.NewSlice(str)},
		{name: "Attrs", typ: types.NewMap(str, str)},
	})
	build(item3, []field{
		{name: "Value", typ: types.Typ[types.Int]},
		{name: "Next", typ: types.NewPointer(item3)},
		{name: "Items", typ: types.NewMap(str, item1)},
		{name: "List", typ: types.NewSlice(item1)},
	})
	build(item4, []field{
		{name: "Small", typ: types.Typ[types.Int8]},
		{name: "Size", typ: types.Typ[types.Uint]},
		{name: "Real", typ: types.Typ[types.Float32]},
		{name: "Data", typ: anyT},
		{name: "Values", typ: types.NewSlice(anyT)},
		{name: "Extra", typ: types.NewMap(str, anyT)},
	})
	build(item2, []field{
		{name: "item1", typ: item1, embedded: true},
		{name: "ID", typ: types.Typ[types.Int64]},
		{name: "Note", typ: str, skip: true},
		{name: "Raw", typ: types.NewSlice(types.Universe.Lookup("byte").Type())},
		{name: "internal", typ: types.Typ[types.Int]},
	})
	return []*types.Named{item1, item2, item3, item4}
}

// tagging writes the struct tags of declared fields. With the tag keys
// R's and E's code reads, every exported field gets a tag with the first
// key, naming the field in lower case; every other tagged field adds one
// of the option words the code compares after splitting a tag, in turn
// (`toml:"count,omitempty"`). A field meant to be skipped is tagged "-"
// when the code compares a tag with "-", and named otherwise.
type tagging struct {
	keys    []string
	options []string
	dash    bool
	n       int
}

func (tg *tagging) next(name string) string {
	if len(tg.keys) == 0 {
		return ""
	}
	val := name
	if len(tg.options) > 0 && tg.n%2 == 1 {
		val += "," + tg.options[(tg.n/2)%len(tg.options)]
	}
	tg.n++
	return tg.keys[0] + ":" + strconv.Quote(val)
}

func (tg *tagging) skip() string {
	if len(tg.keys) == 0 {
		return ""
	}
	if !tg.dash {
		return tg.next("note")
	}
	return tg.keys[0] + `:"-"`
}

// DeclSource renders the declaration of a declared type, one field per
// line, with its tag in back quotes, and the methods of a stub type
// after it; typ renders types.
func DeclSource(n *types.Named, typ func(types.Type) string) string {
	st := n.Underlying().(*types.Struct)
	var b strings.Builder
	b.WriteString("type " + n.Obj().Name() + " struct {\n")
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		b.WriteString("\t")
		if f.Embedded() {
			b.WriteString(typ(f.Type()))
		} else {
			b.WriteString(f.Name() + " " + typ(f.Type()))
		}
		if tag := st.Tag(i); tag != "" {
			if strconv.CanBackquote(tag) {
				b.WriteString(" `" + tag + "`")
			} else {
				b.WriteString(" " + strconv.Quote(tag))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	b.WriteString(stubMethodsSource(n, typ))
	return b.String()
}

// DeclaredIn lists the declared types t mentions, directly or through the
// fields of declared types, in the cluster's order.
func (c *Cluster) DeclaredIn(ts ...types.Type) []*types.Named {
	seen := map[*types.Named]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		t = types.Unalias(t)
		if u, ok := t.(*types.Named); ok && IsDeclaredPkg(u.Obj().Pkg()) {
			if seen[u] {
				return
			}
			seen[u] = true
			st := u.Underlying().(*types.Struct)
			for i := 0; i < st.NumFields(); i++ {
				walk(st.Field(i).Type())
			}
			return
		}
		forComponents(t, walk)
	}
	for _, t := range ts {
		if t != nil {
			walk(t)
		}
	}
	var out []*types.Named
	for _, n := range c.Declared {
		if seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// addFieldNames adds the lower-cased names of the exported fields of the
// declared types (the names their tags give them) to the string
// constants: input a decoder decodes into those types names them.
func (k *Constants) addFieldNames(decls []*types.Named) {
	for _, d := range decls {
		st := d.Underlying().(*types.Struct)
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Exported() && !f.Embedded() {
				if name := strings.ToLower(f.Name()); !slices.Contains(k.Strings, name) {
					k.Strings = append(k.Strings, name)
				}
			}
		}
	}
}
