package calc_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"example.com/cpubound/calc"
)

var vars = calc.Vars{"x": 3, "y": -2.5, "z": 0, "rate": 0.25, "n": 1000}

func TestEval(t *testing.T) {
	tests := []struct {
		src  string
		want float64
	}{
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		{"2 ** 3 ** 2", 512},
		{"-2 ** 2", 4},
		{"0x1F + 1_000 + 2.5e1 + .5", 1056.5},
		{"x > 2 && y < 0 ? n * rate : -1", 250},
		{"z || 0", 0},
		{"!z + !x", 1},
		{"min(4, x, 7) + max(1, 2) + abs(y)", 7.5},
		{"clamp(n, 0, 10) + floor(2.75) + sqrt(16)", 16},
		{`len("a\"b\n") + len('xyz')`, 7},
		{"10 % 4 # the remainder\n + 1", 3},
		{"x == 3 ? y != 2 ? 1 : 2 : 3", 1},
	}
	for _, tc := range tests {
		got, err := calc.Eval(tc.src, vars)
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Eval(%q) = %g, want %g", tc.src, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "0: unexpected end of input"},
		{"1 +", "3: unexpected end of input"},
		{"(1 + 2", `6: expected ")", found end of input`},
		{"1 2", `2: unexpected number "2" after expression`},
		{"3 $ 4", `2: unexpected character '$'`},
		{"1e+", "0: exponent without digits"},
		{"0x", "0: hexadecimal number without digits"},
		{"12abc", `0: letter 'a' after number`},
		{`"abc`, "0: unterminated string"},
		{`"a\qb"`, `0: unknown escape \q`},
		{"foo(1)", "0: unknown function foo"},
		{"min()", "0: min: wrong number of arguments (0)"},
		{"x ? 1", `5: expected ":", found end of input`},
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), "200: expression nested too deeply"},
		{"1 / z", "division by zero"},
		{"w + 1", "undefined variable w"},
		{"sqrt(y)", "sqrt of negative number -2.5"},
		{`"s" + 1`, `string "s" used as a number`},
		{"len(x)", "len wants a string"},
	}
	for _, tc := range tests {
		_, err := calc.Eval(tc.src, vars)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Eval(%q): error %v, want %s", tc.src, err, tc.want)
		}
	}
}

// TestRandomExpressions is a property test: random expression trees are
// printed with random spacing, comments and redundant parentheses, parsed
// and evaluated, and the result is compared with a direct evaluation of the
// tree. It is deliberately CPU-bound (cling's probe-overhead benchmark runs
// it).
func TestRandomExpressions(t *testing.T) {
	g := &gen{state: 0x9E3779B97F4A7C15}
	var p calc.Parser
	const count = 20000
	errs := 0
	for i := 0; i < count; i++ {
		tree := g.expr(6)
		var sb strings.Builder
		g.print(&sb, tree, false)
		src := sb.String()
		want, wantErr := tree.eval()
		e, err := p.Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		got, err := e.Eval(vars)
		switch {
		case wantErr != nil && err == nil:
			t.Fatalf("Eval(%q) = %g, want error %v", src, got, wantErr)
		case wantErr == nil && err != nil:
			t.Fatalf("Eval(%q): %v, want %g", src, err, want)
		case wantErr != nil:
			errs++
			if errors.Is(wantErr, calc.ErrDivisionByZero) != errors.Is(err, calc.ErrDivisionByZero) {
				t.Fatalf("Eval(%q): error %v, want %v", src, err, wantErr)
			}
		case got != want && !(math.IsNaN(got) && math.IsNaN(want)):
			t.Fatalf("Eval(%q) = %g, want %g", src, got, want)
		}
		// A damaged copy must fail cleanly or evaluate, never panic.
		if bad := g.damage(src); bad != src {
			if e, err := p.Parse(bad); err == nil {
				e.Eval(vars)
			}
		}
	}
	t.Logf("%d expressions, %d evaluation errors", count, errs)
	if errs == 0 || errs == count {
		t.Errorf("%d of %d expressions failed to evaluate; the generator is off", errs, count)
	}
}

// tree is a generated expression.
type tree struct {
	op   string // "num", "var", "str", "neg", "not", "?", "call", or a binary operator
	val  float64
	text string // literal source text, variable or function name
	kids []*tree
}

var (
	errDiv   = fmt.Errorf("ref: %w", calc.ErrDivisionByZero)
	errOther = errors.New("ref: other error")
)

