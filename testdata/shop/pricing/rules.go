// Package pricing computes quotes for order lines by applying discount rules.
package pricing

import (
	"fmt"

	"example.com/shop/money"
)

// Line is one order line: a quantity of a SKU at a unit price.
type Line struct {
	SKU  string
	Qty  int
	Unit money.Money
}

// Subtotal returns the undiscounted price of the line.
func (l Line) Subtotal() money.Money { return l.Unit.Times(l.Qty) }

// A Rule computes the discount it grants on a line. It reports false when
// it does not apply to the line.
type Rule interface {
	Apply(line Line) (money.Money, bool)
}

// PercentOff grants Pct percent off every line of SKU.
type PercentOff struct {
	SKU string
	Pct int
}

// Apply implements Rule.
func (r PercentOff) Apply(line Line) (money.Money, bool) {
	if line.SKU != r.SKU || r.Pct <= 0 {
		return money.Money{}, false
	}
	pct := r.Pct
	if pct > 100 {
		pct = 100
	}
	return line.Subtotal().MulPercent(pct), true
}

// String describes the rule.
func (r PercentOff) String() string { return fmt.Sprintf("%d%% off %s", r.Pct, r.SKU) }

// BuyXGetY makes Y units free for every X+Y units of SKU bought.
type BuyXGetY struct {
	SKU  string
	X, Y int
}

// Apply implements Rule.
func (r BuyXGetY) Apply(line Line) (money.Money, bool) {
	if line.SKU != r.SKU || r.X <= 0 || r.Y <= 0 {
		return money.Money{}, false
	}
	groups := line.Qty / (r.X + r.Y)
	if groups == 0 {
		return money.Money{}, false
	}
	return line.Unit.Times(groups * r.Y), true
}

// String describes the rule.
func (r BuyXGetY) String() string { return fmt.Sprintf("buy %d get %d %s", r.X, r.Y, r.SKU) }

// Threshold grants Pct percent off any line whose subtotal is at least
// MinCents.
type Threshold struct {
	MinCents int64
	Pct      int
}

// Apply implements Rule.
func (r Threshold) Apply(line Line) (money.Money, bool) {
	sub := line.Subtotal()
	if r.Pct <= 0 || sub.Cents() < r.MinCents {
		return money.Money{}, false
	}
	return sub.MulPercent(r.Pct), true
}

// String describes the rule.
func (r Threshold) String() string { return fmt.Sprintf("%d%% off from %d", r.Pct, r.MinCents) }
