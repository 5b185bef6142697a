package testcase

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
)

// Observation is one value seen while executing a test: a result of a
// statement (right after it ran), or a field of a value at the end of the
// test. The emitter turns stable observations into assertions.
type Observation struct {
	Ref Ref
	// Path selects a part of the value: "" for the value itself, ".F" for
	// an exported field, "*" for what a decode target points to (its
	// variable); a trailing "String()" (".F.String()", "String()") for the
	// text of its String method. An ObsLen observation is the length of
	// the selected part.
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
