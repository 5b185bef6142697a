package testcase

import (
	"go/types"
	"math"
	"slices"
	"unicode/utf8"
)

// Mutate changes t in place with the usual operators of search-based test
// generation: with probability 1/3 each, it deletes statements, changes
// statements, and inserts statements. Deletion and change touch each
// statement with probability 1/n; insertion repeats while U <= 0.5^k. It
// reports whether anything changed.
func (g *Generator) Mutate(t *Test) bool {
	changed := false
	if g.Rnd.Float64() < 1.0/3 {
		changed = g.deleteStatements(t) || changed
	}
	if g.Rnd.Float64() < 1.0/3 {
		changed = g.changeStatements(t) || changed
	}
	if g.Rnd.Float64() < 1.0/3 {
		changed = g.insertStatements(t) || changed
	}
	// Deleting a value (its users take another), changing an argument,
	// crossing two tests over: any of them can leave a call reading what
	// it writes.
	return g.unfeed(t) || changed
}

// unfeed gives each call of t that would read what it writes (see
// feedingPair) a value built anew just before it, as inserter.unfeed
// does when a call is built. It reports whether it changed t.
func (g *Generator) unfeed(t *Test) bool {
	changed := false
	for i := 0; i < t.Len(); i++ {
		s := t.Stmts[i]
		if _, _, ok := feedingPair(t, s.Op, s.Args); !ok {
			continue
		}
		args := slices.Clone(s.Args)
		ins := &inserter{g: g, t: t, pos: i}
		ins.unfeed(s.Op, args, 0)
		i = ins.pos // the statement moved down by the insertions
		t.Stmts[i].Args = args
		changed = true
	}
	return changed
}

// deleteStatements removes each statement with probability 1/n. A deleted
// value's users switch to another value of a fitting type where there is
// one; otherwise they go too.
func (g *Generator) deleteStatements(t *Test) bool {
	n := t.Len()
	if n == 0 {
		return false
	}
	changed := false
	for i := n - 1; i >= 0; i-- {
		if i >= t.Len() || g.Rnd.Float64() >= 1.0/float64(n) {
			continue
		}
		g.deleteGracefully(t, i)
		changed = true
	}
	return changed
}

// deleteGracefully removes statement i, rewiring later references to its
// results to other values of assignable types before it where possible.
func (g *Generator) deleteGracefully(t *Test, i int) {
	outs := t.Stmts[i].Op.Outputs()
	for j := i + 1; j < t.Len(); j++ {
		s := &t.Stmts[j]
		for k, a := range s.Args {
			if a.IsOmitted() || a.Stmt != i {
				continue
			}
			want := s.Op.ArgType(k)
			if r, ok := g.ValueBefore(t, i, want, outs[a.Result]); ok {
				s.Args[k] = r
			}
		}
	}
	t.Remove(i)
}

// ValueBefore draws a value of t built before statement pos that is
// assignable to want, preferring values whose type is identical to
// prefer. It reports false if there is none.
func (g *Generator) ValueBefore(t *Test, pos int, want, prefer types.Type) (Ref, bool) {
	var same, any []Ref
	for i := 0; i < pos; i++ {
		for r, out := range t.Stmts[i].Op.Outputs() {
			if !g.C.assignable(out, want) {
				continue
			}
			ref := Ref{Stmt: i, Result: r}
			if types.Identical(out, prefer) {
				same = append(same, ref)
			}
			any = append(any, ref)
		}
	}
	switch {
	case len(same) > 0:
		return same[g.Rnd.Intn(len(same))], true
	case len(any) > 0:
		return any[g.Rnd.Intn(len(any))], true
	}
	return Ref{}, false
}

