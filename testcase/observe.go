package testcase

import (
	"strconv"
	"strings"
)

// ObsKind is the kind of an observed value.
type ObsKind uint8

// Observed value kinds.
const (
	ObsNil     ObsKind = iota + 1 // a nil pointer, slice, map, interface, func or chan
	ObsNotNil                     // a non-nil pointer, interface, func or chan
	ObsBool                       // Text is "true" or "false"
	ObsInt                        // Text is a decimal integer
	ObsUint                       // Text is a decimal unsigned integer
	ObsFloat                      // Text is strconv.FormatFloat(x, 'g', -1, 64)
	ObsString                     // Text is the string
	ObsNoError                    // a nil error
	ObsError                      // Text is the error's message
	ObsLen                        // Text is the length of a slice, map or string
	ObsElems                      // Text holds the elements of a slice of a basic type (see Elems)
	ObsBytes                      // Text is the content of a byte slice
	// ObsReleased is no value: at the end of the test, the executor
	// called the method that releases the result (Op.Releases), which was
	// not nil, and the call returned. The written test defers that call.
	ObsReleased
)

// Elems splits the Text of an ObsElems observation into the texts of the
// elements, each as an observation of its kind would hold it (a decimal
// integer, a float, "true", a string); ok is false if the text is not
// such a list. The text holds each element as its length in decimal, a
// colon, and its text.
func Elems(text string) (elems []string, ok bool) {
	for text != "" {
		colon := strings.IndexByte(text, ':')
		if colon <= 0 {
			return nil, false
		}
		n, err := strconv.Atoi(text[:colon])
		if err != nil || n < 0 || n > len(text)-colon-1 {
			return nil, false
		}
		elems = append(elems, text[colon+1:colon+1+n])
		text = text[colon+1+n:]
	}
	return elems, len(elems) > 0
}

// Observation is one value seen while executing a test: a result of a
// statement (right after it ran), or a field of a value at the end of the
// test. The emitter turns stable observations into assertions.
type Observation struct {
	Ref Ref
	// Path selects a part of the value: "" for the value itself, ".F" for
	// an exported field, "*" for what a decode target points to (its
	// variable); a trailing "String()" (".F.String()", "String()") for the
	// text of its String method. An ObsLen observation is the length of
	// the selected part; a slice observed by its contents (ObsElems,
	// ObsBytes) is also observed by its length.
	Path string
	// End is true for observations taken when the test finished.
	End  bool
	Kind ObsKind
	Text string
}

// Outcome is what executing a test showed, for emission: the observations
// and how the test ended.
type Outcome struct {
	Observations []Observation
	// Panicked is true if statement PanicStmt panicked with a value of
	// which PanicText is the message (string value, error message, or
	// %v of anything else); PanicIsError tells an error value apart.
	Panicked     bool
	PanicStmt    int
	PanicText    string
	PanicIsError bool
	PanicIsText  bool
}

// Stable keeps the observations equal in two executions of the same test.
// It returns nil when the executions ended differently (one panicked, the
// other did not): the test itself is flaky.
func Stable(a, b *Outcome) *Outcome {
	if a == nil || b == nil || a.Panicked != b.Panicked || a.PanicStmt != b.PanicStmt {
		return nil
	}
	out := &Outcome{}
	seen := map[Observation]bool{}
	for _, o := range b.Observations {
		seen[o] = true
	}
	for _, o := range a.Observations {
		if seen[o] {
			out.Observations = append(out.Observations, o)
		}
	}
	out.Panicked, out.PanicStmt = a.Panicked, a.PanicStmt
	if a.PanicText == b.PanicText && a.PanicIsError == b.PanicIsError && a.PanicIsText == b.PanicIsText {
		out.PanicText, out.PanicIsError, out.PanicIsText = a.PanicText, a.PanicIsError, a.PanicIsText
	}
	return out
}
