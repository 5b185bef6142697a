package harness

import (
	"math"
	"math/bits"
	"time"

	"github.com/cling-go/cling/probe/rt"
)

// The adaptive limits of Explore: on the time a test runs, cutFactor times
// the 99th percentile of the run times of the tests that ended, once
// minSamples of them have (before, initialCut), never below the floor
// (Options.CutFloor, defaultCutFloor) nor above the timeout; on the CPU
// time a test uses, the same of their CPU times, never below cpuCutFloor
// nor above the first limit. A test's run time grows with the machine's
// load, while the CPU time it uses does not: the second limit and its
// floor can be tighter.
const (
	defaultCutFloor = 10 * time.Millisecond
	cpuCutFloor     = 2 * time.Millisecond
	cutFactor       = 10
	minSamples      = 32
	initialCut      = 50 * time.Millisecond
	// leakCutFloor is the least grace Explore gives the goroutines a
	// test started before they count as a leak; leakCutFactor is smaller
	// than cutFactor, since how long goroutines take to end, as the
	// worker measures it, is mostly the worker's own looking (a goroutine
	// profile, a few sleeps), which does not grow with a test's work.
	leakCutFloor  = 2 * time.Millisecond
	leakCutFactor = 3
	// leakedCut is the grace of Explore once minSamples tests left
	// goroutines running and fewer ended theirs: code whose goroutines
	// never end (a ticker loop its package never stops) would otherwise
	// cost each test the full grace.
	leakedCut = 10 * time.Millisecond
)

// histogram counts run times in buckets of a quarter of a binary order of
// magnitude of microseconds.
type histogram struct {
	counts [4 * 64]int
	total  int
}

// bucketOf returns the bucket of d: 4·log2(µs), rounded down.
func bucketOf(d time.Duration) int {
	us := uint64(d / time.Microsecond)
	if us < 4 {
		return int(us)
	}
	e := bits.Len64(us) - 1 // 2^e <= us < 2^(e+1)
	quarter := int(us>>(e-2)) & 3
	return 4*e + quarter - 4
}

// upper returns the smallest duration above every one of bucket b.
func upper(b int) time.Duration {
	if b < 4 {
		return time.Duration(b+1) * time.Microsecond
	}
	e := (b + 4) / 4
	quarter := uint64((b+4)%4) + 1
	return time.Duration((4+quarter)<<(e-2)) * time.Microsecond
}

func (h *histogram) add(d time.Duration) {
	h.counts[bucketOf(d)]++
	h.total++
}

// percentile returns an upper bound of the p-th percentile (0 < p < 1):
// of the ⌈p·n⌉-th shortest of the n run times.
func (h *histogram) percentile(p float64) time.Duration {
	if b, ok := rank(h.counts[:], h.total, p); ok {
		return upper(b)
	}
	return 1 << 62 // no sample
}

// rank returns the index of counts that holds the ⌈p·total⌉-th smallest
// of the total samples counts counts by index (0 < p < 1); false if there
// is no sample.
func rank(counts []int, total int, p float64) (int, bool) {
	want := max(int(math.Ceil(p*float64(total))), 1)
	seen := 0
	for i, n := range counts {
		seen += n
		if seen >= want {
			return i, true
		}
	}
	return 0, false
}

// cut returns cutFactor times the 99th percentile, or initialCut before
// minSamples run times.
func (h *histogram) cut() time.Duration {
	if h.total < minSamples {
		return initialCut
	}
	return cutFactor * h.percentile(0.99)
}

// stepCutFloor is the least step cut of Explore under
// Options.Reproducible, in blocks of rt.StepBlock: half a million
// outcomes of one branch, some tens of milliseconds of work.
const stepCutFloor = 8

// blockCounts counts the tests that ended by the blocks of steps they
// took (rt.Trace.StepBlocks), from which Explore's step cut is learned.
type blockCounts struct {
	counts []int
	total  int
}

func (b *blockCounts) add(n uint32) {
	i := min(int(n), 1<<16)
	if i >= len(b.counts) {
		b.counts = append(b.counts, make([]int, i+1-len(b.counts))...)
	}
	b.counts[i]++
	b.total++
}

// stepCut returns the step cut: cutFactor times the 99th percentile of
// the blocks, at least stepCutFloor blocks (also before minSamples
// tests), in steps. The worker keeps the timeout's step bound if it is
// lower.
func (b *blockCounts) stepCut() uint64 {
	blocks := 0
	if b.total >= minSamples {
		n, _ := rank(b.counts, b.total, 0.99)
		blocks = cutFactor * n
	}
	return uint64(max(blocks, stepCutFloor)) * rt.StepBlock
}

// runTimes are the run times and CPU times of the tests that ended, and
// how long the goroutines they started took to end after them; blocks
// counts their steps.
type runTimes struct {
	run, cpu, settle histogram
	blocks           blockCounts
	// leaks counts the tests that left a goroutine running past the
	// grace they were given.
	leaks int
}

func (r *runTimes) add(run, cpu time.Duration) {
	r.run.add(run)
	r.cpu.add(cpu)
}

// limits returns the adaptive limits: on the run time, between floor and
// timeout, and on the CPU time, between cpuCutFloor and the first.
func (r *runTimes) limits(floor, timeout time.Duration) (run, cpu time.Duration) {
	run = min(max(r.run.cut(), floor), timeout)
	return run, min(max(r.cpu.cut(), cpuCutFloor), run)
}

// leakCut returns the adaptive grace of Explore for the goroutines a test
// started: leakCutFactor times the 99th percentile of how long they took
// to end in the tests whose goroutines did, once minSamples of those
// ended, never below leakCutFloor. Before, the executor's full grace (0),
// unless minSamples tests left goroutines running: then leakedCut, or the
// same multiple of how long those that did end took, if longer.
// Executor.Explore's doc says what a leak judged at it means.
func (r *runTimes) leakCut() time.Duration {
	switch {
	case r.settle.total >= minSamples:
		return max(leakCutFactor*r.settle.percentile(0.99), leakCutFloor)
	case r.leaks >= minSamples && r.settle.total > 0:
		return max(leakCutFactor*r.settle.percentile(0.99), leakedCut)
	case r.leaks >= minSamples:
		return leakedCut
	}
	return 0
}
