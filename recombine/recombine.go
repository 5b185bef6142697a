// Package recombine is the data level of hybrid multi-level crossover
// (Olsthoorn et al. 2021): after crossover has recombined two tests
// statement by statement, it recombines the values the two offspring pass
// to the calls they have in common.
//
// Calls are matched by signature (Signature): the function's package,
// receiver type and name, its type arguments, and its parameter and
// result types. For each signature both offspring call, constructors
// first, one call of each offspring is drawn, and their arguments are
// recombined position by position where both are literals of the same
// type: numbers by simulated binary crossover (SBX), booleans by a fair
// draw between the two values, strings and []byte literals by
// single-point crossover. Every other argument is left as it is.
//
// An argument of a call is a reference to an earlier statement; for a
// literal, to the statement that declares it (s := "EUR"). Recombination
// changes that statement, so every use of the literal sees the new value:
// a test that declares one literal and passes it to several calls
// (cart.AddItem(s, 1) and stock.Add(s, 1)) means the same value in each,
// as the written test reads, and keeps meaning it. Mutation changes a
// literal the same way; a copy per call would instead break the link
// between the calls and lengthen the test.
package recombine

import (
	"go/types"
	"math"
	"math/rand"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cling-go/cling/testcase"
)

// Arguments recombines, in place, the literal arguments of the calls a and
// b have in common, drawing from rnd. For each signature both call
// (constructors first, then in the order of their first call in a), it
// draws one call of a and one of b and recombines their arguments pairwise
// (Values).
func Arguments(rnd *rand.Rand, a, b *testcase.Test) {
	for _, m := range Match(a, b) {
		sa := a.Stmts[m.A[rnd.Intn(len(m.A))]]
		sb := b.Stmts[m.B[rnd.Intn(len(m.B))]]
		for k := 0; k < len(sa.Args) && k < len(sb.Args); k++ {
			ra, rb := sa.Args[k], sb.Args[k]
			if ra.IsOmitted() || rb.IsOmitted() {
				continue
			}
			la, lb := &a.Stmts[ra.Stmt], &b.Stmts[rb.Stmt]
			if la.Op.Kind != testcase.OpPrim || lb.Op.Kind != testcase.OpPrim || !types.Identical(la.Op.Type, lb.Op.Type) {
				continue
			}
			la.Value, lb.Value = Values(rnd, la.Op.Type, la.Value, lb.Value)
		}
	}
}

// A Pair is a signature both tests call: one of its ops, and the indices
// of its calls in each test.
type Pair struct {
	Op          *testcase.Op
	Constructor bool
	A, B        []int
}

// Match returns the signatures that a and b both call, constructors first,
// each group in the order of its first call in a, with the indices of the
// calls in each test.
//
// Calls of one op have one signature, and ops are compared with
// SameSignature, which writes out no types: matching is part of every
// crossover.
func Match(a, b *testcase.Test) []Pair {
	var groups []*Pair
	groupOf := map[*testcase.Op]*Pair{}
	add := func(t *testcase.Test, side func(*Pair) *[]int, open bool) {
		for i, s := range t.Stmts {
			if s.Op.Kind != testcase.OpCall {
				continue
			}
			g := groupOf[s.Op]
			if g == nil {
				for _, c := range groups {
					if SameSignature(c.Op, s.Op) {
						g = c
						break
					}
				}
				if g == nil && open {
					g = &Pair{Op: s.Op, Constructor: IsConstructor(s.Op)}
					groups = append(groups, g)
				}
				groupOf[s.Op] = g
			}
			if g != nil {
				*side(g) = append(*side(g), i)
			}
		}
	}
	add(a, func(p *Pair) *[]int { return &p.A }, true)
	add(b, func(p *Pair) *[]int { return &p.B }, false)
	var out []Pair
	for _, ctor := range []bool{true, false} {
		for _, g := range groups {
			if g.Constructor == ctor && len(g.B) > 0 {
				out = append(out, *g)
			}
		}
	}
	return out
}

// Signature identifies what a call op calls: the function's package path,
// receiver type and name, its type arguments, and its parameter and
// result types (the receiver is the first parameter of a method), with
// types written with their full package paths:
// "example.com/shop/checkout.(*Cart).AddItem(*example.com/shop/checkout.Cart, string, int, int64) (error)".
// Two instantiations of a generic function have different signatures.
func Signature(op *testcase.Op) string {
	var b strings.Builder
	if op.Func != nil && op.Func.Pkg() != nil {
		b.WriteString(op.Func.Pkg().Path())
		b.WriteByte('.')
	}
	if op.Method && len(op.Params) > 0 {
		b.WriteString("(" + types.TypeString(op.Params[0], nil) + ").")
	}
	if op.Func != nil {
		b.WriteString(op.Func.Name())
	}
	list := func(open, close string, ts []types.Type, variadic bool) {
		b.WriteString(open)
		for i, t := range ts {
			if i > 0 {
				b.WriteString(", ")
			}
			if s, ok := t.(*types.Slice); ok && variadic && i == len(ts)-1 {
				b.WriteString("..." + types.TypeString(s.Elem(), nil))
				continue
			}
			b.WriteString(types.TypeString(t, nil))
		}
		b.WriteString(close)
	}
	if len(op.TypeArgs) > 0 {
		list("[", "]", op.TypeArgs, false)
	}
	list("(", ")", op.Params, op.Variadic)
	list(" (", ")", op.Results, false)
	return b.String()
}

