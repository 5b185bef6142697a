// Package catalog holds the library's books and how many copies of each
// it owns.
package catalog

import (
	"errors"

	"example.com/library/num"
	"example.com/library/text"
)

// MaxCopies is the most copies of one title the library keeps.
const MaxCopies = 20

// Catalog maps normalised titles to copies.
type Catalog struct {
	copies map[string]int
}

// New returns an empty catalog.
func New() *Catalog { return &Catalog{copies: map[string]int{}} }

// Add adds copies of a title, at most MaxCopies in all.
func (c *Catalog) Add(title string, copies int) error {
	if copies <= 0 {
		return errors.New("no copies to add")
	}
	t := text.Normalize(title)
	if t == "" {
		return errors.New("a book needs a title")
	}
	c.copies[t] = num.Clamp(c.copies[t]+copies, 0, MaxCopies)
	return nil
}

// Copies returns the copies of a title.
func (c *Catalog) Copies(title string) int { return c.copies[text.Normalize(title)] }

// Take takes one copy of a title out, and reports whether there was one.
func (c *Catalog) Take(title string) bool {
	t := text.Normalize(title)
	if c.copies[t] == 0 {
		return false
	}
	c.copies[t]--
	return true
}
