package mutate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"

	"github.com/cling-go/cling/internal/typeinfo"
)

// InlineConstant replaces a numeric or boolean constant.
const InlineConstant Operator = "InlineConstant"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: InlineConstant, Group: ConventionalGroup,
			Doc: "replaces a numeric or boolean literal: true<->false, 0->1, 1->0, x->x+1"},
		order: 80,
		node: &nodeVisitor{visit: func(g *generator, f *srcFile, n ast.Node) {
			switch x := n.(type) {
			case *ast.BasicLit:
				g.inlineConst(f, x)
			case *ast.Ident:
				g.inlineConst(f, x)
			}
		}},
	})
}

// inlineConst mutates a numeric or boolean literal that is not part of a
// larger constant expression or of a context that needs a constant.
func (g *generator) inlineConst(f *srcFile, e ast.Expr) {
	info := f.info()
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.INT && x.Kind != token.FLOAT {
			return
		}
	case *ast.Ident:
		c, ok := info.Uses[x].(*types.Const)
		if !ok || c.Parent() != types.Universe || (x.Name != "true" && x.Name != "false") {
			return
		}
	}
	tv := info.Types[e]
	if tv.Value == nil || typeinfo.IsUntyped(tv.Type) || typeinfo.BasicInfo(tv.Type) == 0 {
		return
	}
	n, p := f.tree.Unparen(e)
	if pe, ok := p.(ast.Expr); ok {
		if ptv, ok := info.Types[pe]; ok && ptv.Value != nil {
			return // part of a constant expression
		}
	}
	if kv, ok := p.(*ast.KeyValueExpr); ok && kv.Key == n {
		return
	}
	alt, ok := constAlt(tv.Value, tv.Type)
	if !ok {
		return
	}
	name, ok := f.typeText(tv.Type)
	if !ok {
		return
	}
	s := g.newSite(f)
	s.wrap(e, fmt.Sprintf("%s.Const[%s](%s, %s, ", rtName, name, ph(0), alt), ")", layerConst)
	g.add(s, InlineConstant, e.Pos(), 0, fmt.Sprintf("replaces %s with %s", f.text(e), alt))
}

// constAlt is the alternative of a constant (PIT's inline constant
// mutator): true <-> false; integers 0 -> 1, 1 -> 0, x -> x+1 (x-1 where
// x+1 overflows); floats 0 -> 1, x -> 0.
func constAlt(v constant.Value, t types.Type) (string, bool) {
	info := typeinfo.BasicInfo(t)
	switch {
	case v.Kind() == constant.Bool:
		return strconv.FormatBool(!constant.BoolVal(v)), true
	case info&types.IsInteger != 0:
		if constant.Sign(v) == 0 {
			return "1", true
		}
		if c, ok := constant.Int64Val(v); ok && c == 1 {
			return "0", true
		}
		next := constant.BinaryOp(v, token.ADD, constant.MakeInt64(1))
		if !fits(next, t) {
			next = constant.BinaryOp(v, token.SUB, constant.MakeInt64(1))
		}
		return next.ExactString(), true
	case info&types.IsFloat != 0:
		if constant.Sign(v) == 0 {
			return "1", true
		}
		return "0", true
	}
	return "", false
}

// fits reports whether the integer constant v is representable in the
// integer type t.
func fits(v constant.Value, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	var lo, hi int64
	var uhi uint64
	switch b.Kind() {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case types.Int, types.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	case types.Uint8:
		uhi = math.MaxUint8
	case types.Uint16:
		uhi = math.MaxUint16
	case types.Uint32:
		uhi = math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		uhi = math.MaxUint64
	default:
		return false
	}
	if uhi > 0 {
		u, exact := constant.Uint64Val(v)
		return exact && constant.Sign(v) >= 0 && u <= uhi
	}
	i, exact := constant.Int64Val(v)
	return exact && i >= lo && i <= hi
}
