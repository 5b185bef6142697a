// Package report writes a line per level name to a writer: what it
// writes, not what it returns, is its result.
package report

import (
	"fmt"
	"io"
	"strings"

	"example.com/reflective/level"
)

// Lines writes one line per name to w: its number, then the level it
// names in upper case, or "unknown". It returns how many names were
// levels.
func Lines(w io.Writer, names []string) (int, error) {
	known := 0
	for i, n := range names {
		text := "unknown"
		if l, ok := level.Parse(n); ok {
			text = strings.ToUpper(l.String())
			known++
		}
		if _, err := fmt.Fprintf(w, "%d %s\n", i+1, text); err != nil {
			return known, err
		}
	}
	return known, nil
}
