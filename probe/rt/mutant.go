//go:build go1.21

package rt

// The mutant runtime. cling's mutation evaluator compiles every mutant of a
// run into one test binary (mutant schemata): each mutated expression asks
// M whether its mutant is the active one, and the environment variable
// CLING_MUTANT selects that mutant when the binary starts (absent, or -1:
// none). The helpers below evaluate the original code and return either
// its value or the mutant's alternative, so that the mutated source never
// has to name a type.
//
// For the baseline run, CLING_MUTCOV names a file that receives, unbuffered
// so that it survives crashes and os.Exit, one line per event:
//
//	T <test>   a test function begins
//	E <test>   a test function (with its subtests) ends
//	M <id>     mutant id's site is reached, first time since the last T or E
//
// A site reached while tests are running belongs to every test that has
// begun and not ended; a site reached outside any test (package
// initialisation, TestMain) to all of them.

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"sync"
)

var (
	// activeMutant is the ID of the mutant this process runs.
	activeMutant = int32(envInt("CLING_MUTANT", -1))

	// mutCov receives the baseline's per-test coverage; nil otherwise.
	mutCov   = openMutCov()
	mutMu    sync.Mutex
	mutEpoch uint32   // count of T and E events
	mutSeen  []uint32 // per mutant: 1 + the epoch it was last written in
)

// ErrMutant is the error that error-returning mutants return instead of nil.
var ErrMutant = errors.New("cling: mutant")

func openMutCov() *os.File {
	name := os.Getenv("CLING_MUTCOV")
	if name == "" {
		return nil
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil
	}
	return f
}

// M reports whether mutant id is the active mutant, and records in the
// baseline run that its site was reached.
func M(id int32) bool {
	if mutCov != nil {
		reached(id)
	}
	return id == activeMutant
}

func reached(id int32) {
	if id < 0 {
		return
	}
	mutMu.Lock()
	defer mutMu.Unlock()
	if int(id) >= len(mutSeen) {
		mutSeen = append(mutSeen, make([]uint32, int(id)+1-len(mutSeen)+64)...)
	}
	if mutSeen[id] == mutEpoch+1 {
		return
	}
	mutSeen[id] = mutEpoch + 1
	mutCov.Write([]byte("M " + strconv.Itoa(int(id)) + "\n"))
}

// mutTestEvent writes a T or E line to the coverage file.
func mutTestEvent(kind byte, name string) {
	if mutCov == nil {
		return
	}
	mutMu.Lock()
	defer mutMu.Unlock()
	mutEpoch++
	mutCov.Write([]byte(string(kind) + " " + name + "\n"))
}

// EndTest marks the end of a test function and its subtests; marked test
// files register it with t.Cleanup (or defer it) next to BeginTest.
func EndTest(name string) { mutTestEvent('E', name) }

// Number is the constraint of the numeric helpers: integers and floats.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// Integer is the constraint of the bitwise helpers.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Ordered is the constraint of the ordering comparisons.
type Ordered interface {
	Number | ~string
}

// Zero returns v, or the zero value of T when mutant id is active.
func Zero[T any](id int32, v T) T {
	if M(id) {
		var z T
		return z
	}
	return v
}

// Not returns v, or !v when mutant id is active.
func Not[T ~bool](id int32, v T) T {
	if M(id) {
		return !v
	}
	return v
}

// Num returns v, or when mutant id is active 1 if v is 0 and 0 otherwise.
func Num[T Number](id int32, v T) T {
	if M(id) {
		if v == 0 {
			return 1
		}
		return 0
	}
	return v
}

// Err returns v, or when mutant id is active ErrMutant if v is nil and nil
// otherwise.
func Err(id int32, v error) error {
	if M(id) {
		if v == nil {
			return ErrMutant
		}
		return nil
	}
	return v
}

// Const returns v, or alt when mutant id is active.
func Const[T any](id int32, alt, v T) T {
	if M(id) {
		return alt
	}
	return v
}

// Alteration kinds for Ret.
const (
	AltZero uint8 = iota // the zero value
	AltNot               // a negated bool
	AltNum               // 0 -> 1, x -> 0
	AltErr               // nil <-> ErrMutant
)

// Ret returns f, or when mutant id is active a function that calls f and
// alters its result k: the mutant of a return statement that returns the
// results of a call with several results.
func Ret[F any](id int32, k int, kind uint8, f F) F {
	if !M(id) {
		return f
	}
	fv := reflect.ValueOf(&f).Elem()
	return reflect.MakeFunc(fv.Type(), func(in []reflect.Value) []reflect.Value {
		var out []reflect.Value
		if fv.Type().IsVariadic() {
			out = fv.CallSlice(in)
		} else {
			out = fv.Call(in)
		}
		if k >= 0 && k < len(out) {
			out[k] = alter(out[k], kind)
		}
		return out
	}).Interface().(F)
}

// alter returns the alternative of v for an alteration kind.
func alter(v reflect.Value, kind uint8) reflect.Value {
	t := v.Type()
	switch kind {
	case AltNot:
		if t.Kind() == reflect.Bool {
			return reflect.ValueOf(!v.Bool()).Convert(t)
		}
	case AltNum:
		one := 0
		if v.IsZero() {
			one = 1
		}
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64:
			return reflect.ValueOf(one).Convert(t)
		}
	case AltErr:
		if t.Kind() == reflect.Interface && reflect.TypeOf(ErrMutant).Implements(t) {
			if !v.IsNil() {
				return reflect.Zero(t)
			}
			r := reflect.New(t).Elem()
			r.Set(reflect.ValueOf(ErrMutant))
			return r
		}
	}
	return reflect.Zero(t)
}

