// Package encode turns values into text: values that marshal themselves
// or describe themselves go through scan.
package encode

import (
	"errors"
	"fmt"

	"example.com/reflective/scan"
)

// Marshaler is implemented by values that encode themselves.
type Marshaler interface {
	MarshalDoc() ([]byte, error)
}

// ErrUnsupported is returned for values Encode cannot encode.
var ErrUnsupported = errors.New("encode: unsupported value")

// Encode returns the words of what v says of itself: the document of a
// Marshaler, the String of a fmt.Stringer, a string as it is.
func Encode(v any) (string, error) {
	if m, ok := v.(Marshaler); ok {
		doc, err := m.MarshalDoc()
		if err != nil {
			return "", fmt.Errorf("encode: %w", err)
		}
		return scan.Words(doc)
	}
	switch x := v.(type) {
	case fmt.Stringer:
		return scan.Words([]byte(x.String()))
	case string:
		return x, nil
	}
	return "", ErrUnsupported
}
