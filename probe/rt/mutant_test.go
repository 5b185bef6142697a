//go:build go1.21

package rt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// activate makes mutant id the active one for the rest of the test.
func activate(t *testing.T, id int32) {
	old := activeMutant
	activeMutant = id
	t.Cleanup(func() { activeMutant = old })
}

func TestHelpersInactive(t *testing.T) {
	activate(t, -1)
	assert.Equal(t, 7, Zero(1, 7))
	assert.True(t, Not(1, true))
	assert.Equal(t, 5.5, Num(1, 5.5))
	assert.NoError(t, Err(1, nil))
	assert.Equal(t, 3, Const(1, 4, 3))
	assert.True(t, LT(1, 2, 1, 2))
	assert.True(t, EQ(1, "a", "a"))
	assert.Equal(t, 5, Add(1, 2, 3))
	assert.Equal(t, uint8(8), Shl(1, uint8(1), 3))
	assert.Equal(t, 1, Inc(1, 0))
	assert.Equal(t, -1, Dec(1, 0))
	assert.True(t, Cond(1, 2, true))
	double := func(x int) int { return 2 * x }
	assert.Equal(t, 6, Del(1, double)(3))
	assert.Equal(t, 6, Prop(1, 0, 0, double)(3))
	assert.Equal(t, 6, Ret(1, 0, AltNum, double)(3))
}

func TestHelpersActive(t *testing.T) {
	activate(t, 9)
	type named bool
	assert.Equal(t, 0, Zero(9, 7))
	assert.Nil(t, Zero(9, &struct{}{}))
	assert.Equal(t, named(false), Not(9, named(true)))
	assert.Equal(t, 0.0, Num(9, 5.5))
	assert.Equal(t, uint(1), Num(9, uint(0)))
	assert.Equal(t, ErrMutant, Err(9, nil))
	assert.NoError(t, Err(9, errors.New("x")))
	assert.Equal(t, 4, Const(9, 4, 3))

	cases := []struct {
		name string
		got  bool
		want bool
	}{
		{"< boundary", LT(9, -1, 2, 2), true},
		{"< negated", LT(-1, 9, 1, 2), false},
		{"<= boundary", LE(9, -1, 2, 2), false},
		{">= negated", GE(-1, 9, 3, 2), false},
		{"> boundary", GT(9, -1, 2, 2), true},
		{"== negated", EQ(9, "a", "a"), false},
		{"!= negated", NE(9, 1, 2), false},
		{"removed condition true", Cond(9, -1, false), true},
		{"removed condition false", Cond(-1, 9, true), false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.got, c.name)
	}
	assert.Equal(t, -1, Add(9, 2, 3))
	assert.Equal(t, 5, Sub(9, 2, 3))
	assert.Equal(t, 3, Quo(9, 1, 3))
	assert.Equal(t, 6, Rem(9, 2, 3))
	assert.Equal(t, 3, Or(9, 7, 3))
	assert.Equal(t, uint8(0), Shl(9, uint8(1), 3))
	assert.Equal(t, uint(0), uint(5)+Inc(9, uint(0))-4)
	assert.Equal(t, 1, Dec(9, 0))

	twice := func(a int, b string) (int, error) { return 2 * a, nil }
	n, err := Del(9, twice)(3, "x")
	assert.Equal(t, 0, n)
	assert.NoError(t, err)
	n, _ = Prop(9, 0, 0, twice)(3, "x")
	assert.Equal(t, 3, n)
	n, err = Ret(9, 1, AltErr, twice)(3, "x")
	assert.Equal(t, 6, n)
	assert.Equal(t, ErrMutant, err)
	sum := func(xs ...int) int {
		s := 0
		for _, x := range xs {
			s += x
		}
		return s
	}
	assert.Equal(t, 1, Ret(9, 0, AltNum, sum)())
	assert.Equal(t, 0, Ret(9, 0, AltNum, sum)(1, 2))
	called := false
	Del(9, func() { called = true })()
	assert.False(t, called, "a deleted call does not run")
}

// The baseline's coverage file: tests begin and end, and each mutant is
// written once per test.
func TestMutantCoverageFile(t *testing.T) {
	activate(t, -1)
	path := filepath.Join(t.TempDir(), "cov")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	require.NoError(t, err)
	oldCov, oldSeen, oldEpoch := mutCov, mutSeen, mutEpoch
	mutCov, mutSeen, mutEpoch = f, nil, 0
	t.Cleanup(func() { mutCov, mutSeen, mutEpoch = oldCov, oldSeen, oldEpoch; f.Close() })

	M(3) // before any test
	BeginTest("TestA")
	M(3)
	M(3)
	M(70)
	EndTest("TestA")
	BeginTest("TestB")
	M(3)
	EndTest("TestB")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "M 3\nT TestA\nM 3\nM 70\nE TestA\nT TestB\nM 3\nE TestB\n", string(b))
}
