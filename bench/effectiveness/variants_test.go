package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVariants(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want []variant
	}{
		{"mosa+hmx=--crossover=hmx, mosa", []variant{
			{Name: "mosa+hmx", Flags: []string{"--algorithm=mosa", "--crossover=hmx"}, Algorithm: "mosa", given: true},
			{Name: "mosa", Flags: []string{"--algorithm=mosa"}, Algorithm: "mosa"},
		}},
		{"dynamosa+adaptive=--algorithm=dynamosa --secondary=adaptive,dynamosa", []variant{
			{Name: "dynamosa+adaptive", Flags: []string{"--algorithm=dynamosa", "--secondary=adaptive"}, Algorithm: "dynamosa", given: true},
			{Name: "dynamosa", Flags: []string{"--algorithm=dynamosa"}, Algorithm: "dynamosa"},
		}},
		// A separate value, and --algorithm anywhere in FLAGS.
		{"half=--crossover hmx --data-crossover=0.5 --algorithm wsa", []variant{
			{Name: "half", Flags: []string{"--crossover", "hmx", "--data-crossover=0.5", "--algorithm", "wsa"}, Algorithm: "wsa", given: true},
		}},
		// Semicolons separate the variants when FLAGS hold commas.
		{"mosa+cbc=--criteria cbc; mosa+all=--criteria cbc,line,branch --goal-selection all;", []variant{
			{Name: "mosa+cbc", Flags: []string{"--algorithm=mosa", "--criteria", "cbc"}, Algorithm: "mosa", given: true},
			{Name: "mosa+all", Flags: []string{"--algorithm=mosa", "--criteria", "cbc,line,branch", "--goal-selection", "all"}, Algorithm: "mosa", given: true},
		}},
		// A list over several lines, as a shell passes a quoted one.
		{"mosa+cbc=--criteria cbc;\n  mosa+all=--criteria cbc,line\n    --goal-selection all", []variant{
			{Name: "mosa+cbc", Flags: []string{"--algorithm=mosa", "--criteria", "cbc"}, Algorithm: "mosa", given: true},
			{Name: "mosa+all", Flags: []string{"--algorithm=mosa", "--criteria", "cbc,line", "--goal-selection", "all"}, Algorithm: "mosa", given: true},
		}},
		// A boolean flag, then another flag.
		{"x=--force --algorithm=random", []variant{
			{Name: "x", Flags: []string{"--force", "--algorithm=random"}, Algorithm: "random", given: true},
		}},
		{"", nil},
	} {
		got, err := parseVariants(tc.spec)
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.want, got, tc.spec)
	}
	for _, tc := range []struct{ spec, err string }{
		{"mosa,a/b", `-variants: "a/b" is not a variant name (letters, digits, + . _ -)`},
		{"=--crossover=hmx", `-variants: "" is not a variant name (letters, digits, + . _ -)`},
		{"x=", `-variants: x: no flags after '='`},
		{"x=hmx", `-variants: x: "hmx" is not a flag`},
		{"x=--crossover=hmx hmx", `-variants: x: "hmx" is not a flag`},
		{"x=--", `-variants: x: "--" is not a flag`},
		{"x=--seed=3", `-variants: x: the benchmark sets --seed=3 itself`},
		{"x=-j 4", `-variants: x: the benchmark sets -j itself`},
		{"x=--algorithm=mosa --algorithm wsa", `-variants: x: --algorithm twice`},
		{"x=--algorithm=", `-variants: x: --algorithm without a value`},
		{"x=--crossover=hmx --algorithm", `-variants: x: --algorithm without a value`},
	} {
		_, err := parseVariants(tc.spec)
		assert.EqualError(t, err, tc.err, tc.spec)
	}
}

// -algorithms is shorthand for variants named after algorithms; with
// -variants, its variants come first, and no name may repeat.
func TestBenchVariants(t *testing.T) {
	got, err := benchVariants(defaultAlgorithms, "")
	require.NoError(t, err)
	assert.Equal(t, []variant{
		{Name: "mosa", Flags: []string{"--algorithm=mosa"}, Algorithm: "mosa"},
		{Name: "random", Flags: []string{"--algorithm=random"}, Algorithm: "random"},
	}, got)
	assert.True(t, got[0].pure())

	got, err = benchVariants("mosa", "mosa+hmx=--crossover=hmx")
	require.NoError(t, err)
	assert.Equal(t, []string{"mosa", "mosa+hmx"}, variantNames(got))
	assert.False(t, got[1].pure())
	assert.Equal(t, "--algorithm=mosa --crossover=hmx", got[1].flagString())

	for _, tc := range []struct{ algorithms, variants, err string }{
		{"mosa", "mosa=--crossover=hmx", "variant mosa named twice"},
		{"mosa,mosa", "", "variant mosa named twice"},
		{"mosa+hmx", "", `-algorithms: "mosa+hmx" is not an algorithm name (for other configurations use -variants)`},
		{"", " , ", "no variant to run"},
	} {
		_, err := benchVariants(tc.algorithms, tc.variants)
		assert.EqualError(t, err, tc.err, tc.algorithms+" "+tc.variants)
	}
}

func TestChooseBaseline(t *testing.T) {
	vs := func(names ...string) []variant {
		var out []variant
		for _, n := range names {
			out = append(out, variant{Name: n})
		}
		return out
	}
	for _, tc := range []struct {
		vs         []variant
		flag, want string
	}{
		{vs("random", "mosa", "ws"), "", "mosa"},
		{vs("mosa+hmx", "mosa"), "", "mosa"},
		{vs("dynamosa+adaptive", "dynamosa", "dynamosa+performance"), "", "dynamosa+adaptive"},
		{vs("dynamosa+adaptive", "dynamosa", "dynamosa+performance"), "dynamosa", "dynamosa"},
		{vs("mosa", "random"), "random", "random"},
	} {
		got, err := chooseBaseline(tc.vs, tc.flag)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v -baseline %q", variantNames(tc.vs), tc.flag)
	}
	_, err := chooseBaseline(vs("mosa", "random"), "ws")
	assert.EqualError(t, err, "-baseline ws is not among the variants (mosa, random)")
}
