// Package config loads settings written as "key=value" lines into the
// caller's own types, through package decode.
package config

import (
	"errors"
	"strings"

	"example.com/reflective/decode"
)

// ErrEmpty is returned for a document without settings.
var ErrEmpty = errors.New("config: empty document")

// Load decodes the settings of doc, one "key=value" per line ("#" starts
// a comment), into the struct or map v points to.
func Load(doc string, v any) error {
	var lines []string
	for _, line := range strings.Split(doc, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return ErrEmpty
	}
	return decode.Into(lines, v)
}
