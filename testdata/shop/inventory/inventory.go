// Package inventory tracks stock levels and reservations per SKU.
package inventory

import (
	"errors"
	"fmt"
	"sync"
)

// Errors returned by Stock methods, wrapped with details.
var (
	ErrEmptySKU     = errors.New("inventory: empty sku")
	ErrInvalidQty   = errors.New("inventory: quantity must be positive")
	ErrUnknownSKU   = errors.New("inventory: unknown sku")
	ErrInsufficient = errors.New("inventory: insufficient stock")
)

// Stock holds on-hand and reserved quantities per SKU. It is safe for
// concurrent use.
type Stock struct {
	mu       sync.Mutex
	onHand   map[string]int
	reserved map[string]int
}

// NewStock returns an empty Stock.
func NewStock() *Stock {
	return &Stock{onHand: make(map[string]int), reserved: make(map[string]int)}
}

// Add puts qty units of sku into stock.
func (s *Stock) Add(sku string, qty int) error {
	if sku == "" {
		return ErrEmptySKU
	}
	if qty <= 0 {
		return fmt.Errorf("%w: %d", ErrInvalidQty, qty)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onHand[sku] += qty
	return nil
}

// Reserve sets qty units of sku aside so that they are no longer available.
func (s *Stock) Reserve(sku string, qty int) error {
	if qty <= 0 {
		return fmt.Errorf("%w: %d", ErrInvalidQty, qty)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	onHand, ok := s.onHand[sku]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownSKU, sku)
	}
	if avail := onHand - s.reserved[sku]; avail < qty {
		return fmt.Errorf("%w: %q has %d, want %d", ErrInsufficient, sku, avail, qty)
	}
	s.reserved[sku] += qty
	return nil
}

// Release returns qty previously reserved units of sku to the available
// stock. Releasing more than is reserved is an error.
func (s *Stock) Release(sku string, qty int) error {
	if qty <= 0 {
		return fmt.Errorf("%w: %d", ErrInvalidQty, qty)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.reserved[sku]
	if !ok {
		return fmt.Errorf("%w: %q has no reservation", ErrUnknownSKU, sku)
	}
	if qty > r {
		return fmt.Errorf("inventory: release %d of %q, only %d reserved", qty, sku, r)
	}
	if qty == r {
		delete(s.reserved, sku)
	} else {
		s.reserved[sku] = r - qty
	}
	return nil
}

// Available returns the number of units of sku that can still be reserved;
// it is 0 for unknown SKUs.
func (s *Stock) Available(sku string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.onHand[sku] - s.reserved[sku]
}

// Reserved returns the number of reserved units of sku.
func (s *Stock) Reserved(sku string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reserved[sku]
}
