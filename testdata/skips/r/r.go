// Package r calls e through an API of which tests outside r can call
// only part, and cling only part of that.
package r

import "example.com/skips/e"

// Plain calls e.F when n is even.
func Plain(n int) int {
	if n%2 == 0 {
		return e.F(n)
	}
	return -1
}

type inner struct{ n int }

// Apply calls e.F with h's number. No test outside r can build an inner.
func Apply(h inner) int {
	if h.n > 0 {
		return e.F(h.n)
	}
	return 0
}

type level int

// SetLevel classifies l. A test outside r can pass a constant.
func SetLevel(l level) int { return e.F(int(l)) }

// Classify classifies the level l points to. A test outside r can pass
// nil.
func Classify(l *level) int {
	if l == nil {
		return -1
	}
	return e.F(int(*l))
}

// Phase classifies the real part of c.
func Phase(c complex128) int { return e.F(int(real(c))) }

// Sum adds numbers of a complex kind.
func Sum[T interface{ ~complex64 | ~complex128 }](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// counter is unexported, and handed out by NewCounter.
type counter struct{ n int }

// NewCounter returns a counter.
func NewCounter() *counter { return &counter{} }

// Add adds n and classifies the sum.
func (c *counter) Add(n int) int {
	c.n += n
	return e.F(c.n)
}

// Merge adds another counter.
func (c *counter) Merge(o *counter) { c.n += o.n }

// Snapshot returns the counter's state.
func (c *counter) Snapshot() state { return state{c.n} }

// state is unexported, and handed out by (*counter).Snapshot.
type state struct{ n int }

// Sign classifies the state.
func (s state) Sign() int { return e.F(s.n) }

// Outer hands out a hidden.
type Outer struct{}

// Inner returns a hidden.
func (Outer) Inner() *hidden { return &hidden{} }

// hidden is unexported, and handed out by Outer.Inner only.
type hidden struct{}

// Do classifies 1.
func (*hidden) Do() int { return e.F(1) }

// reporter is unexported and never handed out: its methods are no part
// of r's API.
type reporter struct{ steps []string }

// Push records a step.
func (r *reporter) Push(s string) { r.steps = append(r.steps, s) }

// Len counts the steps.
func (r reporter) Len() int { return e.F(len(r.steps)) }

// stats is unexported and never handed out.
type stats struct{ n int }

// Append adds two stats.
func (s stats) Append(o stats) stats { return stats{s.n + o.n} }

// Greeter greets.
type Greeter interface{ Greet(name string) int }

type english struct{}

// Greet classifies the name's length.
func (english) Greet(name string) int { return e.F(len(name)) }

// NewGreeter returns a greeter whose type is unexported: tests call its
// method through Greeter.
func NewGreeter() Greeter { return english{} }

// Box holds one value of any type; tests call its methods on a Box of a
// type they pick (Box[int], Box[string]).
type Box[T any] struct {
	v   T
	set bool
}

// Put stores v.
func (b *Box[T]) Put(v T) { b.v, b.set = v, true }

// Held classifies whether the box holds a value.
func (b *Box[T]) Held() int {
	if !b.set {
		return e.F(0)
	}
	return e.F(1)
}

// Cache is what tests hold: the methods they call on it are those of the
// unexported cache it embeds, which Go promotes to *Cache.
type Cache struct{ *cache }

type cache struct{ items map[string]int }

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{&cache{items: map[string]int{}}} }

// Set stores n under k and classifies it.
func (c *cache) Set(k string, n int) int {
	c.items[k] = n
	return e.F(n)
}

// Merge adds another cache's items; no test can pass a *cache.
func (c *cache) Merge(o *cache) {
	for k, n := range o.items {
		c.items[k] += n
	}
}

// Labels embeds the unexported names by value; a test calls Count on a
// Labels it writes itself.
type Labels struct{ names }

type names []string

// Count classifies the number of names.
func (n names) Count() int { return e.F(len(n)) }

// Ring holds the last values pushed. Its zero value has no room: a test
// calls Push on the ring the generic NewRing returns.
type Ring[T any] struct {
	items []T
	next  int
}

// NewRing returns a ring of n values, at least one.
func NewRing[T any](n int) *Ring[T] {
	return &Ring[T]{items: make([]T, max(n, 1))}
}

// Push stores v and classifies where the next value goes.
func (r *Ring[T]) Push(v T) int {
	r.items[r.next] = v
	r.next = (r.next + 1) % len(r.items)
	return e.F(r.next)
}
