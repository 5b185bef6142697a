// Package caller calls the misbehaving callee behind a condition each.
package caller

import "example.com/nasty/callee"

// Do calls the callee function named by what with n, when n is not
// negative.
func Do(what string, n int) int {
	if n < 0 {
		return 0
	}
	switch what {
	case "panic":
		return callee.Panic(n)
	case "exit":
		return callee.Exit(n)
	case "loop":
		return callee.Loop(n)
	case "deadlock":
		return callee.Deadlock(n)
	case "race":
		return callee.Race(n)
	case "recurse":
		return callee.Recurse(n)
	case "recurse-go":
		return callee.RecurseInGoroutine(n)
	case "leak":
		return callee.Leak(n)
	case "hoard":
		return callee.Hoard(n)
	case "slow":
		return callee.SlowOnce(n)
	}
	return -1
}

// Cap returns the capacity of b. A byte slice the executor builds from a
// string literal must have the capacity []byte("...") has in a written
// test: code that slices past the length behaves differently otherwise.
func Cap(b []byte) int { return cap(b) }

// Opcode is an instruction of a byte code: a named byte type.
type Opcode byte

// ProgramCap returns the capacity of a byte code. Slices of a named byte
// type are built from string literals too ([]caller.Opcode("...")), but
// the built-in copy from a string takes []byte only.
func ProgramCap(code []Opcode) int { return cap(code) }
