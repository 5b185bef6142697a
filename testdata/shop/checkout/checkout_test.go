package checkout_test

import (
	"errors"
	"testing"

	"example.com/shop/checkout"
	"example.com/shop/inventory"
	"example.com/shop/pricing"
)

func stock(t *testing.T, levels map[string]int) *inventory.Stock {
	t.Helper()
	s := inventory.NewStock()
	for sku, qty := range levels {
		if err := s.Add(sku, qty); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

type item struct {
	sku  string
	qty  int
	unit int64
}

func cart(t *testing.T, items ...item) *checkout.Cart {
	t.Helper()
	c, err := checkout.NewCart("EUR")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if err := c.AddItem(it.sku, it.qty, it.unit); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestNewCartRejectsUnknownCurrency(t *testing.T) {
	if _, err := checkout.NewCart("ABC"); err == nil {
		t.Error("NewCart(ABC) succeeded")
	}
}

func TestAddItem(t *testing.T) {
	c := cart(t, item{"tea", 2, 450})
	if err := c.AddItem("tea", 1, 450); err != nil {
		t.Fatal(err)
	}
	if got := c.ItemCount(); got != 3 {
		t.Errorf("ItemCount = %d, want 3", got)
	}
	if err := c.AddItem("tea", 1, 500); !errors.Is(err, checkout.ErrPriceConflict) {
		t.Errorf("AddItem(other price) error = %v, want ErrPriceConflict", err)
	}
	if err := c.AddItem("", 1, 100); !errors.Is(err, checkout.ErrInvalidItem) {
		t.Errorf("AddItem(empty sku) error = %v, want ErrInvalidItem", err)
	}
}

func TestCheckout(t *testing.T) {
	engine := pricing.NewEngine(pricing.BuyXGetY{SKU: "mug", X: 2, Y: 1})
	tests := []struct {
		name         string
		items        []item
		wantShipping int64
		wantTotal    int64
	}{
		{
			name:         "base shipping",
			items:        []item{{"tea", 2, 450}},
			wantShipping: 495,
			wantTotal:    900 + 495,
		},
		{
			name:         "per item surcharge",
			items:        []item{{"tea", 2, 450}, {"mug", 3, 600}},
			wantShipping: 495 + 2*100,
			wantTotal:    900 + 1200 + 695,
		},
		{
			name:         "free shipping",
			items:        []item{{"kettle", 2, 5500}},
			wantShipping: 0,
			wantTotal:    11000,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stock(t, map[string]int{"tea": 10, "mug": 10, "kettle": 3})
			c := cart(t, tt.items...)
			r, err := c.Checkout(s, engine)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Shipping.Cents(); got != tt.wantShipping {
				t.Errorf("Shipping = %d, want %d", got, tt.wantShipping)
			}
			if got := r.Total.Cents(); got != tt.wantTotal {
				t.Errorf("Total = %d, want %d", got, tt.wantTotal)
			}
			for _, it := range tt.items {
				if got := s.Reserved(it.sku); got != it.qty {
					t.Errorf("Reserved(%q) = %d, want %d", it.sku, got, it.qty)
				}
			}
		})
	}
}

func TestCheckoutReleasesOnInsufficientStock(t *testing.T) {
	s := stock(t, map[string]int{"tea": 10, "mug": 1})
	c := cart(t, item{"tea", 4, 450}, item{"mug", 2, 600})
	_, err := c.Checkout(s, pricing.NewEngine())
	if !errors.Is(err, inventory.ErrInsufficient) {
		t.Fatalf("Checkout error = %v, want ErrInsufficient", err)
	}
	if got := s.Available("tea"); got != 10 {
		t.Errorf("Available(tea) = %d, want 10 after release", got)
	}
}

func TestCheckoutEmptyCart(t *testing.T) {
	c := cart(t)
	if _, err := c.Checkout(inventory.NewStock(), nil); !errors.Is(err, checkout.ErrEmptyCart) {
		t.Errorf("Checkout error = %v, want ErrEmptyCart", err)
	}
}
