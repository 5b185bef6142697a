//go:build go1.21

package rt

// The W functions wrap the function of a go or defer statement at call
// site s, so that the call, which runs later (or in another goroutine),
// enters s when it starts: W<params>_<results>[V] for functions with that
// many parameters and results, V when the last parameter is variadic.
// With GoBit in s, the function is a go statement's, and a panic that
// ends it goes to the executor as in GoRecover; GoBit|NoSite wraps the
// function of a go statement that is no call site.

// GoBit marks, in the s of a W function, the function that a go statement
// starts.
const GoBit int32 = 1 << 30

// NoSite is the s of a W function, besides GoBit, that enters no call
// site.
const NoSite int32 = GoBit - 1

// begin enters the call site of s, if it names one.
func begin(s int32) {
	if site := s &^ GoBit; site != NoSite {
		Enter(site)
	}
}

// end is the deferred call of a W function: it leaves the call site
// begin entered and, for the function of a go statement whose panic the
// executor intercepts, hands the panic to it and blocks for ever, as
// GoRecover does.
func end(s int32) {
	if s&^GoBit != NoSite {
		exit()
	}
	if s&GoBit != 0 && goPanicHook != nil {
		if v := recover(); v != nil {
			goPanicked(v)
		}
	}
}

// W0_0 wraps f to enter call site s when it runs.
func W0_0(s int32, f func()) func() {
	return func() {
		begin(s)
		defer end(s)
		f()
	}
}

// W0_1 wraps f to enter call site s when it runs.
func W0_1[R0 any](s int32, f func() R0) func() R0 {
	return func() R0 {
		begin(s)
		defer end(s)
		return f()
	}
}

// W0_2 wraps f to enter call site s when it runs.
func W0_2[R0, R1 any](s int32, f func() (R0, R1)) func() (R0, R1) {
	return func() (R0, R1) {
		begin(s)
		defer end(s)
		return f()
	}
}

// W1_0 wraps f to enter call site s when it runs.
func W1_0[A any](s int32, f func(A)) func(A) {
	return func(a0 A) {
		begin(s)
		defer end(s)
		f(a0)
	}
}

// W1_0V wraps f to enter call site s when it runs.
func W1_0V[V any](s int32, f func(...V)) func(...V) {
	return func(a0 ...V) {
		begin(s)
		defer end(s)
		f(a0...)
	}
}

// W1_1 wraps f to enter call site s when it runs.
func W1_1[A, R0 any](s int32, f func(A) R0) func(A) R0 {
	return func(a0 A) R0 {
		begin(s)
		defer end(s)
		return f(a0)
	}
}

// W1_1V wraps f to enter call site s when it runs.
func W1_1V[V, R0 any](s int32, f func(...V) R0) func(...V) R0 {
	return func(a0 ...V) R0 {
		begin(s)
		defer end(s)
		return f(a0...)
	}
}

// W1_2 wraps f to enter call site s when it runs.
func W1_2[A, R0, R1 any](s int32, f func(A) (R0, R1)) func(A) (R0, R1) {
	return func(a0 A) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0)
	}
}

// W1_2V wraps f to enter call site s when it runs.
func W1_2V[V, R0, R1 any](s int32, f func(...V) (R0, R1)) func(...V) (R0, R1) {
	return func(a0 ...V) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0...)
	}
}

// W2_0 wraps f to enter call site s when it runs.
func W2_0[A, B any](s int32, f func(A, B)) func(A, B) {
	return func(a0 A, a1 B) {
		begin(s)
		defer end(s)
		f(a0, a1)
	}
}

// W2_0V wraps f to enter call site s when it runs.
func W2_0V[A, V any](s int32, f func(A, ...V)) func(A, ...V) {
	return func(a0 A, a1 ...V) {
		begin(s)
		defer end(s)
		f(a0, a1...)
	}
}

// W2_1 wraps f to enter call site s when it runs.
func W2_1[A, B, R0 any](s int32, f func(A, B) R0) func(A, B) R0 {
	return func(a0 A, a1 B) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1)
	}
}

// W2_1V wraps f to enter call site s when it runs.
func W2_1V[A, V, R0 any](s int32, f func(A, ...V) R0) func(A, ...V) R0 {
	return func(a0 A, a1 ...V) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1...)
	}
}

