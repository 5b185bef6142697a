// Package scan splits documents into words.
package scan

import (
	"errors"
	"strings"
)

// ErrControl is returned for a document holding a control character.
var ErrControl = errors.New("scan: control character")

// Words returns the words of doc, separated by single spaces, with the
// words in upper case shouted (a trailing "!").
func Words(doc []byte) (string, error) {
	if len(doc) == 0 {
		return "", nil
	}
	var words []string
	start := -1
	for i, c := range doc {
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			if start >= 0 {
				words = append(words, word(doc[start:i]))
				start = -1
			}
		case c < ' ':
			return "", ErrControl
		case start < 0:
			start = i
		}
	}
	if start >= 0 {
		words = append(words, word(doc[start:]))
	}
	return strings.Join(words, " "), nil
}

func word(w []byte) string {
	s := string(w)
	if strings.ToUpper(s) == s && strings.ToLower(s) != s {
		return s + "!"
	}
	return s
}
