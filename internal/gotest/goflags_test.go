package gotest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutTrimpath(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"-trimpath", ""},
		{"-mod=mod -trimpath -tags=x", "-mod=mod -tags=x"},
		{"--trimpath -count=1", "-count=1"},
		{"-trimpath=true  -race", "-race"},
		{"-trimpath=false", ""},
		{"-ldflags=-trimpath", "-ldflags=-trimpath"},
		{"-gcflags=all=-N  -mod=vendor", "-gcflags=all=-N -mod=vendor"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, WithoutTrimpath(tc.in), "GOFLAGS=%q", tc.in)
	}
}
