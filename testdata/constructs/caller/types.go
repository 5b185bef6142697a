// Package caller is the caller side of the constructs fixture. Each exported
// function is named after the Go construct it exercises and calls into
// package callee under the control of that construct.
package caller

import (
	"cmp"
	"slices"
	"sort"

	"example.com/constructs/callee"
)

// Shape is an interface declared in caller and implemented in callee by
// callee.Circle and *callee.Square.
type Shape interface {
	Area() int
}

// DefaultShapes returns one value of each callee implementation of Shape.
func DefaultShapes() []Shape {
	return []Shape{callee.Circle{R: 2}, &callee.Square{Side: 3}}
}

// InterfaceDispatch exercises dynamic dispatch of a caller-declared interface
// method to callee implementations, under a condition.
func InterfaceDispatch(shapes []Shape, threshold int) int {
	total := 0
	for _, s := range shapes {
		if s != nil {
			if a := s.Area(); a >= threshold {
				total += a
			}
		}
	}
	return total
}

// CalleeInterface exercises dispatch of a callee-declared interface
// (callee.Greeter) implemented in callee.
func CalleeInterface(lang, name string) string {
	g := callee.NewGreeter(lang)
	if lang != "" {
		return g.Greet(name)
	}
	return ""
}

// Car embeds callee.Engine by value.
type Car struct {
	callee.Engine
	Name string
}

// Truck embeds *callee.Engine.
type Truck struct {
	*callee.Engine
	Load int
}

// Rated is satisfied by Car and Truck through the promoted Rating method.
type Rated interface {
	Rating() string
}

// EmbeddedValue exercises a direct call of a method promoted from a
// value-embedded callee struct.
func EmbeddedValue(c Car) string {
	if c.Name == "" {
		return "anonymous " + c.Rating()
	}
	return c.Name + " " + c.Rating()
}

// EmbeddedPointer exercises direct calls of methods promoted from a
// pointer-embedded callee struct.
func EmbeddedPointer(t Truck) string {
	if t.Engine == nil {
		return "no engine"
	}
	t.Boost(t.Load)
	return t.Rating()
}

// EmbeddedInterface exercises calls of a promoted method through an interface
// value holding caller structs.
func EmbeddedInterface(c Car, t Truck) []string {
	rs := []Rated{c}
	if t.Engine != nil {
		rs = append(rs, t)
	}
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Rating())
	}
	return out
}

// Closures exercises a closure that calls callee, invoked immediately and
// also stored and invoked later.
func Closures(n int) int {
	now := func() int { return callee.Double(n) }()
	later := func(x int) int { return callee.Double(x) }
	if n > 5 {
		return now + later(n+1)
	}
	return now
}

// SortClosure exercises a closure passed to sort.Slice that calls a callee
// comparison function.
func SortClosure(xs []int) []int {
	out := slices.Clone(xs)
	sort.Slice(out, func(i, j int) bool { return callee.Less(out[i], out[j]) })
	return out
}

// Helpers exercises a call to callee reached only through two levels of
// unexported helpers.
func Helpers(n int) int {
	if n < 0 {
		return 0
	}
	return helperOuter(n)
}

func helperOuter(n int) int { return helperInner(n) + 1 }

func helperInner(n int) int {
	if n%2 == 0 {
		return callee.Scale(n)
	}
	return n
}

// Generics exercises a generic callee function and a generic callee type,
// each with two instantiations.
func Generics(a, b int, x, y string) (int, string) {
	var ints callee.Stack[int]
	var strs callee.Stack[string]
	ints.Push(callee.Max(a, b))
	strs.Push(callee.Max(x, y))
	i, _ := ints.Pop()
	s, ok := strs.Pop()
	if !ok {
		return i, ""
	}
	return i, s
}

// Largest is a generic caller function that calls a generic callee function.
func Largest[T cmp.Ordered](xs []T) (T, bool) {
	var best T
	if len(xs) == 0 {
		return best, false
	}
	best = xs[0]
	for _, x := range xs[1:] {
		best = callee.Max(best, x)
	}
	return best, true
}

// LargestInt instantiates Largest.
func LargestInt(xs []int) int {
	v, _ := Largest(xs)
	return v
}

// Negated passes a generic callee function, its type arguments inferred,
// to a generic callee function.
func Negated(n int) int {
	return callee.Apply(callee.Negate, n)
}

// Last returns the last element of s; ok is false when s is empty. The
// constraint of S is a type built from T.
func Last[T any, S ~[]T](s S) (last T, ok bool) {
	if len(s) == 0 {
		return last, false
	}
	return s[len(s)-1], true
}

// Size counts the entries of m, whose type parameter's constraint is
// built from two others.
func Size[K comparable, V any, M ~map[K]V](m M) int {
	return len(m)
}