func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// eval is the reference semantics, mirroring calc's evaluation order.
func (t *tree) eval() (float64, error) {
	switch t.op {
	case "num":
		return t.val, nil
	case "var":
		v, ok := vars[t.text]
		if !ok {
			return 0, errOther
		}
		return v, nil
	case "str":
		return 0, errOther
	case "neg", "not":
		x, err := t.kids[0].eval()
		if err != nil {
			return 0, err
		}
		if t.op == "not" {
			return truth(x == 0), nil
		}
		return -x, nil
	case "?":
		c, err := t.kids[0].eval()
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return t.kids[1].eval()
		}
		return t.kids[2].eval()
	case "call":
		if t.text == "len" {
			if t.kids[0].op != "str" {
				return 0, errOther
			}
			return t.kids[0].val, nil
		}
		var args []float64
		for _, k := range t.kids {
			x, err := k.eval()
			if err != nil {
				return 0, err
			}
			args = append(args, x)
		}
		switch t.text {
		case "abs":
			return math.Abs(args[0]), nil
		case "floor":
			return math.Floor(args[0]), nil
		case "sqrt":
			if args[0] < 0 {
				return 0, errOther
			}
			return math.Sqrt(args[0]), nil
		case "min", "max":
			m := args[0]
			for _, x := range args[1:] {
				if (t.text == "min" && x < m) || (t.text == "max" && x > m) {
					m = x
				}
			}
			return m, nil
		case "clamp":
			if args[1] > args[2] {
				return 0, errOther
			}
			return math.Max(args[1], math.Min(args[0], args[2])), nil
		}
		panic("unknown function " + t.text)
	}
	x, err := t.kids[0].eval()
	if err != nil {
		return 0, err
	}
	if t.op == "&&" && x == 0 {
		return 0, nil
	}
	if t.op == "||" && x != 0 {
		return 1, nil
	}
	y, err := t.kids[1].eval()
	if err != nil {
		return 0, err
	}
	switch t.op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/", "%":
		if y == 0 {
			return 0, errDiv
		}
		if t.op == "/" {
			return x / y, nil
		}
		return math.Mod(x, y), nil
	case "**":
		return math.Pow(x, y), nil
	case "==":
		return truth(x == y), nil
	case "!=":
		return truth(x != y), nil
	case "<":
		return truth(x < y), nil
	case "<=":
		return truth(x <= y), nil
	case ">":
		return truth(x > y), nil
	case ">=":
		return truth(x >= y), nil
	case "&&", "||":
		return truth(y != 0), nil
	}
	panic("unknown operator " + t.op)
}

var prec = map[string]int{
	"?": 0, "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4,
	"+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "**": 7, "neg": 8, "not": 8,
}

func (t *tree) prec() int {
	if p, ok := prec[t.op]; ok {
		return p
	}
	return 9
}

// gen generates expressions from a xorshift64* sequence.
type gen struct{ state uint64 }

func (g *gen) next() uint64 {
	g.state ^= g.state >> 12
	g.state ^= g.state << 25
	g.state ^= g.state >> 27
	return g.state * 2685821657736338717
}

func (g *gen) intn(n int) int { return int(g.next() % uint64(n)) }

var (
	binops    = []string{"+", "-", "*", "/", "%", "**", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "+"}
	varNames  = []string{"x", "y", "z", "rate", "n", "x", "y", "n"}
	funcNames = []string{"abs", "floor", "sqrt", "min", "max", "clamp", "len"}
	// strs are string literals (as written) with their decoded lengths.
	strs = []struct {
		lit string
		n   float64
	}{{`""`, 0}, {`'a'`, 1}, {`"hello"`, 5}, {`"tab\tand\nnewline"`, 15}, {`'quote\"d'`, 7}, {`"back\\slash"`, 10}}
)

