package parallel

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEachCallsEveryIndexOnceWithinWidth(t *testing.T) {
	for _, tc := range []struct{ n, width, wantPeak int }{
		{n: 0, width: 3, wantPeak: 0},
		{n: 5, width: 1, wantPeak: 1},
		{n: 2, width: 8, wantPeak: 2},
		{n: 6, width: 0, wantPeak: 1},
	} {
		var mu sync.Mutex
		calls := make([]int, tc.n)
		running, peak := 0, 0
		// Each call waits until width calls run (or all that can), so the
		// peak is exactly the width the pool allows.
		allIn := make(chan struct{})
		var once sync.Once
		want := tc.wantPeak
		Each(tc.n, tc.width, func(i int) {
			mu.Lock()
			calls[i]++
			running++
			peak = max(peak, running)
			if running == want {
				once.Do(func() { close(allIn) })
			}
			mu.Unlock()
			if i < want {
				<-allIn
			}
			mu.Lock()
			running--
			mu.Unlock()
		})
		for i, c := range calls {
			assert.Equal(t, 1, c, "n=%d width=%d: calls of %d", tc.n, tc.width, i)
		}
		assert.Equal(t, tc.wantPeak, peak, "n=%d width=%d", tc.n, tc.width)
	}
}
