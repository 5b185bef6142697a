// Package label writes labels for numbers. What it writes depends on the
// process: a token drawn once per process, and a style that the tests of
// package describe switch on.
package label

import (
	"fmt"
	"math/rand"
)

// token is drawn once per process: every process writes other big labels.
var token = fmt.Sprintf("%016x", rand.Uint64())

// Plain writes small numbers without their mark; describe's own tests
// set it.
var Plain bool

// Of labels n.
func Of(n int) string {
	if n > 100 {
		return "big-" + token
	}
	if Plain {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("#%d", n)
}
