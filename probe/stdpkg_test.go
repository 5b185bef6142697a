package probe

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckInstrumentable(t *testing.T) {
	cases := []struct {
		paths []string
		err   string
	}{
		{[]string{"example.com/shop/checkout", "example.com/shop/pricing"}, ""},
		{[]string{"example.com/shop/checkout", "net/url"}, ""},
		{[]string{"example.com/shop/checkout", "sort"}, ""},
		{[]string{"example.com/shop/checkout", "strconv"}, "cannot put probes into strconv: cling's probe runtime imports it ("},
		{[]string{"example.com/shop/checkout", "unicode/utf8"}, "cannot put probes into unicode/utf8: cling's probe runtime imports it through "},
	}
	for _, tc := range cases {
		err := CheckInstrumentable(context.Background(), t.TempDir(), tc.paths...)
		if tc.err == "" {
			assert.NoError(t, err, tc.paths)
			continue
		}
		require.Error(t, err, tc.paths)
		assert.Contains(t, err.Error(), tc.err)
	}
}
