// Package loans lends the catalog's books to members and charges late
// fees.
package loans

import (
	"errors"

	"example.com/library/catalog"
	"example.com/library/num"
	"example.com/library/text"
)

// Desk lends books from a catalog.
type Desk struct {
	cat   *catalog.Catalog
	loans map[string]string // member -> title
}

// NewDesk returns a desk lending from cat.
func NewDesk(cat *catalog.Catalog) *Desk { return &Desk{cat: cat, loans: map[string]string{}} }

// Lend lends a title to a member who has no book yet.
func (d *Desk) Lend(member, title string) error {
	m := text.Normalize(member)
	if _, ok := d.loans[m]; ok {
		return errors.New("one book at a time")
	}
	if !d.cat.Take(title) {
		return errors.New("no copy left")
	}
	d.loans[m] = title
	return nil
}

// Return takes a book back after days and returns the late fee.
func (d *Desk) Return(member string, days int) (int, error) {
	m := text.Normalize(member)
	title, ok := d.loans[m]
	if !ok {
		return 0, errors.New("nothing lent")
	}
	delete(d.loans, m)
	if err := d.cat.Add(title, 1); err != nil {
		return 0, err
	}
	return LateFee(days), nil
}

// LateFee is the fee for a book returned after days: two a day after
// two weeks, at most 30; a negative number of days is a mistake and free.
func LateFee(days int) int {
	if days < 0 {
		return 0
	}
	return num.Fee(days, 14, 2, 30)
}
