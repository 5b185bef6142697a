package mosa

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// DynaMOSA's objectives are the uncovered roots and the uncovered goals
// with a covered parent; with none of those left, all uncovered goals.
func TestDynaMOSATargets(t *testing.T) {
	// 0 and 3 are roots; 1 and 2 depend on 0; 4 depends on 1 or 3; 5 on 4.
	parents := [][]int32{nil, {0}, {0}, nil, {1, 3}, {4}}
	cases := []struct {
		covered []int32
		want    []int32
	}{
		{nil, []int32{0, 3}},
		{[]int32{0}, []int32{1, 2, 3}},
		{[]int32{3}, []int32{0, 4}},
		{[]int32{0, 1}, []int32{2, 3, 4}},
		{[]int32{0, 1, 2, 3, 4}, []int32{5}},
	}
	for _, tc := range cases {
		e := &Engine{Goals: len(parents), Parents: parents}
		e.begin("dynamosa")
		e.archive.Update(testOfLen(1), 0, tc.covered, 1)
		assert.Equal(t, tc.want, targets(e, e.Uncovered()), "covered %v", tc.covered)
	}
	// Goal 1 uncovered while its parent is uncovered and no root is: the
	// graph offers nothing, so every uncovered goal is an objective.
	e := &Engine{Goals: 2, Parents: [][]int32{nil, {0}}}
	e.begin("dynamosa")
	assert.Equal(t, []int32{1}, targets(e, []int32{1}))
	// Without a graph every goal is a root.
	e = &Engine{Goals: 3}
	e.begin("dynamosa")
	assert.Equal(t, []int32{0, 1, 2}, targets(e, e.Uncovered()))
}
