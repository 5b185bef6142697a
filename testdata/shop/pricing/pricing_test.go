package pricing_test

import (
	"errors"
	"testing"

	"example.com/shop/money"
	"example.com/shop/pricing"
)

func line(sku string, qty int, unitCents int64) pricing.Line {
	return pricing.Line{SKU: sku, Qty: qty, Unit: money.MustNew(unitCents, "EUR")}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		rule   pricing.Rule
		line   pricing.Line
		want   int64
		wantOK bool
	}{
		{"percent off", pricing.PercentOff{SKU: "tea", Pct: 20}, line("tea", 2, 450), 180, true},
		{"percent off other sku", pricing.PercentOff{SKU: "tea", Pct: 20}, line("coffee", 2, 450), 0, false},
		{"3 for 2", pricing.BuyXGetY{SKU: "mug", X: 2, Y: 1}, line("mug", 7, 600), 1200, true},
		{"3 for 2 too few", pricing.BuyXGetY{SKU: "mug", X: 2, Y: 1}, line("mug", 2, 600), 0, false},
		{"threshold reached", pricing.Threshold{MinCents: 5000, Pct: 10}, line("kettle", 1, 5900), 590, true},
		{"threshold missed", pricing.Threshold{MinCents: 5000, Pct: 10}, line("kettle", 1, 4900), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.rule.Apply(tt.line)
			if ok != tt.wantOK || got.Cents() != tt.want {
				t.Errorf("Apply = %d, %v; want %d, %v", got.Cents(), ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestPriceUsesBestRule(t *testing.T) {
	e := pricing.NewEngine(
		pricing.PercentOff{SKU: "mug", Pct: 10},
		pricing.BuyXGetY{SKU: "mug", X: 2, Y: 1},
	)
	q, err := e.Price([]pricing.Line{line("mug", 3, 600), line("tea", 1, 450)})
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Subtotal.Cents(); got != 2250 {
		t.Errorf("Subtotal = %d, want 2250", got)
	}
	if got := q.Discount.Cents(); got != 600 {
		t.Errorf("Discount = %d, want 600", got)
	}
	if got := q.Total.Cents(); got != 1650 {
		t.Errorf("Total = %d, want 1650", got)
	}
	if _, ok := q.Lines[0].Rule.(pricing.BuyXGetY); !ok {
		t.Errorf("line 0 rule = %v, want BuyXGetY", q.Lines[0].Rule)
	}
	if q.Lines[1].Rule != nil {
		t.Errorf("line 1 rule = %v, want none", q.Lines[1].Rule)
	}
}

func TestPriceErrors(t *testing.T) {
	e := pricing.NewEngine()
	if _, err := e.Price(nil); !errors.Is(err, pricing.ErrNoLines) {
		t.Errorf("Price(nil) error = %v, want ErrNoLines", err)
	}
	usd := pricing.Line{SKU: "tea", Qty: 1, Unit: money.MustNew(100, "USD")}
	_, err := e.Price([]pricing.Line{line("tea", 1, 100), usd})
	if !errors.Is(err, money.ErrCurrencyMismatch) {
		t.Errorf("Price(mixed currencies) error = %v, want currency mismatch", err)
	}
}
