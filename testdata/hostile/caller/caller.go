// Package caller drives the hostile callee: a machine runs the callee's
// steps on positive numbers and keeps a total.
package caller

import "example.com/hostile/callee"

// Machine runs steps and keeps their total.
type Machine struct {
	Total   int
	Steps   int
	Skipped int
}

// Run runs one step of the given mode on n, if n is positive (otherwise
// the step is skipped), and returns the new total.
func (m *Machine) Run(mode, n int) int {
	if n <= 0 {
		m.Skipped++
		return m.Total
	}
	r := callee.Step(mode, n)
	m.Steps++
	if r > 10 {
		m.Total += r
	} else {
		m.Total -= r
	}
	return m.Total
}
