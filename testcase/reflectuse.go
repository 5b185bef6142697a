package testcase

import (
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"

	"github.com/cling-go/cling/ccfg"
	"golang.org/x/tools/go/ssa"
)

// reflection is what R's and E's code does with reflection: the struct
// tag keys and option words it reads.
type reflection struct {
	tags tagging
}

// scanReflection reads the functions of R and E (funcs, sorted by
// position) for struct tags.
func scanReflection(funcs []*ccfg.Function) *reflection {
	return &reflection{tags: scanTags(funcs)}
}

// tagWordRx are the option words tags may carry.
var tagWordRx = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// scanTags collects the tag keys: the string constants passed to
// reflect.StructTag's Get and Lookup, in source order. The option words
// are the string constants the functions that read tags (and the
// functions of the same package that call those) compare with == or !=,
// switch on, or test as a prefix with strings.HasPrefix: what a tag is
// checked against after it is split ("omitempty", "inline"); words only,
// not "true" and "false" (the values of boolean tags). Comparing with "-"
// marks the skip tag.
func scanTags(funcs []*ccfg.Function) tagging {
	var tg tagging
	readers := map[*ssa.Function]bool{}
	for _, f := range funcs {
		eachCall(f.SSA, func(c *ssa.CallCommon) {
			obj := calleeObject(c)
			if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "reflect" || (obj.Name() != "Get" && obj.Name() != "Lookup") {
				return
			}
			sig := obj.Type().(*types.Signature)
			if sig.Recv() == nil || !isReflectNamed(sig.Recv().Type(), "StructTag") || len(c.Args) < 2 {
				return
			}
			if s, ok := stringConst(c.Args[1]); ok && s != "" && !slices.Contains(tg.keys, s) {
				tg.keys = append(tg.keys, s)
			}
			readers[f.SSA] = true
		})
	}
	if len(readers) == 0 {
		return tg
	}
	for _, f := range funcs {
		reads := readers[f.SSA]
		eachCall(f.SSA, func(c *ssa.CallCommon) {
			if callee := c.StaticCallee(); callee != nil && readers[callee] {
				reads = true
			}
		})
		if !reads {
			continue
		}
		add := func(v ssa.Value) {
			s, ok := stringConst(v)
			switch {
			case !ok:
			case s == "-":
				tg.dash = true
			case s == "true" || s == "false":
				// The value of a boolean tag (multiline:"true"), not an
				// option.
			case tagWordRx.MatchString(s) && len(s) <= 20 && !slices.Contains(tg.keys, s) && !slices.Contains(tg.options, s):
				tg.options = append(tg.options, s)
			}
		}
		for _, b := range f.SSA.Blocks {
			for _, in := range b.Instrs {
				switch x := in.(type) {
				case *ssa.BinOp:
					if x.Op == token.EQL || x.Op == token.NEQ {
						add(x.X)
						add(x.Y)
					}
				case *ssa.Call:
					if obj := calleeObject(&x.Call); obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "strings" && obj.Name() == "HasPrefix" && len(x.Call.Args) == 2 {
						add(x.Call.Args[1])
					}
				}
			}
		}
	}
	return tg
}

// eachCall calls f on every call of fn (calls, go and defer statements).
func eachCall(fn *ssa.Function, f func(*ssa.CallCommon)) {
	if fn == nil {
		return
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(ssa.CallInstruction); ok {
				f(c.Common())
			}
		}
	}
}

// calleeObject is the function or method a call calls statically, or the
// interface method it invokes.
func calleeObject(c *ssa.CallCommon) types.Object {
	if c.IsInvoke() {
		return c.Method
	}
	if f := c.StaticCallee(); f != nil {
		if f.Origin() != nil {
			f = f.Origin()
		}
		return f.Object()
	}
	return nil
}

func stringConst(v ssa.Value) (string, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(k.Value), true
}

func isReflectNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == name
}
