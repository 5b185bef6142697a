package testcase

import (
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// String mutation inserts whole constants of the code under test, as a
// fuzzer's dictionary does.
func TestMutateStringInsertsConstants(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ConstantInsert = 1
	g := &Generator{C: &Cluster{Constants: Constants{Strings: []string{"abs"}}}, Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}
	inserted := 0
	for i := 0; i < 300; i++ {
		s := g.mutateString(types.Typ[types.String], "(1)")
		if strings.Contains(s, "abs") && s != "abs" { // "abs": a fresh literal
			inserted++
			assert.Contains(t, []string{"abs(1)", "(abs1)", "(1abs)", "(1)abs"}, s)
		}
	}
	assert.Greater(t, inserted, 50)

	cfg.ConstantInsert = 0
	g.Cfg = cfg
	for i := 0; i < 300; i++ {
		if s := g.mutateString(types.Typ[types.String], "(1)"); s != "abs" {
			assert.NotContains(t, s, "abs")
		}
	}
}

// Repeating a run turns a short hexadecimal literal into one too long for
// 64 bits in a single step; the run repeated is a part of the string, so
// the result keeps the string's prefix and suffix.
func TestRepeatSpan(t *testing.T) {
	cfg := DefaultConfig()
	g := &Generator{Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}
	long := 0
	for i := 0; i < 500; i++ {
		s := string(g.repeatSpan([]byte("0x5")))
		assert.Greater(t, len(s), 3)
		assert.LessOrEqual(t, len(s), 4*cfg.MaxString)
		assert.True(t, strings.HasPrefix(s, "0"), s)
		if strings.HasPrefix(s, "0x") && strings.Trim(s[2:], "5") == "" && len(s) >= 2+17 {
			long++
		}
	}
	assert.Greater(t, long, 10, "17 or more repeated hex digits")

	// The length bound holds for strings already near it.
	near := strings.Repeat("ab", 2*cfg.MaxString-1)
	for i := 0; i < 100; i++ {
		assert.LessOrEqual(t, len(g.repeatSpan([]byte(near))), 4*cfg.MaxString+maxRepeatedSpan)
	}
}

// Cloning the uses of a literal repeats every call that takes it, on the
// same receivers, with a variant of the literal: a second cart line that
// is also in stock.
func TestCloneUses(t *testing.T) {
	str, integer := types.Typ[types.String], types.Typ[types.Int]
	obj := types.NewPointer(types.NewStruct(nil, nil))
	newObj := &Op{Kind: OpCall, Name: "New", Results: []types.Type{obj}}
	add := &Op{Kind: OpCall, Name: "(*T).Add", Method: true, Params: []types.Type{obj, str, integer}}
	lit := &Op{Kind: OpPrim, Name: "string", Type: str}
	num := &Op{Kind: OpPrim, Name: "int", Type: integer}
	orig := &Test{Stmts: []Stmt{
		{Op: newObj},               // 0: cart
		{Op: newObj},               // 1: stock
		{Op: lit, Value: "tea"},    // 2
		{Op: num, Value: int64(1)}, // 3
		{Op: add, Args: []Ref{{0, 0}, {2, 0}, {3, 0}}}, // 4: cart.Add(s, n)
		{Op: add, Args: []Ref{{1, 0}, {2, 0}, {3, 0}}}, // 5: stock.Add(s, n)
	}}
	g := &Generator{C: &Cluster{}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(3))}
	sawString := false
	for i := 0; i < 50; i++ {
		tc := orig.Clone()
		require.True(t, g.cloneUses(tc))
		require.NoError(t, tc.Valid())
		if tc.Stmts[3].Op == num {
			// The int was cloned: n2 after n, then a copy after each Add.
			assert.Equal(t, []Ref{{0, 0}, {2, 0}, {4, 0}}, tc.Stmts[6].Args)
			assert.Equal(t, []Ref{{1, 0}, {2, 0}, {4, 0}}, tc.Stmts[8].Args)
			continue
		}
		sawString = true
		require.Equal(t, 9, tc.Len(), "\n%s", tc)
		assert.Equal(t, lit, tc.Stmts[3].Op)
		assert.Equal(t, []Ref{{0, 0}, {2, 0}, {4, 0}}, tc.Stmts[5].Args, "cart.Add(s, n)")
		assert.Equal(t, []Ref{{0, 0}, {3, 0}, {4, 0}}, tc.Stmts[6].Args, "cart.Add(s2, n)")
		assert.Equal(t, []Ref{{1, 0}, {2, 0}, {4, 0}}, tc.Stmts[7].Args, "stock.Add(s, n)")
		assert.Equal(t, []Ref{{1, 0}, {3, 0}, {4, 0}}, tc.Stmts[8].Args, "stock.Add(s2, n)")
	}
	assert.True(t, sawString)

	// A test whose literals nobody calls with has nothing to clone.
	bare := &Test{Stmts: []Stmt{{Op: lit, Value: "x"}, {Op: newObj}}}
	assert.False(t, g.cloneUses(bare))
}

