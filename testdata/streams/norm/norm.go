// Package norm normalises lines of text.
package norm

import "strings"

// Line trims a line and folds runs of blanks into one space; a line of a
// comment ("#") is dropped.
func Line(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "#") {
		return "", false
	}
	return strings.Join(strings.Fields(s), " "), true
}
