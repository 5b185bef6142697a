package checkout

import "example.com/shop/money"

// DefaultItemGrams is the weight assumed for items without a known weight.
const DefaultItemGrams = 250

// ShippingPolicy decides the shipping cost of an order. All amounts are in
// minor units of the order currency.
type ShippingPolicy struct {
	// FreeAboveCents makes shipping free for orders whose discounted total
	// is at least this amount. Zero disables free shipping.
	FreeAboveCents int64
	// BaseCents is charged for every non-free shipment.
	BaseCents int64
	// ItemsIncluded items are covered by BaseCents; each further item costs
	// PerItemCents.
	ItemsIncluded int
	PerItemCents  int64
	// Shipments heavier than HeavyGrams cost HeavySurchargeCents extra, and
	// shipments heavier than twice HeavyGrams cost it twice.
	HeavyGrams          int
	HeavySurchargeCents int64
}

// DefaultShipping is the policy used by carts created with NewCart.
var DefaultShipping = ShippingPolicy{
	FreeAboveCents:      10000,
	BaseCents:           495,
	ItemsIncluded:       3,
	PerItemCents:        100,
	HeavyGrams:          5000,
	HeavySurchargeCents: 1000,
}

// Cost returns the shipping cost for an order with the given discounted
// total, number of items and weight.
func (p ShippingPolicy) Cost(total money.Money, items, grams int) (money.Money, error) {
	if p.FreeAboveCents > 0 && total.Cents() >= p.FreeAboveCents {
		return money.New(0, total.Currency())
	}
	cents := p.BaseCents
	if items > p.ItemsIncluded {
		cents += int64(items-p.ItemsIncluded) * p.PerItemCents
	}
	if p.HeavyGrams > 0 {
		switch {
		case grams > 2*p.HeavyGrams:
			cents += 2 * p.HeavySurchargeCents
		case grams > p.HeavyGrams:
			cents += p.HeavySurchargeCents
		}
	}
	return money.New(cents, total.Currency())
}
