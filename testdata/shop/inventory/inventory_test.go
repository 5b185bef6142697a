package inventory_test

import (
	"errors"
	"testing"

	"example.com/shop/inventory"
)

func newStock(t *testing.T) *inventory.Stock {
	t.Helper()
	s := inventory.NewStock()
	if err := s.Add("apple", 10); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("pear", 2); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAdd(t *testing.T) {
	s := newStock(t)
	if err := s.Add("apple", 5); err != nil {
		t.Fatal(err)
	}
	if got := s.Available("apple"); got != 15 {
		t.Errorf("Available(apple) = %d, want 15", got)
	}
	if err := s.Add("", 1); !errors.Is(err, inventory.ErrEmptySKU) {
		t.Errorf("Add(\"\") error = %v, want ErrEmptySKU", err)
	}
}

func TestReserve(t *testing.T) {
	tests := []struct {
		name    string
		sku     string
		qty     int
		wantErr error
	}{
		{"ok", "apple", 4, nil},
		{"all", "pear", 2, nil},
		{"insufficient", "pear", 3, inventory.ErrInsufficient},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStock(t)
			before := s.Available(tt.sku)
			err := s.Reserve(tt.sku, tt.qty)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Reserve(%q, %d) error = %v, want %v", tt.sku, tt.qty, err, tt.wantErr)
			}
			want := before
			if err == nil {
				want -= tt.qty
			}
			if got := s.Available(tt.sku); got != want {
				t.Errorf("Available(%q) = %d, want %d", tt.sku, got, want)
			}
		})
	}
}

func TestRelease(t *testing.T) {
	s := newStock(t)
	if err := s.Reserve("apple", 6); err != nil {
		t.Fatal(err)
	}
	if err := s.Release("apple", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Reserved("apple"); got != 4 {
		t.Errorf("Reserved after partial release = %d, want 4", got)
	}
	if got := s.Available("apple"); got != 6 {
		t.Errorf("Available after partial release = %d, want 6", got)
	}
}