// changeStatements changes each statement with probability 1/n: a literal
// gets a new value, a function literal a new body or constant, a call or
// literal of a composite type a new argument; a value passed only as an
// empty interface may become a value of another type of the pool.
func (g *Generator) changeStatements(t *Test) bool {
	n := t.Len()
	changed := false
	for i := 0; i < t.Len(); i++ {
		if g.Rnd.Float64() >= 1.0/float64(n) {
			continue
		}
		if g.changeStatement(t, i) {
			changed = true
		}
	}
	return changed
}

func (g *Generator) changeStatement(t *Test, i int) bool {
	if _, ok := feedsInterface(t, i); ok && g.Rnd.Float64() < g.Cfg.Retype && g.retype(t, i) {
		return true
	}
	s := &t.Stmts[i]
	switch s.Op.Kind {
	case OpPrim:
		s.Value = g.mutateLiteral(s.Op.Type, s.Value)
		return true
	case OpFunc:
		lit, _ := s.Value.(FuncLit)
		s.Value = g.mutateFunc(s.Op, lit)
		return true
	case OpNil, OpZero, OpTarget, OpGlobal, OpTempDir:
		return false
	case OpChan:
		if ch := s.Op.Type.Underlying().(*types.Chan); ch.Dir() == types.SendOnly {
			return false
		}
	}
	if len(s.Args) == 0 {
		return false
	}
	k := g.Rnd.Intn(len(s.Args))
	want := s.Op.ArgType(k)
	if s.Op.Kind == OpComposite && !s.Args[k].IsOmitted() && g.Rnd.Float64() < 0.2 {
		s.Args[k] = Omitted
		return true
	}
	// Another existing value, or a new one built just before.
	if r, ok := g.ValueBefore(t, i, want, want); ok && g.Rnd.Float64() < 0.5 && r != s.Args[k] {
		s.Args[k] = r
		return true
	}
	if g.C.Height(want) > g.C.MaxDepth-1 {
		return false
	}
	ref, moved := g.BuildValue(t, i, want)
	// The statement moved down by the insertions.
	t.Stmts[i+moved].Args[k] = ref
	return true
}

// mutateLiteral changes a literal: numbers by a small delta, by a
// constant of the pool, or at random, and integers now and then to a
// limit of their type; strings by inserting, deleting or replacing a
// character, repeating a short run, or from the pool.
func (g *Generator) mutateLiteral(t types.Type, v any) any {
	switch x := v.(type) {
	case bool:
		return !x
	case int64:
		kind := t.Underlying().(*types.Basic).Kind()
		switch r := g.Rnd.Float64(); {
		case r < extremeMutation:
			return g.intLimit(kind)
		case r < 0.6:
			return clampInt(x+g.delta(), kind)
		default:
			return g.literal(t)
		}
	case uint64:
		switch r := g.Rnd.Float64(); {
		case r < extremeMutation:
			return clampUint(math.MaxUint64, t.Underlying().(*types.Basic).Kind())
		case r < 0.6:
			d := g.delta()
			if d < 0 && uint64(-d) > x {
				return uint64(0)
			}
			return clampUint(uint64(int64(x)+d), t.Underlying().(*types.Basic).Kind())
		}
		return g.literal(t)
	case float64:
		if g.Rnd.Float64() < 0.6 {
			return x + float64(g.delta())*math.Pow(10, float64(g.Rnd.Intn(3)-1))
		}
		return g.literal(t)
	case string:
		return g.mutateString(t, x)
	}
	return g.literal(t)
}

// extremeMutation is the probability that mutation sets an integer to
// a limit of its type, as a fuzzer substitutes its interesting values:
// a test that already builds the right state (two order lines, both in
// stock) is one step from the overflow the state can reach.
const extremeMutation = 0.05

// maxInsertedConstant bounds the constants a string mutation inserts.
const maxInsertedConstant = 16

// delta is a random step: ±1 often, larger sometimes.
func (g *Generator) delta() int64 {
	d := int64(1 + g.Rnd.Intn(10))
	if g.Rnd.Float64() < 0.3 {
		d = int64(1 + g.Rnd.Intn(g.Cfg.MaxInt))
	}
	if g.Rnd.Intn(2) == 0 {
		return -d
	}
	return d
}

