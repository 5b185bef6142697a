// Package catalog keeps the items of a shop and their tags on top of
// package store.
package catalog

import (
	"errors"
	"strings"

	"example.com/faults/store"
)

// Catalog holds recent items, tag counts and an event counter.
type Catalog struct {
	Name   string
	recent *store.Ring
	tags   *store.Index
	events store.Counter
}

// New returns an empty catalog that keeps up to size recent items.
func New(name string, size int) *Catalog {
	return &Catalog{Name: name, recent: store.NewRing(size), tags: store.NewIndex()}
}

// Open returns a catalog named name, which must not be empty, that keeps
// up to size recent items.
func Open(name string, size int) (*Catalog, error) {
	if name == "" {
		return nil, errors.New("catalog: no name")
	}
	return New(name, size), nil
}

// Add adds an item with its tags, separated by commas.
func (c *Catalog) Add(item, tags string) error {
	if item == "" {
		return errors.New("catalog: empty item")
	}
	c.recent.Add(item)
	for _, t := range strings.Split(tags, ",") {
		if t != "" {
			c.tags.Add(t)
		}
	}
	return nil
}

// Recent returns the k-th most recent item (1 is the newest).
func (c *Catalog) Recent(k int) (string, error) {
	if k < 0 || k > c.recent.Len() {
		return "", errors.New("catalog: no such item")
	}
	return c.recent.Get(c.recent.Len() - k)
}

// Pick returns the i-th item, oldest first.
func (c *Catalog) Pick(i int) (string, error) {
	if i > c.recent.Len() {
		return "", errors.New("catalog: no such item")
	}
	return c.recent.Get(i)
}

// Feature marks a tag as featured: it counts twice.
func (c *Catalog) Feature(tag string) int {
	if tag == "" {
		return 0
	}
	return c.tags.Bump(tag)
}

// Popularity is how often tag was used.
func (c *Catalog) Popularity(tag string) int {
	return c.tags.Count(tag)
}

// Difficulty rates a number by the steps of its Collatz sequence;
// negative numbers rate 0.
func Difficulty(n int) int {
	if n < 0 {
		return 0
	}
	if s := store.Steps(n); s > 20 {
		return 2
	} else if s > 5 {
		return 1
	}
	return 0
}

// Announce publishes the number of recent items plus extra.
func (c *Catalog) Announce(extra int) int {
	if extra < 0 {
		return -1
	}
	return store.Publish(c.recent.Len() + extra)
}

// Follow starts a feed of the catalog's news; the caller closes it.
func (c *Catalog) Follow() *store.Feed { return store.NewFeed() }

// Recount counts k batches of events, at most 16.
func (c *Catalog) Recount(k int) int {
	if k <= 0 {
		return 0
	}
	k = min(k, 16)
	return c.events.Recount(k)
}

// Restock adds the quantity written in s to the count of item; s must be
// a number from 0 to 999, or Restock panics.
func (c *Catalog) Restock(item, s string) int {
	q := store.MustQuantity(s)
	for i := 0; i < q && i < 3; i++ {
		c.recent.Add(item)
	}
	return c.recent.Len()
}

// Merge adds the recent items of other to c.
func (c *Catalog) Merge(other *Catalog) int {
	n := other.recent.Len()
	for i := 0; i < n; i++ {
		item, err := other.recent.Get(i)
		if err == nil {
			c.recent.Add(item)
		}
	}
	return n
}

// Tags returns the index that counts the catalog's tags.
func (c *Catalog) Tags() *store.Index { return c.tags }

// Import adds the items of ring r, oldest first, and returns how many it
// added.
func (c *Catalog) Import(r *store.Ring) int {
	n := 0
	for i := 0; i < r.Len(); i++ {
		if item, err := r.Get(i); err == nil {
			c.recent.Add(item)
			n++
		}
	}
	return n
}

// Snapshot is a view of the catalog's names that only Catalog.Snapshot
// makes.
type Snapshot struct{ names []string }

// Snapshot returns the catalog's name as a snapshot.
func (c *Catalog) Snapshot() Snapshot { return Snapshot{names: []string{c.Name}} }

// First returns the first name of the snapshot: a snapshot has one.
func (s Snapshot) First() string { return s.names[0] }

// Label is a title split into words, which only the Title field of a
// Listing hands out.
type Label struct {
	Text  string
	words []string
}

// Listing describes the catalog.
type Listing struct {
	Title Label
	Size  int
}

// Listing returns the catalog's listing, its name as the title.
func (c *Catalog) Listing() Listing {
	return Listing{Title: Label{Text: c.Name, words: strings.Fields(c.Name + " catalog")}, Size: len(c.Name)}
}

// Word returns the title's last word: a title has at least one.
func (l Label) Word() string { return l.words[len(l.words)-1] }

// Heading is a label at a level. It embeds the label, whose words only
// NewHeading fills in.
type Heading struct {
	*Label
	Level int
}

// NewHeading returns the heading of a text at a level.
func NewHeading(text string, level int) *Heading {
	return &Heading{Label: &Label{Text: text, words: strings.Fields(text + " heading")}, Level: level}
}

// Lead returns the heading's first word: a heading has at least one.
func (h *Heading) Lead() string { return h.words[0] }
