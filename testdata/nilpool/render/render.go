// Package render renders counts. Its Renderer has no constructor, and
// the pool its zero value holds is nil: Render panics for a count of 0
// or more. Under the race detector, that panic (in sync.Pool.Get) leaves
// the goroutine that made it without the detector's synchronisation, so
// that the tests after it report races that are not theirs.
package render

import (
	"sync"

	"example.com/nilpool/format"
)

// Renderer renders counts.
type Renderer struct {
	pool *sync.Pool
}

// Render renders a count.
func (r *Renderer) Render(count int) string {
	return "count: " + format.Number(r.pool, count)
}
