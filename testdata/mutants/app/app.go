// Package app keeps an inventory in a store. It is the caller of the
// mutation fixture.
package app

import "example.com/mutants/store"

// Inventory counts items by name.
type Inventory struct{ s *store.Store }

// NewInventory returns an empty inventory.
func NewInventory() *Inventory { return &Inventory{s: store.New()} }

// Add sets the quantity of key and logs keys seen for the first time.
func (inv *Inventory) Add(key string, qty int) {
	if inv.s.Put(store.Name(key), qty) {
		inv.s.Log("new " + key)
	}
}

// Count returns the quantity of key, or -1 for an unknown key.
func (inv *Inventory) Count(key string) int {
	q, err := inv.s.Get(store.Name(key))
	if err != nil {
		return -1
	}
	return q
}

// Capped returns the quantity of key, at most limit.
func (inv *Inventory) Capped(key string, limit int) int {
	return store.Clamp(inv.Count(key), limit)
}

// Steps counts the steps from 0 to n.
func Steps(n int) int {
	k := 0
	for i := 0; i < n; i = store.Next(i) {
		k++
	}
	return k
}

// Label pads key to the width of the widest label.
func Label(key string) int { return store.Width(key) }

// Audit logs an audit record. No test calls it.
func (inv *Inventory) Audit() { inv.s.Log("audit") }
