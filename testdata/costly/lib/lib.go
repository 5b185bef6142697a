// Package lib makes lists of squares and sums them: loops, calls and
// allocations whose counts are known, for the tests of the performance
// proxies.
package lib

// Squares returns the squares of 0 to n-1, nil if n is not positive.
func Squares(n int) []int {
	if n <= 0 {
		return nil
	}
	out := make([]int, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, square(i))
	}
	return out
}

func square(x int) int { return x * x }

// Sum adds the numbers of xs that are even or above limit.
func Sum(xs []int, limit int) int {
	total := 0
	for _, x := range xs {
		if x%2 == 0 || x > limit {
			total += x
		}
	}
	return total
}
