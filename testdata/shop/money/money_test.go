package money_test

import (
	"errors"
	"testing"

	"example.com/shop/money"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		cents    int64
		currency string
		wantErr  error
	}{
		{"valid", 1250, "EUR", nil},
		{"zero", 0, "USD", nil},
		{"unknown currency", 100, "XYZ", money.ErrUnknownCurrency},
		{"negative", -1, "EUR", money.ErrNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := money.New(tt.cents, tt.currency)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("New(%d, %q) error = %v, want %v", tt.cents, tt.currency, err, tt.wantErr)
			}
			if err == nil && (m.Cents() != tt.cents || m.Currency() != tt.currency) {
				t.Errorf("New(%d, %q) = %v", tt.cents, tt.currency, m)
			}
		})
	}
}

func TestAdd(t *testing.T) {
	a := money.MustNew(150, "EUR")
	b := money.MustNew(275, "EUR")
	got, err := a.Add(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cents() != 425 {
		t.Errorf("Add = %v, want 4.25 EUR", got)
	}
}

func TestSub(t *testing.T) {
	a := money.MustNew(500, "GBP")
	got, err := a.Sub(money.MustNew(120, "GBP"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Cents() != 380 {
		t.Errorf("Sub = %v, want 3.80 GBP", got)
	}

	if _, err := a.Sub(money.MustNew(501, "GBP")); !errors.Is(err, money.ErrNegative) {
		t.Errorf("Sub(larger) error = %v, want negative", err)
	}
}

func TestMulPercent(t *testing.T) {
	tests := []struct {
		cents int64
		pct   int
		want  int64
	}{
		{1000, 10, 100},
		{1234, 10, 123}, // 123.4 rounds down
		{1236, 10, 124}, // 123.6 rounds up
		{250, 10, 25},   // exact
		{50, 5, 2},      // 2.5 ties to even
		{70, 5, 4},      // 3.5 ties to even
	}
	for _, tt := range tests {
		m := money.MustNew(tt.cents, "EUR")
		if got := m.MulPercent(tt.pct); got.Cents() != tt.want {
			t.Errorf("%v.MulPercent(%d) = %d, want %d", m, tt.pct, got.Cents(), tt.want)
		}
	}
}

func TestString(t *testing.T) {
	if got := money.MustNew(1205, "EUR").String(); got != "12.05 EUR" {
		t.Errorf("String = %q, want %q", got, "12.05 EUR")
	}
}
