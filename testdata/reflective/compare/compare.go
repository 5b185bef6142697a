// Package compare tells whether two values are equal, walking them by
// reflection, as comparison libraries do.
package compare

import (
	"fmt"
	"reflect"

	"example.com/reflective/walk"
)

// Option changes how values are compared.
type Option struct {
	fn reflect.Value
}

// Comparer returns an option comparing the values of type T with f, a
// func(T, T) bool.
func Comparer(f any) Option {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.Type().NumIn() != 2 || v.Type().NumOut() != 1 {
		panic(fmt.Sprintf("compare: not a comparer: %T", f))
	}
	return Option{fn: v}
}

// Equal reports whether x and y are equal: of the same type, and equal
// by the first comparer for that type, or else element by element.
func Equal(x, y any, opts ...Option) bool {
	s := &state{opts: opts}
	return s.equal(reflect.ValueOf(x), reflect.ValueOf(y))
}

type state struct {
	opts []Option
}

func (s *state) equal(vx, vy reflect.Value) bool {
	if !vx.IsValid() || !vy.IsValid() {
		return vx.IsValid() == vy.IsValid()
	}
	if vx.Type() != vy.Type() {
		return false
	}
	for _, o := range s.opts {
		if o.fn.IsValid() && o.fn.Type().In(0) == vx.Type() {
			out := o.fn.Call([]reflect.Value{vx, vy})
			return walk.Truth(out[0])
		}
	}
	switch walk.Classify(vx) {
	case "list":
		n := walk.Len(vx)
		if n != walk.Len(vy) {
			return false
		}
		eq := true
		for i := 0; i < n; i++ {
			eq = s.equal(vx.Index(i), vy.Index(i)) && eq
		}
		return eq
	case "map":
		if walk.Len(vx) != walk.Len(vy) {
			return false
		}
		eq := true
		for _, k := range vx.MapKeys() {
			eq = s.equal(vx.MapIndex(k), vy.MapIndex(k)) && eq
		}
		return eq
	case "struct":
		eq := true
		for _, name := range walk.Fields(vx) {
			eq = s.equal(vx.FieldByName(name), vy.FieldByName(name)) && eq
		}
		return eq
	case "pointer", "interface":
		if vx.IsNil() || vy.IsNil() {
			return vx.IsNil() == vy.IsNil()
		}
		return s.equal(vx.Elem(), vy.Elem())
	case "func":
		return vx.IsNil() && vy.IsNil()
	}
	return vx.Interface() == vy.Interface()
}
