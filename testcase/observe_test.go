package testcase_test

import (
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
)

// The text of an ObsElems observation holds each element as its length,
// a colon and its text; anything else is no list.
func TestElems(t *testing.T) {
	cases := []struct {
		text string
		want []string
		ok   bool
	}{
		{"1:32:-11:0", []string{"3", "-1", "0"}, true},
		{"3:a:b0:2:ü", []string{"a:b", "", "ü"}, true},
		{"0:", []string{""}, true},
		{"", nil, false},
		{"5:abc", nil, false},
		{":a", nil, false},
		{"x:a", nil, false},
		{"-1:a", nil, false},
		{"1:a2", nil, false},
	}
	for _, tc := range cases {
		got, ok := testcase.Elems(tc.text)
		assert.Equal(t, tc.ok, ok, tc.text)
		assert.Equal(t, tc.want, got, tc.text)
	}
}
