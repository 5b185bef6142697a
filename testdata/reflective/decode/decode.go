// Package decode fills Go values from "key=value" lines by reflection:
// the fields of a struct, by their names or `cfg` tags, or the entries of
// a map.
package decode

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ErrTarget is returned for a target that is not a non-nil pointer.
var ErrTarget = errors.New("decode: target must be a non-nil pointer")

// MissingError reports a required field without a line.
type MissingError struct{ Field string }

func (e *MissingError) Error() string { return "decode: missing " + e.Field }

// Into decodes lines into the value v points to: a struct, whose fields
// take the lines of their names (a `cfg:"name,required"` tag renames a
// field and may require it; `cfg:"-"` skips it), or a map with string
// keys.
func Into(lines []string, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return ErrTarget
	}
	e := rv.Elem()
	switch e.Kind() {
	case reflect.Struct:
		return intoStruct(lines, e)
	case reflect.Map:
		if e.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("decode: map keys of %s are not strings", e.Type())
		}
		if e.IsNil() {
			e.Set(reflect.MakeMap(e.Type()))
		}
		for _, line := range lines {
			key, val, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			elem := reflect.New(e.Type().Elem()).Elem()
			if err := set(elem, val); err != nil {
				return err
			}
			e.SetMapIndex(reflect.ValueOf(key).Convert(e.Type().Key()), elem)
		}
		return nil
	}
	return fmt.Errorf("decode: cannot decode into %s", e.Type())
}

func intoStruct(lines []string, e reflect.Value) error {
	t := e.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, required := strings.ToLower(f.Name), false
		if tag, ok := f.Tag.Lookup("cfg"); ok {
			if tag == "-" {
				continue
			}
			parts := strings.Split(tag, ",")
			if parts[0] != "" {
				name = parts[0]
			}
			for _, opt := range parts[1:] {
				if opt == "required" {
					required = true
				}
			}
		}
		val, found := lookup(lines, name)
		if !found {
			if required {
				return &MissingError{Field: name}
			}
			continue
		}
		if err := set(e.Field(i), val); err != nil {
			return fmt.Errorf("decode: field %s: %w", f.Name, err)
		}
	}
	return nil
}

func lookup(lines []string, name string) (string, bool) {
	for _, line := range lines {
		if key, val, ok := strings.Cut(line, "="); ok && strings.TrimSpace(key) == name {
			return strings.TrimSpace(val), true
		}
	}
	return "", false
}

// set parses s into a value of a basic kind, or a list of strings.
func set(v reflect.Value, s string) error {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetUint(n)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		v.SetBool(b)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetFloat(x)
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String {
			return fmt.Errorf("cannot decode a list into %s", v.Type())
		}
		v.Set(reflect.ValueOf(strings.Split(s, ";")).Convert(v.Type()))
	default:
		return fmt.Errorf("cannot decode into %s", v.Type())
	}
	return nil
}
