// Package filter keeps the level names a pattern matches: its Filter has
// a field of an opaque type of another package (regexp.Regexp, whose zero
// value is no pattern to use) beside fields of plain types.
package filter

import (
	"regexp"

	"example.com/reflective/level"
)

// Filter keeps the names of levels of at least Min that Pattern matches.
type Filter struct {
	// Pattern is matched against the name; the zero value is not a
	// compiled pattern.
	Pattern regexp.Regexp
	// Min is the least level kept.
	Min level.Level
	// Label is the filter's name.
	Label string
}

// Keep reports whether name names a level the filter keeps.
func (f *Filter) Keep(name string) bool {
	l, ok := level.Parse(name)
	if !ok || l < f.Min {
		return false
	}
	return f.Pattern.MatchString(name)
}
