// Package describe describes numbers with their labels.
package describe

import "example.com/procstate/label"

// Describe returns n's label and the label's length; nothing for a
// negative n.
func Describe(n int) (string, int) {
	if n < 0 {
		return "", 0
	}
	l := label.Of(n)
	return l, len(l)
}
