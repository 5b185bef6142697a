package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSetCover(t *testing.T) {
	cases := []struct {
		name string
		sets [][]int32
		cost []float64
		want [][]int32
	}{
		{
			name: "a test that covers what two others hold replaces them",
			sets: [][]int32{{1}, {1, 2, 3}, {3}},
			cost: []float64{1, 2, 1},
			want: [][]int32{nil, {1, 2, 3}, nil},
		},
		{
			name: "cost decides: two cheap tests beat one dear one",
			sets: [][]int32{{1, 2}, {3, 4}, {1, 2, 3, 4}},
			cost: []float64{1, 1, 5},
			want: [][]int32{{1, 2}, {3, 4}, nil},
		},
		{
			name: "a later pick answers only for what is left",
			sets: [][]int32{{1, 2, 3}, {3, 4}},
			cost: []float64{1, 1},
			want: [][]int32{{1, 2, 3}, {4}},
		},
		{
			name: "the first of equals wins",
			sets: [][]int32{{1}, {1}},
			cost: []float64{1, 1},
			want: [][]int32{{1}, nil},
		},
		{
			name: "a first pick the later picks make redundant is dropped",
			sets: [][]int32{{1, 2, 3, 4}, {1, 2, 5}, {3, 4, 6}},
			cost: []float64{1, 1, 1},
			want: [][]int32{nil, {1, 2, 5}, {3, 4, 6}},
		},
		{
			name: "of two redundant picks the dearer goes",
			sets: [][]int32{{2, 4}, {1, 2, 4, 6}, {1, 5, 6}, {6}},
			cost: []float64{1, 2, 3, 3},
			want: [][]int32{{2, 4}, nil, {1, 5, 6}, nil},
		},
		{
			name: "nothing to cover",
			sets: [][]int32{},
			cost: []float64{},
			want: [][]int32{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, setCover(c.sets, c.cost))
		})
	}
}
