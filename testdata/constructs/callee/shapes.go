// Package callee is the callee side of the constructs fixture. Its functions
// are called from package caller and contain branches of every common kind.
package callee

// Circle has an Area method and implements caller.Shape.
type Circle struct{ R int }

// Area returns an approximate area, or 0 for a degenerate circle.
func (c Circle) Area() int {
	if c.R <= 0 {
		return 0
	}
	return 3 * c.R * c.R
}

// Square has an Area method (pointer receiver) and implements caller.Shape.
type Square struct{ Side int }

// Area returns the area, or -1 for a negative side.
func (s *Square) Area() int {
	if s.Side < 0 {
		return -1
	}
	return s.Side * s.Side
}

// Greeter is an interface declared and implemented in callee.
type Greeter interface {
	Greet(name string) string
}

// English greets in English.
type English struct{}

// Greet greets name, or everybody when name is empty.
func (English) Greet(name string) string {
	if name == "" {
		return "Hello, everybody"
	}
	return "Hello, " + name
}

// French greets in French.
type French struct{ Formal bool }

// Greet greets name formally or informally.
func (f French) Greet(name string) string {
	if f.Formal {
		return "Bonjour, " + name
	}
	return "Salut, " + name
}

// NewGreeter returns the Greeter for a language code.
func NewGreeter(lang string) Greeter {
	if lang == "fr" {
		return French{Formal: true}
	}
	return English{}
}

// Engine is embedded by caller structs; its methods are promoted there.
type Engine struct{ Power int }

// Rating classifies the engine's power.
func (e Engine) Rating() string {
	if e.Power <= 0 {
		return "broken"
	}
	if e.Power < 100 {
		return "weak"
	}
	return "strong"
}

// Boost adds n to the power when n is positive.
func (e *Engine) Boost(n int) {
	if n > 0 {
		e.Power += n
	}
}
