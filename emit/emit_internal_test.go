package emit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBasicLiteral(t *testing.T) {
	tests := []struct {
		v        any
		want     string
		needMath bool
	}{
		{int64(42), "42", false},
		{int64(-7), "-7", false},
		{int64(math.MaxInt64), "math.MaxInt64", true},
		{int64(math.MinInt64), "math.MinInt64", true},
		{int64(math.MaxInt32), "math.MaxInt32", true},
		{int64(math.MinInt32), "math.MinInt32", true},
		{uint64(math.MaxUint64), "math.MaxUint64", true},
		{uint64(math.MaxUint32), "math.MaxUint32", true},
		{uint64(3), "3", false},
		{2.0, "2.0", false},
		{math.Inf(-1), "math.Inf(-1)", true},
		{"a\"b", "`a\"b`", false},
		{`b"\xff"`, "`b\"\\xff\"`", false},
		{"plain", `"plain"`, false},
		{"a\"b\n", `"a\"b\n"`, false},
		{"a`\"", "\"a`\\\"\"", false},
		{true, "true", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, basicLiteral(tt.v), "%#v", tt.v)
		assert.Equal(t, tt.needMath, needsMath(tt.v), "%#v", tt.v)
	}
}

// Bytes that are text read as text; binary data shows its bytes.
func TestBytesLiteral(t *testing.T) {
	cases := []struct{ in, want string }{
		{"10", `"10"`},
		{`say "hi"`, "`say \"hi\"`"},
		{"\x81\xcb?\xc9\x99", `"\x81\xcb?\xc9\x99"`},
		{"\xa5\"\\\n", `"\xa5\"\\\x0a"`},
	}
	for _, tc := range cases {
		if got := bytesLiteral(tc.in); got != tc.want {
			t.Errorf("bytesLiteral(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
