// Package app reports on lists of squares.
package app

import "example.com/costly/lib"

// Report is the sum of the first N squares that are even or above 5.
type Report struct{ N, Total int }

// New returns the report of n squares, nil if n is above 100.
func New(n int) *Report {
	if n > 100 {
		return nil
	}
	r := &Report{N: n}
	r.Total = lib.Sum(lib.Squares(n), 5)
	return r
}
