// Package checkout turns a shopping cart into a receipt, reserving stock and
// pricing the order.
package checkout

import (
	"errors"
	"fmt"

	"example.com/shop/inventory"
	"example.com/shop/money"
	"example.com/shop/pricing"
)

// Errors returned by Cart methods.
var (
	ErrEmptyCart     = errors.New("checkout: cart is empty")
	ErrInvalidItem   = errors.New("checkout: invalid item")
	ErrPriceConflict = errors.New("checkout: item already in cart at another price")
	ErrCheckedOut    = errors.New("checkout: cart already checked out")
	ErrNoStock       = errors.New("checkout: no stock")
	ErrUnknownItem   = errors.New("checkout: item not in cart")
	ErrInvalidWeight = errors.New("checkout: weight must be positive")
)

// Cart collects items in a single currency.
type Cart struct {
	// Shipping is the shipping policy applied at checkout.
	Shipping ShippingPolicy

	currency   string
	lines      []pricing.Line
	index      map[string]int // sku -> position in lines
	grams      map[string]int // sku -> weight of one unit
	checkedOut bool
}

// Receipt is the outcome of a successful checkout.
type Receipt struct {
	Lines    []pricing.QuotedLine
	Subtotal money.Money
	Discount money.Money
	Shipping money.Money
	Total    money.Money
}

// NewCart returns an empty cart for currency using DefaultShipping.
func NewCart(currency string) (*Cart, error) {
	if !money.Supported(currency) {
		return nil, fmt.Errorf("%w: %q", money.ErrUnknownCurrency, currency)
	}
	return &Cart{
		Shipping: DefaultShipping,
		currency: currency,
		index:    make(map[string]int),
		grams:    make(map[string]int),
	}, nil
}

// AddItem adds qty units of sku at unitCents each. Adding a SKU that is
// already in the cart increases its quantity; the unit price must match.
func (c *Cart) AddItem(sku string, qty int, unitCents int64) error {
	if c.checkedOut {
		return ErrCheckedOut
	}
	if sku == "" || qty <= 0 {
		return fmt.Errorf("%w: sku %q qty %d", ErrInvalidItem, sku, qty)
	}
	unit, err := money.New(unitCents, c.currency)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if i, ok := c.index[sku]; ok {
		if c.lines[i].Unit != unit {
			return fmt.Errorf("%w: %s at %s, not %s", ErrPriceConflict, sku, c.lines[i].Unit, unit)
		}
		c.lines[i].Qty += qty
		return nil
	}
	c.index[sku] = len(c.lines)
	c.lines = append(c.lines, pricing.Line{SKU: sku, Qty: qty, Unit: unit})
	return nil
}

// SetWeight records the weight in grams of one unit of sku, which must be in
// the cart.
func (c *Cart) SetWeight(sku string, grams int) error {
	if _, ok := c.index[sku]; !ok {
		return fmt.Errorf("%w: %q", ErrUnknownItem, sku)
	}
	if grams <= 0 {
		return fmt.Errorf("%w: %d", ErrInvalidWeight, grams)
	}
	c.grams[sku] = grams
	return nil
}

// Lines returns a copy of the cart lines.
func (c *Cart) Lines() []pricing.Line {
	return append([]pricing.Line(nil), c.lines...)
}

// ItemCount returns the total number of units in the cart.
func (c *Cart) ItemCount() int {
	n := 0
	for _, l := range c.lines {
		n += l.Qty
	}
	return n
}

// Weight returns the total weight of the cart in grams.
func (c *Cart) Weight() int {
	total := 0
	for _, l := range c.lines {
		g, ok := c.grams[l.SKU]
		if !ok {
			g = DefaultItemGrams
		}
		total += g * l.Qty
	}
	return total
}

// Checkout reserves stock for every line, prices the cart with engine and
// adds shipping. On failure, all reservations made so far are released and
// the cart can be checked out again.
func (c *Cart) Checkout(stock *inventory.Stock, engine *pricing.Engine) (Receipt, error) {
	if c.checkedOut {
		return Receipt{}, ErrCheckedOut
	}
	if len(c.lines) == 0 {
		return Receipt{}, ErrEmptyCart
	}
	if stock == nil {
		return Receipt{}, ErrNoStock
	}
	if engine == nil {
		engine = pricing.NewEngine()
	}
	var reserved []pricing.Line
	for _, l := range c.lines {
		if err := stock.Reserve(l.SKU, l.Qty); err != nil {
			release(stock, reserved)
			return Receipt{}, fmt.Errorf("checkout: reserve %s: %w", l.SKU, err)
		}
		reserved = append(reserved, l)
	}
	r, err := c.receipt(engine)
	if err != nil {
		release(stock, reserved)
		return Receipt{}, err
	}
	c.checkedOut = true
	return r, nil
}

func (c *Cart) receipt(engine *pricing.Engine) (Receipt, error) {
	quote, err := engine.Price(c.lines)
	if err != nil {
		return Receipt{}, fmt.Errorf("checkout: price: %w", err)
	}
	ship, err := c.Shipping.Cost(quote.Total, c.ItemCount(), c.Weight())
	if err != nil {
		return Receipt{}, fmt.Errorf("checkout: shipping: %w", err)
	}
	total, err := quote.Total.Add(ship)
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{
		Lines:    quote.Lines,
		Subtotal: quote.Subtotal,
		Discount: quote.Discount,
		Shipping: ship,
		Total:    total,
	}, nil
}

// release undoes reservations. Errors are impossible for lines that were
// just reserved, so they are ignored.
func release(stock *inventory.Stock, lines []pricing.Line) {
	for _, l := range lines {
		_ = stock.Release(l.SKU, l.Qty)
	}
}
