// Package quit ends the process the way logging libraries do, through a
// variable that tests of their own can replace.
package quit

import "os"

var exit = os.Exit

// With ends the process with status code.
func With(code int) {
	exit(code)
}