func (g *gen) expr(depth int) *tree {
	if depth == 0 || g.intn(8) == 0 {
		return g.atom()
	}
	switch r := g.intn(20); {
	case r < 12:
		op := binops[g.intn(len(binops))]
		return &tree{op: op, kids: []*tree{g.expr(depth - 1), g.expr(depth - 1)}}
	case r < 14:
		op := "neg"
		if r == 13 {
			op = "not"
		}
		return &tree{op: op, kids: []*tree{g.expr(depth - 1)}}
	case r < 16:
		return &tree{op: "?", kids: []*tree{g.expr(depth - 1), g.expr(depth - 1), g.expr(depth - 1)}}
	default:
		name := funcNames[g.intn(len(funcNames))]
		t := &tree{op: "call", text: name}
		switch name {
		case "len":
			t.kids = []*tree{g.str()}
		case "min", "max":
			for n := 1 + g.intn(4); n > 0; n-- {
				t.kids = append(t.kids, g.expr(depth-1))
			}
		case "clamp":
			t.kids = []*tree{g.expr(depth - 1), g.expr(depth - 1), g.expr(depth - 1)}
		default:
			t.kids = []*tree{g.expr(depth - 1)}
		}
		return t
	}
}

func (g *gen) str() *tree {
	s := strs[g.intn(len(strs))]
	return &tree{op: "str", text: s.lit, val: s.n}
}

func (g *gen) atom() *tree {
	switch r := g.intn(64); {
	case r < 28:
		v := g.intn(1000)
		switch g.intn(6) {
		case 0:
			return &tree{op: "num", val: float64(v), text: fmt.Sprintf("0x%X", v)}
		case 1:
			return &tree{op: "num", val: float64(v) + 0.25, text: fmt.Sprintf("%d.25", v)}
		case 2:
			return &tree{op: "num", val: float64(v) * 1000, text: fmt.Sprintf("%d_000", v)}
		case 3:
			return &tree{op: "num", val: float64(v) / 4, text: fmt.Sprintf("%de-2", v*25)}
		}
		return &tree{op: "num", val: float64(v), text: fmt.Sprint(v)}
	case r < 30:
		return &tree{op: "num", val: 0, text: "0"}
	case r < 62:
		return &tree{op: "var", text: varNames[g.intn(len(varNames))]}
	case r < 63:
		return &tree{op: "var", text: "w"} // undefined
	}
	return g.str() // a string where a number belongs
}

var spaces = []string{"", " ", " ", " ", "  ", "\t", "\n", " # note\n"}

func (g *gen) space(sb *strings.Builder) { sb.WriteString(spaces[g.intn(len(spaces))]) }

// print writes t as source text, with the parentheses precedence needs
// and, at random, redundant ones.
func (g *gen) print(sb *strings.Builder, t *tree, parens bool) {
	if !parens && g.intn(12) == 0 {
		parens = true
	}
	if parens {
		sb.WriteByte('(')
		g.space(sb)
	}
	switch t.op {
	case "num", "var", "str":
		sb.WriteString(t.text)
	case "neg", "not":
		sb.WriteString(map[string]string{"neg": "-", "not": "!"}[t.op])
		g.space(sb)
		// A literal after a minus is folded into a negative number by
		// the parser; keep it in parentheses so both sides agree on
		// -(x) ** y.
		g.print(sb, t.kids[0], t.kids[0].prec() < 8 || t.kids[0].op == "num")
	case "?":
		g.print(sb, t.kids[0], t.kids[0].prec() == 0)
		g.space(sb)
		sb.WriteString("?")
		g.space(sb)
		g.print(sb, t.kids[1], false)
		g.space(sb)
		sb.WriteString(":")
		g.space(sb)
		g.print(sb, t.kids[2], false)
	case "call":
		sb.WriteString(t.text)
		sb.WriteByte('(')
		for i, k := range t.kids {
			if i > 0 {
				sb.WriteByte(',')
				g.space(sb)
			}
			g.print(sb, k, false)
		}
		sb.WriteByte(')')
	default:
		p := t.prec()
		left, right := t.kids[0].prec() < p, t.kids[1].prec() <= p
		if t.op == "**" {
			left, right = t.kids[0].prec() <= p, t.kids[1].prec() < p
		}
		g.print(sb, t.kids[0], left)
		g.space(sb)
		sb.WriteString(t.op)
		g.space(sb)
		g.print(sb, t.kids[1], right)
	}
	if parens {
		g.space(sb)
		sb.WriteByte(')')
	}
}

// junk are the bytes damage inserts.
const junk = `()+-*/!?:,.#'"\\0x_e$`

// damage deletes, duplicates or replaces one byte of src.
func (g *gen) damage(src string) string {
	if src == "" {
		return src
	}
	i := g.intn(len(src))
	switch g.intn(3) {
	case 0:
		return src[:i] + src[i+1:]
	case 1:
		return src[:i+1] + src[i:]
	}
	return src[:i] + string(junk[g.intn(len(junk))]) + src[i+1:]
}
