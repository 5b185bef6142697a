package mosa

import (
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
)

// testOfLen is a test of n statements (they are empty: only Len matters).
func testOfLen(n int) *testcase.Test {
	return &testcase.Test{Stmts: make([]testcase.Stmt, n)}
}

func TestArchiveKeepsShortest(t *testing.T) {
	a := NewArchive()
	long, short, shorter := testOfLen(5), testOfLen(3), testOfLen(2)
	assert.Equal(t, []int32{0, 1}, a.Update(long, []int32{0, 1}, 1))
	assert.Nil(t, a.Update(short, []int32{1}, 2), "goal 1 is not new")
	assert.Empty(t, a.Update(testOfLen(3), []int32{1}, 3), "same length does not replace")
	assert.Equal(t, []int32{2}, a.Update(shorter, []int32{0, 2}, 4))
	assert.Equal(t, 3, a.Len())
	got := a.Tests()
	assert.Len(t, got, 2)
	assert.Same(t, shorter, got[0].Test)
	assert.Equal(t, []int32{0, 2}, got[0].Goals)
	assert.Same(t, short, got[1].Test)
	assert.Equal(t, []int32{1}, got[1].Goals)
	assert.Equal(t, map[int32]int{0: 1, 1: 1, 2: 4}, a.FirstCovered())

	// The replaced tests are the fallbacks, the most recent first.
	fb := a.Fallbacks([]int32{0, 1, 2}, 0)
	assert.Len(t, fb, 1)
	assert.Same(t, long, fb[0].Test)
	assert.Equal(t, []int32{0, 1}, fb[0].Goals, "goal 2 never had another test")
	assert.Empty(t, a.Fallbacks([]int32{0, 1, 2}, 1))
	a.Update(testOfLen(1), []int32{0}, 5)
	fb = a.Fallbacks([]int32{0}, 1)
	assert.Len(t, fb, 1)
	assert.Same(t, long, fb[0].Test)
	assert.Same(t, shorter, a.Fallbacks([]int32{0}, 0)[0].Test)
}
