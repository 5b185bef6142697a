// Package store keeps items for the catalog. It has faults seeded on
// purpose, each reached only through some of the catalog's valid uses: an
// off-by-one bound check (Ring.Get), a map of lazily initialised state
// that one method forgets to create (Index.Bump), a loop that never ends
// for one input (Steps), a goroutine that outlives its call (Publish) and
// a data race (Recount). A Feed's goroutine runs until the feed is closed,
// as documented. Its explicit panics (MustQuantity) are documented
// behaviour.
package store

import (
	"fmt"
	"strconv"
	"sync"
)

// Ring holds the last items added, up to its capacity.
type Ring struct {
	items []string
	limit int
}

// NewRing returns an empty ring that keeps up to limit items (at least 1).
func NewRing(limit int) *Ring {
	if limit < 1 {
		limit = 1
	}
	return &Ring{limit: limit}
}

// Add adds an item, dropping the oldest one when the ring is full.
func (r *Ring) Add(item string) {
	if len(r.items) == r.limit {
		r.items = r.items[1:]
	}
	r.items = append(r.items, item)
}

// Len is the number of items held.
func (r *Ring) Len() int { return len(r.items) }

// Get returns the i-th item, oldest first.
func (r *Ring) Get(i int) (string, error) {
	if i < 0 || i > len(r.items) { // the fault: i == len(r.items) passes
		return "", fmt.Errorf("store: no item %d of %d", i, len(r.items))
	}
	return r.items[i], nil
}

// Index counts tags. Its map is created by the first Add.
type Index struct {
	counts map[string]int
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{} }

// Add counts one more use of tag.
func (x *Index) Add(tag string) int {
	if x.counts == nil {
		x.counts = map[string]int{}
	}
	x.counts[tag]++
	return x.counts[tag]
}

// Bump counts two more uses of a tag that is already known, or starts
// counting a new one at 2.
func (x *Index) Bump(tag string) int {
	if n, ok := x.counts[tag]; ok {
		x.counts[tag] = n + 2
		return n + 2
	}
	x.counts[tag] = 2 // the fault: the map may not exist yet
	return 2
}

// Count is how often tag was counted.
func (x *Index) Count(tag string) int { return x.counts[tag] }

// Steps counts the steps of the Collatz sequence from n down to 1. It
// never returns for 0, which it does not reject.
func Steps(n int) int {
	steps := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

// Publish sends n to a subscriber that is never there when n is above
// 100: the goroutine that sends outlives the call.
func Publish(n int) int {
	ch := make(chan int)
	go func() { ch <- n }()
	if n > 100 {
		return 0
	}
	return <-ch
}

// Feed delivers news until it is closed; its goroutine runs until then.
type Feed struct {
	stop chan struct{}
	once sync.Once
}

// NewFeed starts a feed; Close stops it.
func NewFeed() *Feed {
	f := &Feed{stop: make(chan struct{})}
	go func() { <-f.stop }()
	return f
}

// Close stops the feed.
func (f *Feed) Close() { f.once.Do(func() { close(f.stop) }) }

// Counter counts events.
type Counter struct {
	n int
}

// Recount adds the events of k batches, counted at once: the batches
// write the count unguarded when there are more than three of them.
func (c *Counter) Recount(k int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k > 3 {
				c.n++ // the fault: a data race
				return
			}
			mu.Lock()
			c.n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return c.n
}

// MustQuantity parses a quantity and panics, with an error, if s is not
// a number from 0 to 999.
func MustQuantity(s string) int {
	q, err := strconv.Atoi(s)
	if err != nil || q < 0 || q > 999 {
		panic(fmt.Errorf("store: bad quantity %q", s))
	}
	return q
}