// Del returns f, or when mutant id is active a function of the same type
// that does nothing and returns zero values: the call is deleted.
func Del[F any](id int32, f F) F {
	if !M(id) {
		return f
	}
	t := reflect.ValueOf(&f).Elem().Type()
	return reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
		out := make([]reflect.Value, t.NumOut())
		for i := range out {
			out[i] = reflect.Zero(t.Out(i))
		}
		return out
	}).Interface().(F)
}

// Prop returns f, or when mutant id is active a function of the same type
// that does not call f and returns its argument arg as result res (and
// zero values as the other results): argument propagation.
func Prop[F any](id int32, arg, res int, f F) F {
	if !M(id) {
		return f
	}
	t := reflect.ValueOf(&f).Elem().Type()
	return reflect.MakeFunc(t, func(in []reflect.Value) []reflect.Value {
		out := make([]reflect.Value, t.NumOut())
		for i := range out {
			out[i] = reflect.Zero(t.Out(i))
		}
		if arg < len(in) && res < len(out) {
			out[res] = in[arg]
		}
		return out
	}).Interface().(F)
}

// Comparison helpers: each evaluates a comparison whose operands are
// evaluated once, with the alternatives of a boundary mutant b and a
// negation mutant n (either may be -1, no mutant).

// LT is a < c.
func LT[T Ordered](b, n int32, a, c T) bool {
	switch {
	case M(b):
		return a <= c
	case M(n):
		return a >= c
	}
	return a < c
}

// LE is a <= c.
func LE[T Ordered](b, n int32, a, c T) bool {
	switch {
	case M(b):
		return a < c
	case M(n):
		return a > c
	}
	return a <= c
}

// GT is a > c.
func GT[T Ordered](b, n int32, a, c T) bool {
	switch {
	case M(b):
		return a >= c
	case M(n):
		return a <= c
	}
	return a > c
}

// GE is a >= c.
func GE[T Ordered](b, n int32, a, c T) bool {
	switch {
	case M(b):
		return a > c
	case M(n):
		return a < c
	}
	return a >= c
}

// EQ is a == c, or a != c when mutant n is active.
func EQ[T comparable](n int32, a, c T) bool {
	if M(n) {
		return a != c
	}
	return a == c
}

// NE is a != c, or a == c when mutant n is active.
func NE[T comparable](n int32, a, c T) bool {
	if M(n) {
		return a == c
	}
	return a != c
}

// Cond returns v, or true when mutant t is active and false when mutant f
// is active: a removed conditional.
func Cond[T ~bool](t, f int32, v T) T {
	switch {
	case M(t):
		return true
	case M(f):
		return false
	}
	return v
}

// Arithmetic helpers: each computes a binary operation, or its replacement
// when mutant id is active (PIT's math mutator).

// Add is a + c, or a - c.
func Add[T Number](id int32, a, c T) T {
	if M(id) {
		return a - c
	}
	return a + c
}

// Sub is a - c, or a + c.
func Sub[T Number](id int32, a, c T) T {
	if M(id) {
		return a + c
	}
	return a - c
}

// Mul is a * c, or a / c.
func Mul[T Number](id int32, a, c T) T {
	if M(id) {
		return a / c
	}
	return a * c
}

// Quo is a / c, or a * c.
func Quo[T Number](id int32, a, c T) T {
	if M(id) {
		return a * c
	}
	return a / c
}

// Rem is a % c, or a * c.
func Rem[T Integer](id int32, a, c T) T {
	if M(id) {
		return a * c
	}
	return a % c
}

// And is a & c, or a | c.
func And[T Integer](id int32, a, c T) T {
	if M(id) {
		return a | c
	}
	return a & c
}

// Or is a | c, or a & c.
func Or[T Integer](id int32, a, c T) T {
	if M(id) {
		return a & c
	}
	return a | c
}

// Xor is a ^ c, or a & c.
func Xor[T Integer](id int32, a, c T) T {
	if M(id) {
		return a & c
	}
	return a ^ c
}

// AndNot is a &^ c, or a & c.
func AndNot[T Integer](id int32, a, c T) T {
	if M(id) {
		return a & c
	}
	return a &^ c
}

// Shl is a << s, or a >> s.
func Shl[T, S Integer](id int32, a T, s S) T {
	if M(id) {
		return a >> s
	}
	return a << s
}

// Shr is a >> s, or a << s.
func Shr[T, S Integer](id int32, a T, s S) T {
	if M(id) {
		return a << s
	}
	return a >> s
}

// Inc returns the step of an increment statement rewritten as x += Inc(id,
// x): 1, or -1 when mutant id is active.
func Inc[T Number](id int32, _ T) T {
	var one T = 1
	if M(id) {
		return -one
	}
	return one
}

// Dec returns the step of a decrement statement rewritten as x += Dec(id,
// x): -1, or 1 when mutant id is active.
func Dec[T Number](id int32, _ T) T {
	var one T = 1
	if M(id) {
		return one
	}
	return -one
}
