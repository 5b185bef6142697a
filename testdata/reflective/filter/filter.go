// Package filter keeps the level names a pattern matches: its Filter has
// a field of an opaque type of another package (regexp.Regexp, whose zero
// value is no pattern to use) beside fields of plain types.
package filter

import (
	"errors"
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

// Kept returns the names of names the filter keeps, in their order.
func (f *Filter) Kept(names []string) []string {
	var kept []string
	for _, n := range names {
		if f.Keep(n) {
			kept = append(kept, n)
		}
	}
	return kept
}

// Mask returns a byte per name: '1' where the filter keeps the name, '0'
// where it does not.
func (f *Filter) Mask(names []string) []byte {
	mask := make([]byte, len(names))
	for i, n := range names {
		mask[i] = '0'
		if f.Keep(n) {
			mask[i] = '1'
		}
	}
	return mask
}

// Levels returns the levels of names that name one, and an error for the
// first that does not.
func Levels(names []string) ([]level.Level, error) {
	var out []level.Level
	for _, n := range names {
		l, ok := level.Parse(n)
		if !ok {
			return out, errors.New("filter: unknown level " + n)
		}
		out = append(out, l)
	}
	return out, nil
}
