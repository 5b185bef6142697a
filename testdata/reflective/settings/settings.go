// Package settings loads "key=value" lines into a value of the type its
// caller names, through package decode.
package settings

import (
	"strings"

	"example.com/reflective/decode"
)

// Parse decodes the lines of doc into a new T, a struct or a map with
// string keys.
func Parse[T any](doc string) (T, error) {
	var v T
	err := decode.Into(strings.Split(doc, "\n"), &v)
	return v, err
}
