package hrt

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// recorder is a struct that holds a buffer, as an
// httptest.ResponseRecorder does.
type recorder struct {
	Code   int
	Body   *bytes.Buffer
	Header map[string]string
	note   string
}

// named has a String method and exported fields.
type named struct{ N int }

func (n *named) String() string { return fmt.Sprintf("named %d", n.N) }

// node is an interface whose methods include String, as the root of a
// syntax tree often is.
type node interface {
	Pos() int
	String() string
}

func (n *named) Pos() int { return n.N }

// tree holds its root as such an interface, and other values as
// interfaces without String.
type tree struct {
	Root  node
	Empty node
	Any   any
	Src   fmt.Stringer
}

// What the end of a test observes of the values its statements produced:
// the text of a pointed value's String method first (its length when
// long), then the exported fields of a pointed struct, with the text of
// a pointer field's String method or of an interface field's whose type
// has that method (a field of type any has not: x.Any.String() would not
// compile); nothing of a value that is no pointer.
func TestDescribeEnd(t *testing.T) {
	long := strings.Repeat("x", maxEndText+1)
	cases := []struct {
		name string
		v    any
		want []observation
	}{
		{"buffer", bytes.NewBufferString("<p>hi</p>\n"), []observation{
			{path: "String()", kind: obsString, text: "<p>hi</p>\n"},
		}},
		{"builder", &strings.Builder{}, []observation{
			{path: "String()", kind: obsString, text: ""},
		}},
		{"long buffer", bytes.NewBufferString(long), []observation{
			{path: "String()", kind: obsLen, text: fmt.Sprint(maxEndText + 1)},
		}},
		{"struct with a buffer", &recorder{Code: 404, Body: bytes.NewBufferString("not found")}, []observation{
			{path: ".Code", kind: obsInt, text: "404"},
			{path: ".Body", kind: obsNotNil},
			{path: ".Body.String()", kind: obsString, text: "not found"},
			{path: ".Header", kind: obsNil},
		}},
		{"stringer with fields", &named{N: 3}, []observation{
			{path: "String()", kind: obsString, text: "named 3"},
			{path: ".N", kind: obsInt, text: "3"},
		}},
		{"interface fields", &tree{Root: &named{N: 7}, Any: &named{N: 8}, Src: &named{N: 9}}, []observation{
			{path: ".Root", kind: obsNotNil},
			{path: ".Root.String()", kind: obsString, text: "named 7"},
			{path: ".Empty", kind: obsNil},
			{path: ".Any", kind: obsNotNil},
			{path: ".Src", kind: obsNotNil},
			{path: ".Src.String()", kind: obsString, text: "named 9"},
		}},
		{"no pointer", recorder{Code: 1}, nil},
		{"nil pointer", (*named)(nil), nil},
	}
	for _, tc := range cases {
		got := describe(2, 1, tc.v, false, true)
		for i := range tc.want {
			tc.want[i].stmt, tc.want[i].result, tc.want[i].end = 2, 1, true
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: describe = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Right after a call, a long String text is not observed at all, as
// before; a pointer field's short one is.
func TestDescribeAfterCall(t *testing.T) {
	got := describe(0, 0, bytes.NewBufferString(strings.Repeat("y", maxText+1)), false, false)
	want := []observation{{kind: obsNotNil}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("describe = %+v, want %+v", got, want)
	}
	got = describe(0, 0, recorder{Body: bytes.NewBufferString("ok")}, false, false)
	want = []observation{
		{path: ".Code", kind: obsInt, text: "0"},
		{path: ".Body", kind: obsNotNil},
		{path: ".Body.String()", kind: obsString, text: "ok"},
		{path: ".Header", kind: obsNil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("describe = %+v, want %+v", got, want)
	}
}

// opcode is a named byte type: a slice of it is observed element by
// element, not as text.
type opcode byte

// words is a named slice type.
type words []string

// A slice right after a call: its length always, and what it holds when
// that is short: the bytes of a []byte as text, the values of up to
// maxElems elements of a basic kind as a list of length-prefixed texts.
func TestDescribeSlices(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want []observation
	}{
		{"ints", []int{3, -1, 0}, []observation{{kind: obsLen, text: "3"}, {kind: obsElems, text: "1:32:-11:0"}}},
		{"strings", words{"a:b", "", "ü"}, []observation{{kind: obsLen, text: "3"}, {kind: obsElems, text: "3:a:b0:2:ü"}}},
		{"floats and bools", []any{1.5}, []observation{{kind: obsLen, text: "1"}}},
		{"float32", []float32{0.1}, []observation{{kind: obsLen, text: "1"}, {kind: obsElems, text: "3:0.1"}}},
		{"bytes", []byte("\x81\xa1a"), []observation{{kind: obsLen, text: "3"}, {kind: obsBytes, text: "\x81\xa1a"}}},
		{"named bytes", []opcode{6, 62}, []observation{{kind: obsLen, text: "2"}, {kind: obsElems, text: "1:62:62"}}},
		{"empty", []int{}, []observation{{kind: obsLen, text: "0"}}},
		{"too many", make([]int, maxElems+1), []observation{{kind: obsLen, text: fmt.Sprint(maxElems + 1)}}},
		{"too long", []string{strings.Repeat("z", maxText)}, []observation{{kind: obsLen, text: "1"}}},
		{"long bytes", make([]byte, maxText+1), []observation{{kind: obsLen, text: fmt.Sprint(maxText + 1)}}},
		{"structs", []recorder{{}}, []observation{{kind: obsLen, text: "1"}}},
		{"map", map[string]int{"a": 1}, []observation{{kind: obsLen, text: "1"}}},
	}
	for _, tc := range cases {
		got := describe(0, 0, tc.v, false, false)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: describe = %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// A field at the end, and what a decode target points to, likewise.
	got := describe(1, 0, &struct{ Tags []string }{Tags: []string{"x"}}, false, true)
	want := []observation{{stmt: 1, path: ".Tags", end: true, kind: obsLen, text: "1"}, {stmt: 1, path: ".Tags", end: true, kind: obsElems, text: "1:x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("field: describe = %+v, want %+v", got, want)
	}
	target := []uint{7}
	got = describePointee(1, 0, &target)
	want = []observation{{stmt: 1, path: "*", end: true, kind: obsLen, text: "1"}, {stmt: 1, path: "*", end: true, kind: obsElems, text: "1:7"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pointee: describe = %+v, want %+v", got, want)
	}
}

// badError's Error dereferences its receiver, as a typed nil pointer's
// often does.
type badError struct{ msg string }

func (e *badError) Error() string { return e.msg }

// An error whose Error method panics is neither the end of the worker nor
// an assertion: the panic's message says what fmt says of it, and an
// error result or field is left unobserved.
func TestErrorsWhoseErrorPanics(t *testing.T) {
	var nilErr error = (*badError)(nil)
	text, isErr, _ := describePanic(nilErr)
	if text != "<nil>" || !isErr {
		t.Errorf("describePanic = %q, %v; want %q, true", text, isErr, "<nil>")
	}
	if got := describe(0, 0, nilErr, true, false); got != nil {
		t.Errorf("describe of the error = %+v, want nothing", got)
	}
	type result struct{ Err error }
	got := describe(0, 0, &result{Err: nilErr}, false, true)
	if len(got) != 0 {
		t.Errorf("describe of the field = %+v, want nothing", got)
	}
	if got := describe(0, 0, error(&badError{"bad"}), true, false); !reflect.DeepEqual(got, []observation{{kind: obsError, text: "bad"}}) {
		t.Errorf("describe of a good error = %+v", got)
	}
}
