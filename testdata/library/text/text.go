// Package text cleans up the titles and names the library stores.
package text

import "strings"

// Normalize trims a title and folds its case; an empty title stays empty,
// and a title in capitals keeps them.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if strings.ToUpper(s) == s {
		return s
	}
	return strings.ToLower(s)
}

// Initials returns the first letter of each word of a name, at most max.
func Initials(name string, max int) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		if b.Len() >= max {
			break
		}
		b.WriteByte(w[0])
	}
	return b.String()
}
