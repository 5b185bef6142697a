package callee

import (
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
)

// Double doubles n, saturating negative inputs at zero.
func Double(n int) int {
	if n < 0 {
		return 0
	}
	return 2 * n
}

// Scale triples small values and grows slowly beyond 1000. It is
// non-decreasing and unbounded.
func Scale(n int) int {
	if n <= 0 {
		return 0
	}
	if n > 1000 {
		return 3000 + (n - 1000)
	}
	return 3 * n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Less orders integers by absolute value, then by value.
func Less(a, b int) bool {
	if abs(a) != abs(b) {
		return abs(a) < abs(b)
	}
	return a < b
}

// Classify names n with a tagged switch.
func Classify(n int) string {
	switch n {
	case 0:
		return "zero"
	case 1, 2, 3:
		return "small"
	default:
		return "other"
	}
}

// Sign returns -1, 0 or 1 using a tagless switch.
func Sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	default:
		return 0
	}
}

// Kind describes the dynamic type of v using a type switch.
func Kind(v any) string {
	switch x := v.(type) {
	case int, int64:
		return "integer"
	case string:
		if x == "" {
			return "empty string"
		}
		return "string"
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("%T", x)
	}
}

// IsEven reports whether n is even.
func IsEven(n int) bool { return n%2 == 0 }

// InRange reports whether lo <= n <= hi.
func InRange(n, lo, hi int) bool { return n >= lo && n <= hi }

var cleanups atomic.Int64

// Cleanup records that a cleanup ran.
func Cleanup() { cleanups.Add(1) }

// Cleanups returns how many times Cleanup ran.
func Cleanups() int64 { return cleanups.Load() }

// MustPositive returns n capped at 100 and panics when n is not positive.
func MustPositive(n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("callee: %d is not positive", n))
	}
	if n > 100 {
		return 100
	}
	return n
}

// Work sends 1, -2 and 3 on ch and closes it.
func Work(ch chan<- int) {
	defer close(ch)
	for i := 1; i <= 3; i++ {
		if i%2 == 1 {
			ch <- i
		} else {
			ch <- -i
		}
	}
}

// ErrEmpty is returned by Parse for an empty string.
var ErrEmpty = errors.New("callee: empty input")

// Parse parses a non-negative decimal integer.
func Parse(s string) (int, error) {
	if s == "" {
		return 0, ErrEmpty
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("callee: parse %q: %w", s, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("callee: negative value %d", n)
	}
	return n, nil
}

// A adds one to even numbers and subtracts one from odd numbers.
func A(x int) int {
	if x%2 == 0 {
		return x + 1
	}
	return x - 1
}

// B clamps x to [0, 10].
func B(x int) int {
	if x < 0 {
		return 0
	}
	if x > 10 {
		return 10
	}
	return x
}

// Counter counts up to a limit.
type Counter struct{ n, limit int }

// NewCounter returns a counter starting at start (negative starts become 0).
func NewCounter(start int) *Counter {
	if start < 0 {
		start = 0
	}
	return &Counter{n: start, limit: start + 10}
}

// Incr increments the counter unless it reached its limit and returns it.
func (c *Counter) Incr() int {
	if c.n < c.limit {
		c.n++
	}
	return c.n
}
