// Package convert turns strings into typed values with hooks that look
// at the source and target types through reflection, the way decoding
// libraries let callers plug in conversions.
package convert

import (
	"errors"
	"reflect"

	"example.com/reflective/units"
)

// Hook converts data, of type from, for a target of type to; it returns
// data unchanged when it does not apply.
type Hook func(from, to reflect.Type, data any) (any, error)

// durationType is compared with the target type of a conversion.
var durationType = reflect.TypeOf(units.Duration(0))

// DurationHook converts strings for units.Duration targets.
func DurationHook() Hook {
	return func(from, to reflect.Type, data any) (any, error) {
		if from.Kind() != reflect.String {
			return data, nil
		}
		if to != durationType {
			return data, nil
		}
		return units.ParseDuration(data.(string))
	}
}

// SizeHook converts strings for units.Size targets.
func SizeHook() Hook {
	return func(from, to reflect.Type, data any) (any, error) {
		if from.Kind() == reflect.String && to == reflect.TypeFor[units.Size]() {
			return units.ParseSize(data.(string))
		}
		return data, nil
	}
}

// Apply runs hook on the value from for a target like to.
func Apply(hook Hook, from, to reflect.Value) (any, error) {
	if hook == nil {
		return nil, errors.New("convert: no hook")
	}
	if !from.IsValid() || !to.IsValid() {
		return nil, errors.New("convert: invalid value")
	}
	return hook(from.Type(), to.Type(), from.Interface())
}