// Character literals of the code under test become single-character
// strings for string mutation; they stay integer constants too.
func TestConstantsChars(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "lex.go", `package lex
import "strings"
var ops = strings.Split("+ -", " ")
func kind(c byte) int {
	switch c {
	case '(', ',':
		return 1
	case '\n', 'é':
		return 2
	}
	return int(c - '0') + 7
}`, 0)
	require.NoError(t, err)
	var k Constants
	k.Add(f)
	assert.Equal(t, []string{"(", ",", "0"}, k.Chars, "printable ASCII only")
	assert.Equal(t, []string{"+ -", " "}, k.Strings, "no import paths")
	assert.Equal(t, []int64{'(', ',', 1, '\n', 'é', 2, '0', 7}, k.Ints)

	g := &Generator{C: &Cluster{Constants: k}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(1))}
	g.Cfg.ConstantInsert = 1
	for i := 0; i < 50; i++ {
		assert.Contains(t, "(,0", string(g.char()))
	}
}

// Numbers in text include floats of every magnitude float64 has, never
// an infinity.
func TestFloatText(t *testing.T) {
	g := &Generator{C: &Cluster{}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(1))}
	var small, large, huge int
	for i := 0; i < 2000; i++ {
		s := g.floatText()
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, s)
		require.False(t, math.IsInf(f, 0) || strings.Contains(s, "Inf"), s)
		switch a := math.Abs(f); {
		case a >= 1e-4 && a < 1e7:
			small++
		case a >= 1e300:
			huge++
		default:
			large++
		}
	}
	assert.Greater(t, small, 800, "everyday magnitudes")
	assert.Greater(t, large, 800, "large and tiny exponents")
	assert.Greater(t, huge, 5, "near float64's limit")
}

// Mutating an integer sometimes jumps to a limit of its type, clamped to
// the type's range.
func TestMutateIntegerToLimit(t *testing.T) {
	g := &Generator{C: &Cluster{}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(1))}
	limits := map[any]int{}
	for i := 0; i < 2000; i++ {
		switch v := g.mutateLiteral(types.Typ[types.Int8], int64(5)).(type) {
		case int64:
			require.True(t, v >= math.MinInt8 && v <= math.MaxInt8, v)
			if v == math.MinInt8 || v == math.MaxInt8 {
				limits[v]++
			}
		}
		if v := g.mutateLiteral(types.Typ[types.Uint16], uint64(5)).(uint64); v == math.MaxUint16 {
			limits["uint16"]++
		}
	}
	for _, k := range []any{int64(math.MinInt8), int64(math.MaxInt8), "uint16"} {
		assert.Greater(t, limits[k], 20, k)
	}
}

// Inserted constants favour short ones: tokens rather than messages.
func TestShortConstant(t *testing.T) {
	g := &Generator{C: &Cluster{}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(1))}
	k := []string{",", "unexpected end of input"}
	short := 0
	for i := 0; i < 1000; i++ {
		if g.shortConstant(k) == "," {
			short++
		}
	}
	assert.InDelta(t, 750, short, 60, "the shorter of two draws: 3/4")
}