// SameSignature reports whether two call ops have the same Signature,
// comparing types with types.Identical rather than writing them out.
func SameSignature(x, y *testcase.Op) bool {
	if x == y {
		return true
	}
	if x.Func == nil || y.Func == nil || x.Func.Name() != y.Func.Name() || x.Method != y.Method || x.Variadic != y.Variadic {
		return false
	}
	if (x.Func.Pkg() == nil) != (y.Func.Pkg() == nil) || x.Func.Pkg() != nil && x.Func.Pkg().Path() != y.Func.Pkg().Path() {
		return false
	}
	identical := func(xs, ys []types.Type) bool {
		return slices.EqualFunc(xs, ys, types.Identical)
	}
	return identical(x.TypeArgs, y.TypeArgs) && identical(x.Params, y.Params) && identical(x.Results, y.Results)
}

// IsConstructor reports whether a call op is a constructor as the test
// cluster understands one: a package-level, non-generic function whose
// first result is not of a basic type (a struct, a pointer, a slice, an
// interface, ...), optionally followed by an error or a bool.
func IsConstructor(op *testcase.Op) bool {
	if op.Kind != testcase.OpCall || op.Method || len(op.TypeArgs) > 0 || len(op.Results) == 0 || len(op.Results) > 2 {
		return false
	}
	if _, basic := op.Results[0].Underlying().(*types.Basic); basic {
		return false
	}
	if len(op.Results) == 2 {
		second := op.Results[1]
		isErr := types.Identical(second, types.Universe.Lookup("error").Type())
		return isErr || types.Identical(second, types.Typ[types.Bool])
	}
	return true
}

// Values recombines two literals x and y of type t, as statements of the
// test model hold them, into two children, the first taking x's place and
// the second y's: integers (int64), unsigned integers (uint64) and floats
// (float64) by SBX within t's range, booleans by a fair draw between x
// and y per child, strings (of a string or []byte type) by single-point
// crossover. Literals of any other kind come back unchanged.
func Values(rnd *rand.Rand, t types.Type, x, y any) (any, any) {
	if s, ok := x.(string); ok {
		if z, ok := y.(string); ok && (testcase.IsBytes(t) || isBasic(t, types.IsString)) {
			return Strings(s, z, cut(rnd, s), cut(rnd, z))
		}
		return x, y
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return x, y
	}
	switch x := x.(type) {
	case bool:
		if y, ok := y.(bool); ok {
			pick := func() bool {
				if rnd.Intn(2) == 0 {
					return x
				}
				return y
			}
			c1 := pick()
			return c1, pick()
		}
	case int64:
		if y, ok := y.(int64); ok && b.Info()&types.IsInteger != 0 {
			lo, hi := signedRange(b)
			c1 := SBXInt(x, y, Beta(rnd.Float64()), rnd.Intn(2) == 0, lo, hi)
			return c1, SBXInt(y, x, Beta(rnd.Float64()), rnd.Intn(2) == 0, lo, hi)
		}
	case uint64:
		if y, ok := y.(uint64); ok && b.Info()&types.IsInteger != 0 {
			hi := unsignedMax(b)
			c1 := SBXUint(x, y, Beta(rnd.Float64()), rnd.Intn(2) == 0, hi)
			return c1, SBXUint(y, x, Beta(rnd.Float64()), rnd.Intn(2) == 0, hi)
		}
	case float64:
		if y, ok := y.(float64); ok && b.Info()&types.IsFloat != 0 {
			limit := math.MaxFloat64
			if b.Kind() == types.Float32 {
				limit = math.MaxFloat32
			}
			c1 := SBXFloat(x, y, Beta(rnd.Float64()), rnd.Intn(2) == 0, limit)
			return c1, SBXFloat(y, x, Beta(rnd.Float64()), rnd.Intn(2) == 0, limit)
		}
	}
	return x, y
}

func isBasic(t types.Type, info types.BasicInfo) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&info != 0
}

// Eta is the distribution index η of SBX: the larger, the closer the
// children stay to their parents.
const Eta = 2.5

