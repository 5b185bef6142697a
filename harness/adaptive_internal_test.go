package harness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Buckets are quarters of a binary order of magnitude of microseconds,
// and a bucket's upper bound is above every duration in it.
func TestBuckets(t *testing.T) {
	for _, tc := range []struct {
		d      time.Duration
		bucket int
		upper  time.Duration
	}{
		{0, 0, time.Microsecond},
		{3 * time.Microsecond, 3, 4 * time.Microsecond},
		{4 * time.Microsecond, 4, 5 * time.Microsecond},
		{7 * time.Microsecond, 7, 8 * time.Microsecond},
		{8 * time.Microsecond, 8, 10 * time.Microsecond},
		{100 * time.Microsecond, 22, 112 * time.Microsecond},
		{1000 * time.Microsecond, 35, 1024 * time.Microsecond},
		{1024 * time.Microsecond, 36, 1280 * time.Microsecond},
		{3 * time.Millisecond, 41, 3072 * time.Microsecond},
		{time.Second, 75, 1048576 * time.Microsecond},
	} {
		assert.Equal(t, tc.bucket, bucketOf(tc.d), "%v", tc.d)
		assert.Equal(t, tc.upper, upper(tc.bucket), "%v", tc.d)
		assert.Greater(t, upper(tc.bucket), tc.d)
	}
}

// The limit is 50 ms until 32 tests ended, then ten times the 99th
// percentile, within the floor and the timeout.
func TestAdaptiveLimit(t *testing.T) {
	var h histogram
	floor, timeout := 10*time.Millisecond, time.Second
	assert.Equal(t, initialCut, h.limit(floor, timeout))
	for i := 0; i < 99; i++ {
		h.add(100 * time.Microsecond) // bucket [96, 112) µs
	}
	assert.Equal(t, 10*time.Millisecond, h.limit(floor, timeout), "10 × 112 µs is below the floor")
	h.add(3 * time.Millisecond)
	assert.Equal(t, 112*time.Microsecond, h.percentile(0.99))
	for i := 0; i < 100; i++ {
		h.add(3 * time.Millisecond) // bucket [2560, 3072) µs
	}
	assert.Equal(t, 30720*time.Microsecond, h.limit(floor, timeout))
	h.add(time.Minute)
	assert.Equal(t, 30720*time.Microsecond, h.limit(floor, timeout), "one outlier is above the 99th percentile")
	assert.Equal(t, 20*time.Millisecond, h.limit(floor, 20*time.Millisecond), "never above the timeout")
}