// W2_2 wraps f to enter call site s when it runs.
func W2_2[A, B, R0, R1 any](s int32, f func(A, B) (R0, R1)) func(A, B) (R0, R1) {
	return func(a0 A, a1 B) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1)
	}
}

// W2_2V wraps f to enter call site s when it runs.
func W2_2V[A, V, R0, R1 any](s int32, f func(A, ...V) (R0, R1)) func(A, ...V) (R0, R1) {
	return func(a0 A, a1 ...V) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1...)
	}
}

// W3_0 wraps f to enter call site s when it runs.
func W3_0[A, B, C any](s int32, f func(A, B, C)) func(A, B, C) {
	return func(a0 A, a1 B, a2 C) {
		begin(s)
		defer end(s)
		f(a0, a1, a2)
	}
}

// W3_0V wraps f to enter call site s when it runs.
func W3_0V[A, B, V any](s int32, f func(A, B, ...V)) func(A, B, ...V) {
	return func(a0 A, a1 B, a2 ...V) {
		begin(s)
		defer end(s)
		f(a0, a1, a2...)
	}
}

// W3_1 wraps f to enter call site s when it runs.
func W3_1[A, B, C, R0 any](s int32, f func(A, B, C) R0) func(A, B, C) R0 {
	return func(a0 A, a1 B, a2 C) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1, a2)
	}
}

// W3_1V wraps f to enter call site s when it runs.
func W3_1V[A, B, V, R0 any](s int32, f func(A, B, ...V) R0) func(A, B, ...V) R0 {
	return func(a0 A, a1 B, a2 ...V) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1, a2...)
	}
}

// W3_2 wraps f to enter call site s when it runs.
func W3_2[A, B, C, R0, R1 any](s int32, f func(A, B, C) (R0, R1)) func(A, B, C) (R0, R1) {
	return func(a0 A, a1 B, a2 C) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1, a2)
	}
}

// W3_2V wraps f to enter call site s when it runs.
func W3_2V[A, B, V, R0, R1 any](s int32, f func(A, B, ...V) (R0, R1)) func(A, B, ...V) (R0, R1) {
	return func(a0 A, a1 B, a2 ...V) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1, a2...)
	}
}

// W4_0 wraps f to enter call site s when it runs.
func W4_0[A, B, C, D any](s int32, f func(A, B, C, D)) func(A, B, C, D) {
	return func(a0 A, a1 B, a2 C, a3 D) {
		begin(s)
		defer end(s)
		f(a0, a1, a2, a3)
	}
}

// W4_0V wraps f to enter call site s when it runs.
func W4_0V[A, B, C, V any](s int32, f func(A, B, C, ...V)) func(A, B, C, ...V) {
	return func(a0 A, a1 B, a2 C, a3 ...V) {
		begin(s)
		defer end(s)
		f(a0, a1, a2, a3...)
	}
}

// W4_1 wraps f to enter call site s when it runs.
func W4_1[A, B, C, D, R0 any](s int32, f func(A, B, C, D) R0) func(A, B, C, D) R0 {
	return func(a0 A, a1 B, a2 C, a3 D) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1, a2, a3)
	}
}

// W4_1V wraps f to enter call site s when it runs.
func W4_1V[A, B, C, V, R0 any](s int32, f func(A, B, C, ...V) R0) func(A, B, C, ...V) R0 {
	return func(a0 A, a1 B, a2 C, a3 ...V) R0 {
		begin(s)
		defer end(s)
		return f(a0, a1, a2, a3...)
	}
}

// W4_2 wraps f to enter call site s when it runs.
func W4_2[A, B, C, D, R0, R1 any](s int32, f func(A, B, C, D) (R0, R1)) func(A, B, C, D) (R0, R1) {
	return func(a0 A, a1 B, a2 C, a3 D) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1, a2, a3)
	}
}

// W4_2V wraps f to enter call site s when it runs.
func W4_2V[A, B, C, V, R0, R1 any](s int32, f func(A, B, C, ...V) (R0, R1)) func(A, B, C, ...V) (R0, R1) {
	return func(a0 A, a1 B, a2 C, a3 ...V) (R0, R1) {
		begin(s)
		defer end(s)
		return f(a0, a1, a2, a3...)
	}
}
