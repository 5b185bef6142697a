package testcase

import (
	"go/parser"
	"go/token"
	"go/types"
	"math/rand"
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

// Character literals of the code under test become single-character
// strings for string mutation; they stay integer constants too.
func TestConstantsChars(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "lex.go", `package lex
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
	assert.Equal(t, []int64{'(', ',', 1, '\n', 'é', 2, '0', 7}, k.Ints)

	g := &Generator{C: &Cluster{Constants: k}, Cfg: DefaultConfig(), Rnd: rand.New(rand.NewSource(1))}
	g.Cfg.ConstantInsert = 1
	for i := 0; i < 50; i++ {
		assert.Contains(t, "(,0", string(g.char()))
	}
}
