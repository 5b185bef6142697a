package callee

import "cmp"

// Max returns the larger of a and b.
func Max[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// Stack is a generic LIFO stack.
type Stack[T any] struct{ items []T }

// Push adds v on top of the stack.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Pop removes and returns the top element; ok is false when s is empty.
func (s *Stack[T]) Pop() (v T, ok bool) {
	if len(s.items) == 0 {
		return v, false
	}
	v = s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Len returns the number of elements in s.
func (s *Stack[T]) Len() int { return len(s.items) }

// Apply returns f applied to v.
func Apply[T any](f func(T) T, v T) T { return f(v) }

// Negate returns -v.
func Negate[T ~int | ~float64](v T) T { return -v }
