package pricing

import (
	"errors"
	"fmt"

	"example.com/shop/money"
)

// Errors returned by Engine.Price.
var (
	ErrNoLines     = errors.New("pricing: no lines")
	ErrInvalidLine = errors.New("pricing: invalid line")
)

// QuotedLine is a priced line with the discount of the best applicable rule.
type QuotedLine struct {
	Line
	Subtotal money.Money
	Discount money.Money
	Rule     Rule // nil when no rule applied
}

// Total returns the line subtotal minus its discount.
func (q QuotedLine) Total() money.Money {
	t, err := q.Subtotal.Sub(q.Discount)
	if err != nil {
		return money.Money{}
	}
	return t
}

// Quote is the result of pricing a list of lines.
type Quote struct {
	Lines    []QuotedLine
	Subtotal money.Money
	Discount money.Money
	Total    money.Money
}

// Engine prices lines with a fixed set of rules. For each line, only the
// rule granting the largest discount is used; rules do not stack.
type Engine struct {
	rules []Rule
}

// NewEngine returns an Engine applying rules; nil rules are ignored.
func NewEngine(rules ...Rule) *Engine {
	e := &Engine{}
	for _, r := range rules {
		if r != nil {
			e.rules = append(e.rules, r)
		}
	}
	return e
}

// Price quotes lines. All lines must have a SKU, a positive quantity and a
// unit price in the same currency.
func (e *Engine) Price(lines []Line) (Quote, error) {
	if len(lines) == 0 {
		return Quote{}, ErrNoLines
	}
	cur := lines[0].Unit.Currency()
	zero, err := money.New(0, cur)
	if err != nil {
		return Quote{}, fmt.Errorf("%w: %v", ErrInvalidLine, err)
	}
	q := Quote{Subtotal: zero, Discount: zero}
	for i, l := range lines {
		if l.SKU == "" || l.Qty <= 0 {
			return Quote{}, fmt.Errorf("%w: line %d: sku %q qty %d", ErrInvalidLine, i, l.SKU, l.Qty)
		}
		if l.Unit.Currency() != cur {
			return Quote{}, fmt.Errorf("%w: line %d: %w", ErrInvalidLine, i, money.ErrCurrencyMismatch)
		}
		ql := e.priceLine(l)
		if q.Subtotal, err = q.Subtotal.Add(ql.Subtotal); err != nil {
			return Quote{}, err
		}
		if q.Discount, err = q.Discount.Add(ql.Discount); err != nil {
			return Quote{}, err
		}
		q.Lines = append(q.Lines, ql)
	}
	if q.Total, err = q.Subtotal.Sub(q.Discount); err != nil {
		return Quote{}, err
	}
	return q, nil
}

// priceLine selects the best rule for l and caps its discount at the line
// subtotal.
func (e *Engine) priceLine(l Line) QuotedLine {
	sub := l.Subtotal()
	ql := QuotedLine{Line: l, Subtotal: sub}
	best := int64(0)
	for _, r := range e.rules {
		d, ok := r.Apply(l)
		if !ok || d.Currency() != sub.Currency() {
			continue
		}
		if d.Cents() > best {
			best = d.Cents()
			ql.Rule = r
		}
	}
	if best > sub.Cents() {
		best = sub.Cents()
	}
	ql.Discount = money.MustNew(best, sub.Currency())
	return ql
}
