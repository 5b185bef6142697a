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
	assert.Equal(t, []int32{0, 1}, a.Update(long, 0, []int32{0, 1}, 1))
	assert.Nil(t, a.Update(short, 0, []int32{1}, 2), "goal 1 is not new")
	assert.Empty(t, a.Update(testOfLen(3), 0, []int32{1}, 3), "same length does not replace")
	assert.Equal(t, []int32{2}, a.Update(shorter, 0, []int32{0, 2}, 4))
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
	a.Update(testOfLen(1), 0, []int32{0}, 5)
	fb = a.Fallbacks([]int32{0}, 1)
	assert.Len(t, fb, 1)
	assert.Same(t, long, fb[0].Test)
	assert.Same(t, shorter, a.Fallbacks([]int32{0}, 0)[0].Test)
}

// An archive by performance replaces a goal's test only by one that is no
// longer and has a strictly lower performance score.
func TestArchiveByPerformanceKeepsCheaper(t *testing.T) {
	a := NewArchive()
	a.ByPerformance()
	first, shorterDearer, sameLenCheaper, longerCheaper, cheapest := testOfLen(4), testOfLen(3), testOfLen(4), testOfLen(5), testOfLen(2)
	assert.Equal(t, []int32{0}, a.Update(first, 3.5, []int32{0}, 1))
	assert.Empty(t, a.Wants(shorterDearer, 3.6, []int32{0}), "shorter but dearer")
	assert.Empty(t, a.Wants(testOfLen(4), 3.5, []int32{0}), "equal score")
	assert.Empty(t, a.Wants(longerCheaper, 1, []int32{0}), "cheaper but longer")
	assert.Equal(t, []int32{0}, a.Wants(sameLenCheaper, 3.4, []int32{0}), "as long and cheaper")
	a.Update(sameLenCheaper, 3.4, []int32{0}, 2)
	assert.Same(t, sameLenCheaper, a.Tests()[0].Test)
	a.Update(shorterDearer, 3.45, []int32{0}, 3)
	assert.Same(t, sameLenCheaper, a.Tests()[0].Test, "compared with the score of the test it holds now")
	a.Update(cheapest, 2, []int32{0}, 4)
	assert.Same(t, cheapest, a.Tests()[0].Test)
	assert.Same(t, sameLenCheaper, a.Fallbacks([]int32{0}, 0)[0].Test)
}

// Tests are worked out again after every change of the archive, and what
// a caller does to the list it got does not reach the next caller's.
func TestArchiveTestsFollowChanges(t *testing.T) {
	a := NewArchive()
	first, second := testOfLen(3), testOfLen(2)
	a.Update(first, 0, []int32{0, 1}, 1)
	got := a.Tests()
	assert.Len(t, got, 1)
	got[0] = ArchivedTest{}
	assert.Same(t, first, a.Tests()[0].Test, "a caller's change of its list")

	a.Update(second, 0, []int32{1, 2}, 2)
	got = a.Tests()
	assert.Len(t, got, 2)
	assert.Equal(t, ArchivedTest{Test: first, Goals: []int32{0}}, got[0])
	assert.Equal(t, ArchivedTest{Test: second, Goals: []int32{1, 2}}, got[1])

	a.Update(testOfLen(5), 0, []int32{0}, 3) // no change: longer
	assert.Equal(t, got, a.Tests())

	a.Remove([]int32{0})
	assert.Equal(t, []ArchivedTest{{Test: second, Goals: []int32{1, 2}}}, a.Tests())
}
