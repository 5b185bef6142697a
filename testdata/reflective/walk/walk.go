// Package walk classifies reflected values: the kind switch a comparison
// library dispatches on.
package walk

import "reflect"

// Classify names the class of the value v holds.
func Classify(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "uint"
	case reflect.Float32, reflect.Float64:
		return "float"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Map:
		return "map"
	case reflect.Struct:
		return "struct"
	case reflect.Pointer:
		return "pointer"
	case reflect.Func:
		return "func"
	case reflect.Interface:
		return "interface"
	}
	return "other"
}

// Fields lists the names of the exported fields of a struct value, the
// promoted fields of embedded structs first.
func Fields(v reflect.Value) []string {
	t := v.Type()
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, Fields(v.Field(i))...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		out = append(out, f.Name)
	}
	return out
}

// Len is the number of elements of a list or map value, -1 for a nil
// slice or map.
func Len(v reflect.Value) int {
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil() {
		return -1
	}
	return v.Len()
}

// Truth reads the result of a comparer: false unless it is a true bool.
func Truth(v reflect.Value) bool {
	if v.Kind() != reflect.Bool {
		return false
	}
	return v.Bool()
}
