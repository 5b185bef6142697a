// Package e classifies numbers.
package e

// F classifies n.
func F(n int) int {
	if n > 0 {
		return 1
	}
	return 0
}
