package describe

import "example.com/procstate/label"

// The tests of this package read plain labels.
func init() { label.Plain = true }