func (g *Generator) mutateString(t types.Type, s string) string {
	if g.Rnd.Float64() < 0.2 {
		return g.literal(t).(string)
	}
	b := []byte(s)
	switch op := g.Rnd.Intn(4); {
	case op == 0 && len(b) > 0: // delete
		i := g.Rnd.Intn(len(b))
		b = append(b[:i], b[i+1:]...)
	case op == 1 && len(b) > 0: // replace
		b[g.Rnd.Intn(len(b))] = g.char()
	case op == 2 && len(b) > 0 && len(b) < 4*g.Cfg.MaxString:
		b = g.repeatSpan(b)
	default: // insert a character, or a constant of R and E
		if len(b) < 4*g.Cfg.MaxString {
			i := g.Rnd.Intn(len(b) + 1)
			ins := []byte{g.char()}
			if k := g.C.Constants.Strings; len(k) > 0 && g.Rnd.Float64() < g.Cfg.ConstantInsert {
				// A keyword or operator of the code under test, as a
				// fuzzer's dictionary: "abs" into "(1)" gives "abs(1)",
				// which no sequence of single characters reaches without
				// a gradient.
				if w := g.shortConstant(k); w != "" && len(w) <= maxInsertedConstant {
					ins = []byte(w)
				}
			}
			b = append(b[:i], append(ins, b[i:]...)...)
		}
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// shortConstant draws two constants and returns the shorter: the
// operators, keywords and punctuation a parser matches are short, its
// messages long.
func (g *Generator) shortConstant(k []string) string {
	a, b := k[g.Rnd.Intn(len(k))], k[g.Rnd.Intn(len(k))]
	if len(b) < len(a) {
		return b
	}
	return a
}

// char draws a character for string mutation: with probability
// ConstantInsert one of the character literals of R and E, the bytes a
// lexer or parser compares its input with ('(' and ',' make a call of two
// arguments out of "max(1)"); otherwise one of the alphabet.
func (g *Generator) char() byte {
	if k := g.C.Constants.Chars; len(k) > 0 && g.Rnd.Float64() < g.Cfg.ConstantInsert {
		return k[g.Rnd.Intn(len(k))][0]
	}
	return stringAlphabet[g.Rnd.Intn(len(stringAlphabet))]
}

// maxRepeatedSpan bounds the run of bytes a string mutation repeats.
const maxRepeatedSpan = 4

// repeatSpan repeats a short run of b in place, up to MaxString times:
// "0x1f" becomes "0x1fffffffffffffffff". Inputs too long for their type
// (a number of 17 hex digits, a name past a length limit) take many
// insertions of single characters, each of which the search must keep
// without a gradient; this takes one step, as a fuzzer's repeated-bytes
// mutation does.
func (g *Generator) repeatSpan(b []byte) []byte {
	i := g.Rnd.Intn(len(b))
	n := 1 + g.Rnd.Intn(min(maxRepeatedSpan, len(b)-i))
	span := append([]byte(nil), b[i:i+n]...)
	times := 1 + g.Rnd.Intn(g.Cfg.MaxString)
	if room := 4*g.Cfg.MaxString - len(b); times*n > room {
		times = max(1, room/n)
	}
	out := make([]byte, 0, len(b)+times*n)
	out = append(out, b[:i+n]...)
	for k := 0; k < times; k++ {
		out = append(out, span...)
	}
	return append(out, b[i+n:]...)
}

// insertStatements inserts statements at random positions while
// U <= 0.5^k: an API call (covering functions preferred), or a call of a
// method of R on a value the test already has, or a field assignment.
func (g *Generator) insertStatements(t *Test) bool {
	changed := false
	for k := 1; g.Rnd.Float64() <= math.Pow(0.5, float64(k-1)) && t.Len() < g.Cfg.MaxLen; k++ {
		pos := g.Rnd.Intn(t.Len() + 1)
		switch r := g.Rnd.Float64(); {
		case r < 0.1:
			if g.insertFieldSet(t, pos) {
				changed = true
				continue
			}
		case r < 0.1+g.Cfg.SetUpCalls:
			if g.InsertMethodCall(t, pos) {
				changed = true
				continue
			}
		case r < 0.1+g.Cfg.SetUpCalls+g.Cfg.CloneUses:
			if g.cloneUses(t) {
				changed = true
				continue
			}
		}
		g.InsertCall(t, g.PickAPI(), pos)
		changed = true
	}
	return changed
}

// cloneUses repeats what a test does with one of its literals, with a
// variant of the literal: after s := "tea", cart.AddItem(s, 1, 450) and
// stock.Add(s, 1), it inserts s2 := "tex" and, after each call that takes
// s, the same call taking s2. The copies keep every other argument,
// receivers included, so they act on the same objects: a second cart line
// that is also in stock. States that need several entries (two lines whose
// prices overflow together, a map with two keys) are out of reach of single
// insertions, which must each leave the test consistent to survive.
func (g *Generator) cloneUses(t *Test) bool {
	var lits []int
	var uses [][]int
	for i, s := range t.Stmts {
		if s.Op.Kind != OpPrim {
			continue
		}
		if u := callUsers(t, i); len(u) > 0 {
			lits, uses = append(lits, i), append(uses, u)
		}
	}
	if len(lits) == 0 || t.Len() >= g.Cfg.MaxLen {
		return false
	}
	k := g.Rnd.Intn(len(lits))
	lit, users := lits[k], uses[k]
	orig := t.Stmts[lit]
	variant := &inserter{g: g, t: t, pos: lit + 1}
	clone := variant.add(Stmt{Op: orig.Op, Value: g.mutateLiteral(orig.Op.Type, orig.Value)})
	for k, u := range users {
		u += 1 + k // shifted by the variant and the copies before it
		if t.Len() >= g.Cfg.MaxLen {
			break
		}
		s := t.Stmts[u]
		args := append([]Ref(nil), s.Args...)
		for a := range args {
			if !args[a].IsOmitted() && args[a].Stmt == lit {
				args[a] = Ref{Stmt: clone}
			}
		}
		ins := &inserter{g: g, t: t, pos: u + 1}
		ins.add(Stmt{Op: s.Op, Args: args, Value: s.Value})
	}
	return true
}

// callUsers lists the calls and field sets that take statement i's value
// as an argument.
func callUsers(t *Test, i int) []int {
	var users []int
	for j := i + 1; j < t.Len(); j++ {
		s := t.Stmts[j]
		if s.Op.Kind != OpCall && s.Op.Kind != OpFieldSet {
			continue
		}
		for _, a := range s.Args {
			if !a.IsOmitted() && a.Stmt == i {
				users = append(users, j)
				break
			}
		}
	}
	return users
}

// insertFieldSet assigns an exported field of a struct the test points to.
func (g *Generator) insertFieldSet(t *Test, pos int) bool {
	var cands []Ref
	for i := 0; i < pos && i < t.Len(); i++ {
		for r, out := range t.Stmts[i].Op.Outputs() {
			if len(g.C.FieldSets(out)) > 0 {
				cands = append(cands, Ref{Stmt: i, Result: r})
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	obj := cands[g.Rnd.Intn(len(cands))]
	sets := g.C.FieldSets(t.Stmts[obj.Stmt].Op.Outputs()[obj.Result])
	op := sets[g.Rnd.Intn(len(sets))]
	ins := &inserter{g: g, t: t, pos: pos}
	val := ins.value(op.Params[1], 1)
	ins.add(Stmt{Op: op, Args: []Ref{obj, val}})
	return true
}
