package caller

import "example.com/constructs/callee"

// TaggedSwitch exercises a tagged switch with a multi-value case and a default.
func TaggedSwitch(cmd string) string {
	switch cmd {
	case "add", "plus":
		return callee.Classify(1)
	case "sub":
		return callee.Classify(-1)
	default:
		return callee.Classify(0)
	}
}

// TaglessSwitch exercises a switch without a tag.
func TaglessSwitch(n int) int {
	switch {
	case n < 0:
		return callee.Sign(n)
	case n > 100:
		return callee.Scale(n)
	default:
		return n
	}
}

// TypeSwitch exercises a type switch with a multi-type case, a nil case and a
// default.
func TypeSwitch(v any) string {
	switch x := v.(type) {
	case int, int64:
		return callee.Kind(x)
	case string:
		return callee.Classify(len(x))
	case nil:
		return "nothing"
	default:
		return callee.Kind(x)
	}
}

// AndOr exercises && and || both as if conditions and in a value context.
func AndOr(a, b int) (int, bool) {
	r := 0
	if a > 0 && b > 0 {
		r += callee.Scale(a)
	}
	if a < 0 || b < 0 {
		r += callee.Sign(a + b)
	}
	ok := a == b && callee.IsEven(a)
	inside := ok || callee.InRange(a, 0, 10)
	return r, inside
}

// RangeSlice exercises a range loop over a slice.
func RangeSlice(xs []int) int {
	total := 0
	for _, x := range xs {
		total += callee.Double(x)
	}
	return total
}

// RangeMap exercises a range loop over a map.
func RangeMap(m map[string]int) int {
	total := 0
	for k, v := range m {
		if k != "" {
			total += callee.Scale(v)
		}
	}
	return total
}

// RangeString exercises a range loop over the runes of a string.
func RangeString(s string) int {
	total := 0
	for i, r := range s {
		total += callee.B(int(r) - 'a' + i)
	}
	return total
}

// RangeInt exercises a range loop over an integer.
func RangeInt(n int) int {
	total := 0
	for i := range n {
		total += callee.Double(i)
	}
	return total
}

// RangeChannel exercises a range loop over a channel.
func RangeChannel(ch <-chan int) int {
	total := 0
	for v := range ch {
		total += callee.Double(v)
	}
	return total
}

// RangeBreak exercises a range loop left early with break.
func RangeBreak(xs []int, limit int) int {
	total := 0
	for _, x := range xs {
		if x > limit {
			break
		}
		total += callee.Double(x)
	}
	return total
}

// ForCond exercises a three-clause for loop with a condition.
func ForCond(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		total += callee.Scale(i)
	}
	return total
}

// ForInfinite exercises an infinite loop left with return. It returns the
// smallest i >= 0 with callee.Scale(i) >= n.
func ForInfinite(n int) int {
	i := 0
	for {
		if callee.Scale(i) >= n {
			return i
		}
		i++
	}
}
