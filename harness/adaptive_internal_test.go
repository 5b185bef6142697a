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

// The limits are 50 ms until 32 tests ended, then ten times the 99th
// percentile of the run times, or of the CPU times, within the floors and
// the timeout.
func TestAdaptiveLimits(t *testing.T) {
	var r runTimes
	floor, timeout := 10*time.Millisecond, time.Second
	limits := func(floor, timeout time.Duration) []time.Duration {
		run, cpu := r.limits(floor, timeout)
		return []time.Duration{run, cpu}
	}
	assert.Equal(t, []time.Duration{initialCut, initialCut}, limits(floor, timeout))
	for i := 0; i < 99; i++ {
		r.add(100*time.Microsecond, 100*time.Microsecond) // bucket [96, 112) µs
	}
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 2 * time.Millisecond}, limits(floor, timeout), "10 × 112 µs is below the floors")
	assert.Equal(t, []time.Duration{1120 * time.Microsecond, 1120 * time.Microsecond}, limits(500*time.Microsecond, timeout), "the CPU limit is never above the other")
	r.add(3*time.Millisecond, 3*time.Millisecond)
	assert.Equal(t, 112*time.Microsecond, r.run.percentile(0.99))
	for i := 0; i < 100; i++ {
		// Run times of a machine under load: bucket [2560, 3072) µs.
		r.add(3*time.Millisecond, 100*time.Microsecond)
	}
	assert.Equal(t, []time.Duration{30720 * time.Microsecond, 2 * time.Millisecond}, limits(floor, timeout))
	for i := 0; i < 100; i++ {
		r.add(3*time.Millisecond, 3*time.Millisecond)
	}
	assert.Equal(t, []time.Duration{30720 * time.Microsecond, 30720 * time.Microsecond}, limits(floor, timeout))
	r.add(time.Minute, time.Minute)
	assert.Equal(t, []time.Duration{30720 * time.Microsecond, 30720 * time.Microsecond}, limits(floor, timeout), "one outlier is above the 99th percentile")
	assert.Equal(t, []time.Duration{20 * time.Millisecond, 20 * time.Millisecond}, limits(floor, 20*time.Millisecond), "never above the timeout")
}

// The grace for goroutines is the executor's full one (0) until 32 tests'
// goroutines ended, then three times the 99th percentile of how long they
// took, never below 2 ms.
func TestAdaptiveLeakCut(t *testing.T) {
	var r runTimes
	for i := 0; i < minSamples-1; i++ {
		r.settle.add(100 * time.Microsecond)
	}
	assert.Equal(t, time.Duration(0), r.leakCut(), "too few samples")
	r.settle.add(100 * time.Microsecond)
	assert.Equal(t, leakCutFloor, r.leakCut(), "3 × 112 µs is below the floor")
	for i := 0; i < 100; i++ {
		r.settle.add(3 * time.Millisecond) // bucket [2560, 3072) µs
	}
	assert.Equal(t, 3*3072*time.Microsecond, r.leakCut())
}

// Where tests leave goroutines running and few end theirs, the grace is
// 10 ms once 32 tests leaked, or three times the 99th percentile of the
// few that ended, if longer; 32 that ended decide as before.
func TestAdaptiveLeakCutWhenGoroutinesNeverEnd(t *testing.T) {
	var r runTimes
	r.leaks = minSamples - 1
	assert.Equal(t, time.Duration(0), r.leakCut(), "too few leaks")
	r.leaks++
	assert.Equal(t, leakedCut, r.leakCut())
	r.settle.add(5 * time.Millisecond) // bucket [4096, 5120) µs
	assert.Equal(t, 3*5120*time.Microsecond, r.leakCut(), "the goroutines that ended took long")
	for i := 0; i < minSamples-1; i++ {
		r.settle.add(100 * time.Microsecond)
	}
	assert.Equal(t, 3*5120*time.Microsecond, r.leakCut(), "the 99th percentile of 32")
	for i := 0; i < 100; i++ {
		r.settle.add(100 * time.Microsecond)
	}
	assert.Equal(t, leakCutFloor, r.leakCut(), "132 samples: the slowest is past the 99th percentile, and the floor is 2 ms")
}

// The step cut is 8 blocks until 32 tests have ended, then ten times the
// 99th percentile of their blocks, never below 8 blocks.
func TestAdaptiveStepCut(t *testing.T) {
	var b blockCounts
	const block = 1 << 16
	for i := 0; i < minSamples-1; i++ {
		b.add(5)
	}
	assert.Equal(t, uint64(8*block), b.stepCut(), "too few samples")
	b.add(5)
	assert.Equal(t, uint64(50*block), b.stepCut())
	for i := 0; i < 4000; i++ {
		b.add(0)
	}
	assert.Equal(t, uint64(8*block), b.stepCut(), "the 99th percentile is 0 blocks: 32 of 4,032 took 5")
	b.add(1 << 20)
	assert.Equal(t, 1<<16+1, len(b.counts), "counts are capped")
}