// Beta is SBX's spread factor for a uniform draw u in [0, 1):
// (2u)^(1/(η+1)) below one half, which puts the children between the
// parents; 1 at one half, the parents themselves; (1/(2(1−u)))^(1/(η+1))
// above, children beyond the parents.
func Beta(u float64) float64 {
	switch {
	case u < 0.5:
		return math.Pow(2*u, 1/(Eta+1))
	case u == 0.5:
		return 1
	}
	return math.Pow(0.5/(1-u), 1/(Eta+1))
}

// SBXFloat is the SBX child of v1 and v2 for spread factor beta: the
// parents' mean minus (or, if plus, plus) beta times half their distance,
// kept within ±limit. It is computed as a parent plus an offset,
// mean − β·d/2 = min + (1−β)·d/2 and mean + β·d/2 = max + (β−1)·d/2 for
// the distance d of the parents, so that beta 1 gives the smaller (not
// plus) or the larger parent exactly. Equal parents, or a parent that is
// not a finite number, give v1 back.
func SBXFloat(v1, v2, beta float64, plus bool, limit float64) float64 {
	if v1 == v2 || math.IsNaN(v1) || math.IsNaN(v2) || math.IsInf(v1, 0) || math.IsInf(v2, 0) {
		return v1
	}
	a, b := min(v1, v2), max(v1, v2)
	half := b/2 - a/2
	child := a + (1-beta)*half
	if plus {
		child = b + (beta-1)*half
	}
	return max(-limit, min(limit, child))
}

// SBXInt is SBXFloat for integers of the range [lo, hi]: the child is
// rounded to the nearest integer (halves up) and clamped to the range,
// never wrapped around. It is exact where the arithmetic allows: beta 1
// gives the smaller (not plus) or the larger parent, equal parents that
// parent.
func SBXInt(v1, v2 int64, beta float64, plus bool, lo, hi int64) int64 {
	return fromOrdered(sbxOrdered(toOrdered(v1), toOrdered(v2), beta, plus, toOrdered(lo), toOrdered(hi)))
}

// SBXUint is SBXInt for unsigned integers of the range [0, hi].
func SBXUint(v1, v2 uint64, beta float64, plus bool, hi uint64) uint64 {
	return sbxOrdered(v1, v2, beta, plus, 0, hi)
}

// toOrdered maps an int64 to a uint64 of the same rank (offset binary),
// so that one exact computation serves signed and unsigned integers.
func toOrdered(v int64) uint64 { return uint64(v) ^ 1<<63 }

func fromOrdered(p uint64) int64 { return int64(p ^ 1<<63) }

// sbxOrdered computes the SBX child on ranks as SBXFloat does, a parent
// plus an offset, and adds the offset rounded, saturating at lo and hi.
func sbxOrdered(p1, p2 uint64, beta float64, plus bool, lo, hi uint64) uint64 {
	a, b := min(p1, p2), max(p1, p2)
	half := float64(b-a) / 2
	if plus {
		return step(b, math.Floor((beta-1)*half+0.5), lo, hi)
	}
	return step(a, math.Floor((1-beta)*half+0.5), lo, hi)
}

// step moves p by the whole number off within [lo, hi], saturating.
func step(p uint64, off float64, lo, hi uint64) uint64 {
	p = max(lo, min(hi, p))
	const beyond = 1 << 64 // no offset this large stays in range
	switch {
	case off >= 0:
		if off >= beyond || uint64(off) >= hi-p {
			return hi
		}
		return p + uint64(off)
	case -off >= beyond || uint64(-off) >= p-lo:
		return lo
	}
	return p - uint64(-off)
}

// sizes are the sizes of basic types in the code under test: int, uint
// and uintptr have 64 bits, as in the literals the generator draws.
var sizes = types.SizesFor("gc", "amd64")

// signedRange is the range of a signed integer type: what its unsigned
// counterpart of the same size holds, halved.
func signedRange(b *types.Basic) (lo, hi int64) {
	hi = int64(unsignedMax(b) >> 1)
	return -hi - 1, hi
}

// unsignedMax is the greatest value of an unsigned integer type.
func unsignedMax(b *types.Basic) uint64 {
	bits := 8 * sizes.Sizeof(b)
	return math.MaxUint64 >> (64 - bits)
}

// Strings is single-point crossover of x and y cut at byte offsets i
// (0 ≤ i ≤ len(x)) and j (0 ≤ j ≤ len(y)): x[:i] + y[j:] and
// y[:j] + x[i:]. The children have the parents' bytes and, together,
// their length. An empty parent has the one cut 0: "" and "ab" cut at 0
// and 1 give "b" and "a".
func Strings(x, y string, i, j int) (string, string) {
	return x[:i] + y[j:], y[:j] + x[i:]
}

// cut draws a cut of s uniformly among the boundaries of its runes,
// 0 and len(s) included, so that a cut never splits a UTF-8 sequence.
func cut(rnd *rand.Rand, s string) int {
	k := rnd.Intn(utf8.RuneCountInString(s) + 1)
	i := 0
	for ; k > 0; k-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}
