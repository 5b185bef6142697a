// Package show renders values as text: strings and numbers as they are,
// values that describe themselves by their String or Error methods.
package show

import (
	"fmt"
	"strconv"

	"example.com/reflective/level"
)

// Text renders v.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case fmt.Stringer:
		return "[" + x.String() + "]"
	case error:
		return "error: " + x.Error()
	}
	return fmt.Sprintf("%v", v)
}

// Severity renders the level named name, or "?" for an unknown name.
func Severity(name string) string {
	l, ok := level.Parse(name)
	if !ok {
		return "?"
	}
	return Text(l)
}

// Named renders l by its name in names, as Text does if it has none.
func Named(l level.Level, names level.Names) string {
	if n, ok := names[l]; ok {
		return n
	}
	return Text(l)
}
