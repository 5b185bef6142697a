// Package store keeps quantities by key. It is the callee of the mutation
// fixture: every function has hand-worked RetStaRep mutants.
package store

import (
	"errors"
	"strings"
)

// ErrNotFound is returned for unknown keys.
var ErrNotFound = errors.New("store: not found")

// Store maps keys to quantities and keeps a log.
type Store struct {
	items map[string]int
	log   []string
}

// New returns an empty store.
func New() *Store { return &Store{items: map[string]int{}} }

// Put stores qty under key and reports whether the key is new.
func (s *Store) Put(key string, qty int) bool {
	_, existed := s.items[key]
	s.items[key] = qty
	return !existed
}

// Get returns the quantity stored under key.
func (s *Store) Get(key string) (int, error) {
	q, ok := s.items[key]
	if !ok {
		return 0, ErrNotFound
	}
	return q, nil
}

// Log records a message.
func (s *Store) Log(msg string) { s.log = append(s.log, msg) }

// Logged returns the recorded messages.
func (s *Store) Logged() []string { return s.log }

// Name normalises a key.
func Name(key string) string { return strings.ToLower(key) }

// Clamp limits v to max.
func Clamp(v, max int) int {
	if v > max {
		return max
	}
	return v
}

// Next returns the successor of i.
func Next(i int) int { return i + 1 }

// Width returns the width of s. Its parameter shadows the predeclared
// type int, so the type of its result cannot be named in its body.
func Width(int string) int {
	if int == "" {
		return 0
	}
	return len(int)
}
