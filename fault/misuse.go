package fault

import (
	"fmt"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/testcase"
)

// Misused tells whether a fault candidate of kind k, which test t ran into
// at statement stmt (-1 if not known; for a leak, the statement that
// panicked, if one did), is the test's own mistake: misuse
// of the API rather than a fault. It returns the reason, or "" when the
// candidate stays a fault. The rule looks at the arguments the statement
// passes, its receiver included, as the test made them:
//
//  1. nil: for a fault that is an operation on a nil value (a nil
//     dereference, an assignment to a nil map, a close of a nil channel, a
//     goroutine blocked for ever, a type assertion on a nil interface,
//     which the runtime reports as "X is nil, not Y"), an argument written
//     as nil, or as the zero value, of a pointer, func, map, channel or
//     interface type, or a function literal of the test's that returns
//     nil for such a result (not an error or an empty interface; see
//     nilReturned);
//
//  2. a struct that bypasses its constructor: for any fault, an
//     argument that is a composite literal, the zero value or a fresh
//     variable (var v T, passed as &v) of a struct
//     type (or a pointer to one) that has unexported fields (its own or
//     those of a struct it embeds), which only its package can set, when
//     a constructor for the type exists (a
//     function, or a method of another type, whose first result is the
//     type or a pointer to it: zerolog's Context, made by Logger.With). The
//     same for a literal of a named number or string type of which its
//     package declares no exported constant and hands out values from a
//     constructor (goldmark's parser.ContextKey, made by
//     parser.NewContextKey): the test made up a value only the package
//     may make;
//
//  3. an opaque zero value: for an operation on a nil value, an argument
//     that is a composite literal, the zero value or a fresh variable
//     (passed as &v) of a struct type (or a
//     pointer to one) with no exported field at all, constructor or not:
//     the test could set nothing in it, and the package hands out the
//     values that work (go-cmp's cmp.SliceIndex{} of a Path, for one).
//     For an operation on a nil value, rules 1 to 3 also hold for an
//     argument built from such a nil, zero value or literal (a slice
//     literal that holds one, an option made from nil, the nil field a
//     method returns of a literal that bypassed its constructor). Rules
//     1 to 3 hold as well for an argument one of whose fields the test
//     set, before the statement, to such a value: for any fault, a
//     literal that bypasses its constructor; for an operation on a nil
//     value, nil or an opaque zero value too (a heading a constructor
//     made, given a label literal for its embedded label);
//
//  4. a nil result: with the values an execution observed (out, nil
//     when not observed), for any fault, an argument (the receiver
//     included) that is a result of a call that returned a non-nil error
//     beside it: Go leaves the other results of a failed call undefined,
//     and golang-lru's New(-5) returns a cache whose inner list is nil
//     with its error; for an operation on a nil value, an argument
//     that was observed nil and is a result of an earlier call (one that
//     failed, returning a non-nil error, or one that says "none" with
//     nil), or an error result observed nil (the call succeeded, and the
//     test passed its "no error" on: yaml.FormatError(err) of a
//     conversion that worked), or one an argument is built from: the
//     test used it without the check a caller makes;
//
//  5. a resource not released: for a leaked goroutine, a value the test
//     made whose type has a method Close, Stop, Shutdown or Cancel that
//     the test never called on it (in the statements that ran).
//
//  6. a value of the test's choosing as an empty interface: for a failed
//     type assertion, an argument passed as any (or in an ...any or []any
//     argument) that is not nil: the API takes any type, the code asserts
//     one, and the test picked another (testify's msgAndArgs ...any
//     whose first element must be a format string). For an interface with
//     methods, the same when the argument's type is the one the assertion
//     failed on ("interface conversion: ast.Node is *ast.Link, not
//     *ast.List", the test having passed an *ast.Link as the ast.Node):
//     the code takes that interface but works on one implementation of
//     it, and the test passed another. For an unhashable map key, the
//     arguments built from a slice, map or func the test put where any
//     value is taken (see unhashableAny);
//
//  7. a long wait: for a hang, an argument of type time.Duration the
//     test wrote that is a second or more (the call waits as long as the
//     test asked, past cling's limit for a call);
//
//  8. a cycle the test made: for a stack overflow or a hang, a field the
//     test set (in the statements that ran) to a value built from the
//     object itself (file.Node = file), or a method it gave such a value,
//     not of plain data (httpError.SetInternal(httpError)): code that
//     walks the structure recurses or loops for ever, as the test asked;
//
//  9. a size the test asked for: for a negative or huge length (a
//     makeslice, makechan or growslice out of range), an integer the test
//     wrote, in the arguments or in the values they are built from, that
//     is negative or at least 1<<32: the code allocated what the test
//     asked; the same for an index or a slice out of range and a negative
//     shift (text.NewSegment(5, -7).Value(src)), for an index the called
//     function raised itself that the message names and the statement
//     passes (see askedIndex), and for a bound past the end, by the
//     message, that the test wrote into the arguments (see askedBeyond);
//     for a hang, one of at least 1<<24: the test built an input
//     (bytes.Repeat(b, 284758393)) that takes longer to go through than
//     cling waits; for an out-of-memory crash, one of at least 1<<24
//     too: the code allocated in proportion to what the test asked for
//     (prometheus.SummaryOpts{BufCap: math.MaxUint32}, two buffers of
//     four billion float64s).
//
//  10. a value handed over before: for an operation on a nil value, or for
//     an index, a slice, a length or a shift out of range, a call that ran
//     before the statement took one of its arguments (or a value they are
//     built from) as its receiver or an argument, or changed package-level
//     state, and was given beside it a value rules 1 to 3 or 9 name, or
//     the nil result of a call that returned an error (rule 4; see
//     givenEarlier): reader.SetPadding(-99) before the parser reads the
//     reader, a nil func registered before Marshal calls it, the nil
//     *regexp.Regexp of a failed regexp.Compile handed to a policy before
//     it sanitizes;
//
//  11. a method R drives itself: for any fault, the statement calls a
//     method of an interface R's package declares and R's own code calls
//     through that interface (see Cluster.DrivenByCaller): goldmark's
//     block parsers, whose Open, Continue and Close the parser calls in
//     turn for each block, with the state each step leaves for the next.
//     A test that calls Close without Open stepped into a protocol whose
//     order only R knows.
//     The same for a statement that takes a value built from the result
//     of such a call, or one such a call took as an argument before (the
//     node an inline parser's Parse returned, the reader it advanced);
//
//  12. a structure of a third package: for an operation on a nil value,
//     an argument built from a value of a package of R's module other than
//     R and E, which the test made with that package's own API (a call of
//     its functions or methods, a literal of its types), when no value of
//     that package that R's API returned is among them (go-yaml's
//     yaml.NodeToValue(ast.Alias(tok), ...), an alias node without the
//     value the parser would give it): structures of that kind come from
//     the module's own producers (its parser), which fill what the bare
//     constructors leave nil.
//
//  13. one value in two places: for a hang, the statement, or a call
//     that built one of its arguments, takes the same value (not of a
//     plain-data type) as two of its arguments, receiver included, or as
//     one argument a value built from another: io.TeeReader(buffer,
//     buffer) reads what it writes, and so do
//     SanitizeReaderToWriter(buffer, buffer) and
//     SanitizeReaderToWriter(bufio.NewReader(buffer), buffer); the input
//     never ends (see passedTwice).
//
// Rule 3 also covers, for an operation on a nil value, an argument the
// test made (a literal, a zero value, a fresh variable) of a struct type
// with a constructor, that leaves one of its map, pointer, channel, func
// or interface fields nil: the constructor would have filled it
// (goldmark's parser.Config{}, whose Options map parser.NewConfig makes);
// and, constructor or not, one that leaves an embedded field of pointer
// or interface type nil, through which the struct's promoted methods
// reach nil (afero.Afero{}, whose methods use the Fs it embeds; see
// embeddedLeftNil), or, of a type of another package than R and E, any
// such field (&io.LimitedReader{N: 8} without its R); and, of any type,
// the receiver of an error type's Error or Unwrap that leaves its field
// of type error nil: a wrapper that wraps no error (echo's
// &ErrKeyAuthMissing{}; see errorMethod).
//
// Other faults with no statement (crashes) and data races are never
// misuse. For a crash, the minimised reproducer's last statement is the
// one that failed (see FailedAt).
//
// msg is the failure's message, and raisedIn the function (as the runtime
// names it) of the innermost frame of the module's code where it
// happened, "" if not known.
func Misused(c *testcase.Cluster, t *testcase.Test, stmt int, k Kind, msg, raisedIn string, out *testcase.Outcome) string {
	if k == Leak {
		ran := t.Len()
		if stmt >= 0 && stmt < ran {
			ran = stmt + 1 // the test panicked there
		}
		return unreleased(t.Prefix(ran))
	}
	if k == StackOverflow || k == Hang {
		ran := t.Len()
		if stmt >= 0 && stmt < ran {
			ran = stmt + 1
		}
		if why := madeCycle(t, ran); why != "" {
			return why
		}
	}
	if stmt < 0 || stmt >= t.Len() || k == Race {
		return ""
	}
	s := t.Stmts[stmt]
	if s.Op.Kind != testcase.OpCall && s.Op.Kind != testcase.OpFieldSet {
		return ""
	}
	if why := drivenStep(c, t, stmt); why != "" {
		return why
	}
	if k.inner() == IndexOutOfRange {
		if why := askedIndex(t, s, msg, raisedIn); why != "" {
			return why
		}
	}
	if k.inner() == IndexOutOfRange || k.inner() == SliceOutOfRange {
		if why := askedBeyond(t, s, msg); why != "" {
			return why
		}
	}
	onNil := k.Nil() || k.inner() == TypeAssertion && strings.Contains(msg, " is nil, not ")
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		src := t.Stmts[a.Stmt]
		what := argName(s.Op, i)
		lit := bypassing(c, src.Op)
		switch {
		case onNil && nilValue(src.Op):
			return fmt.Sprintf("%s is nil", what)
		case lit != "":
			return fmt.Sprintf("%s is %s", what, lit)
		case src.Op.Kind == testcase.OpPrim && madeUpScalar(c, src.Op.Type):
			return fmt.Sprintf("%s is a %s the test made up, not one its package made", what, types.TypeString(src.Op.Type, shortQualifier))
		case onNil && madeByTest(src.Op) && opaque(src.Op.Type):
			return fmt.Sprintf("%s is the zero value of %s, whose fields are all unexported", what, types.TypeString(structOf(src.Op.Type), shortQualifier))
		case onNil && c != nil && madeByTest(src.Op) && leftNil(t, a.Stmt) != "" && hasConstructor(c, structOf(src.Op.Type), types.NewPointer(structOf(src.Op.Type))):
			return fmt.Sprintf("%s is a %s the test made, whose field %s it left nil, not one a constructor made", what, types.TypeString(structOf(src.Op.Type), shortQualifier), leftNil(t, a.Stmt))
		case onNil && i == 0 && errorMethod(s.Op) && madeByTest(src.Op) && unwrapped(t, a.Stmt, out) != "":
			return fmt.Sprintf("%s is a %s the test made, whose error field %s it left nil: an error that wraps none", what, types.TypeString(structOf(src.Op.Type), shortQualifier), unwrapped(t, a.Stmt, out))
		case onNil && src.Op.Kind == testcase.OpCall:
			if isNil, withError := nilResult(out, a); isNil && withError {
				return fmt.Sprintf("%s is the nil result of %s, which returned an error", what, src.Op.Name)
			} else if isNil {
				return fmt.Sprintf("%s is the nil result of %s", what, src.Op.Name)
			} else if noError(out, a) {
				return fmt.Sprintf("%s is the nil error of %s, which succeeded", what, src.Op.Name)
			}
		}
		if _, withError := nilResult(out, a); withError && src.Op.Kind == testcase.OpCall {
			return fmt.Sprintf("%s is a result of %s, which returned an error", what, src.Op.Name)
		}
	}
	if k == Hang {
		if why := longWait(t, s); why != "" {
			return why
		}
	}
	if k.outOfRange() || k == Hang || k == OutOfMemory {
		limit, negative := int64(hugeSize), true
		if k == Hang || k == OutOfMemory {
			limit, negative = hugeWork, false
		}
		for i, a := range s.Args {
			if a.IsOmitted() {
				continue
			}
			if v, ok := hugeInt(t, a.Stmt, limit, negative); ok {
				return fmt.Sprintf("%s is built from %d, %s the test asked for", argName(s.Op, i), v, k.askedFor())
			}
		}
	}
	if k.inner() == TypeAssertion {
		if why := anyArgument(t, s); why != "" {
			return why
		}
		if why := assertedArgument(t, s, msg); why != "" {
			return why
		}
	}
	if onNil {
		for i, a := range s.Args {
			if a.IsOmitted() {
				continue
			}
			if why := holdsNil(c, t, a.Stmt); why != "" {
				return fmt.Sprintf("%s is built from %s", argName(s.Op, i), why)
			}
			if why := nilResultWithin(t, out, a); why != "" {
				return fmt.Sprintf("%s is built from %s", argName(s.Op, i), why)
			}
		}
	}
	if k.inner() == Unhashable {
		if why := unhashableAny(t, s); why != "" {
			return why
		}
	}
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		if why := fieldSetOn(c, t, stmt, a, onNil); why != "" {
			return fmt.Sprintf("%s has %s", argName(s.Op, i), why)
		}
	}
	if onNil && c != nil && c.Caller != nil {
		if pkg, made := madeWithThird(t, stmt, c.Caller.Path, raisedIn, false, c.ThirdPackage); pkg != "" {
			return fmt.Sprintf("the arguments hold a value of %s that the test made with %s, not one %s made", ShortName(pkg), made, c.Caller.Name)
		}
	}
	if onNil || k.outOfRange() {
		if why := givenEarlier(c, t, stmt, k, msg, onNil, out); why != "" {
			return why
		}
	}
	if k == Hang {
		return passedTwice(t, stmt)
	}
	return ""
}

// passedTwice returns why a hang is the test's doing (rule 13): the
// statement, or a call that made one of its arguments, passes the same
// value, not of a plain-data type, in two places (its receiver
// included), or two values one of which is built from the other:
// io.TeeReader(buffer, buffer) reads what it writes, and so do
// SanitizeReaderToWriter(buffer, buffer) and
// SanitizeReaderToWriter(bufio.NewReader(buffer), buffer): the input never
// ends. "" if none.
func passedTwice(t *testcase.Test, stmt int) string {
	why, _ := builtOf(t, stmt, func(k int) (string, bool) {
		s := t.Stmts[k]
		if s.Op.Kind != testcase.OpCall {
			return "", false
		}
		what := "the statement"
		if k != stmt {
			what = s.Op.Name + ", which built an argument,"
		}
		var args []int
		for i, a := range s.Args {
			if !a.IsOmitted() && i < len(s.Op.Params) && !plainData(s.Op.Params[i]) {
				args = append(args, i)
			}
		}
		for x, i := range args {
			for _, j := range args[x+1:] {
				a, b := s.Args[i], s.Args[j]
				switch {
				case a == b:
					return fmt.Sprintf("%s takes the same value as %s and %s, and may read what it writes", what, position(s.Op, i), position(s.Op, j)), true
				case a.Result == 0 && builtFromValue(t, b.Stmt, a.Stmt):
					return fmt.Sprintf("%s takes as %s a value built from its %s, and may read what it writes", what, position(s.Op, j), position(s.Op, i)), true
				case b.Result == 0 && builtFromValue(t, a.Stmt, b.Stmt):
					return fmt.Sprintf("%s takes as %s a value built from its %s, and may read what it writes", what, position(s.Op, i), position(s.Op, j)), true
				}
			}
		}
		return "", false
	})
	return why
}

// builtFromValue reports whether the value of statement i is built from
// that of statement j through calls and literals, i itself not counted.
func builtFromValue(t *testcase.Test, i, j int) bool {
	for _, a := range t.Stmts[i].Args {
		if !a.IsOmitted() && builtFrom(t, a.Stmt, j) {
			return true
		}
	}
	return false
}

// givenEarlier returns why what the test handed over before statement
// stmt is misuse (rule 10): a call that ran before it took one of the
// statement's arguments, or a value they are built from, as its receiver
// or an argument (a setter, an Advance, a registration on it; a value of
// plain data, a number, a string or a []byte, keeps nothing of such a
// call), or changed package-level state (a registration function), and
// passed beside it, for an operation on a nil value, a value built from
// nil, an opaque zero value or a literal that bypasses its constructor
// (rules 1 to 3) or the nil result of a call that returned an error (rule
// 4, by the observations out); for an index, a slice, a length or a shift
// out of range, an integer the test wrote that is negative or at least 1<<32,
// or one a bound past the end names (rule 9, see askedBeyond). The code
// kept what the test gave it and failed on it later.
// "" if none.
func givenEarlier(c *testcase.Cluster, t *testcase.Test, stmt int, k Kind, msg string, onNil bool, out *testcase.Outcome) string {
	bound, length, past := pastTheEnd(msg)
	used := inputsOf(t, stmt)
	for j := 0; j < stmt; j++ {
		s := t.Stmts[j]
		if used[j] || s.Op.Kind != testcase.OpCall && s.Op.Kind != testcase.OpFieldSet {
			continue
		}
		takes := s.Op.WritesState && !s.Op.Method
		for k, a := range s.Args {
			takes = takes || !a.IsOmitted() && used[a.Stmt] && k < len(s.Op.Params) && !plainData(s.Op.Params[k])
		}
		if !takes {
			continue
		}
		for i, a := range s.Args {
			if a.IsOmitted() || used[a.Stmt] {
				continue
			}
			if onNil {
				if why := holdsNil(c, t, a.Stmt); why != "" {
					return fmt.Sprintf("%s, which ran before, is given %s", argName(s.Op, i), why)
				}
				if t.Stmts[a.Stmt].Op.Kind == testcase.OpCall {
					if isNil, withError := nilResult(out, a); isNil && withError {
						return fmt.Sprintf("%s, which ran before, is given the nil result of %s, which returned an error", argName(s.Op, i), t.Stmts[a.Stmt].Op.Name)
					}
				}
				continue
			}
			if v, ok := hugeInt(t, a.Stmt, hugeSize, true); ok {
				return fmt.Sprintf("%s, which ran before, is built from %d, %s the test asked for", argName(s.Op, i), v, k.askedFor())
			}
			if v, ok := nearInt(t, a.Stmt, bound); ok && past {
				return fmt.Sprintf("%s, which ran before, is built from %d, and the code went to %d of the %d there are: the bound the test asked for", argName(s.Op, i), v, bound, length)
			}
		}
	}
	return ""
}

// fieldSetOn returns why a value the test changed before statement stmt
// is misuse (rules 1 to 3 through a field set): the test set a field of
// ref, wherever ref came from, to a value built from a literal that
// bypasses its constructor, or, for an operation on a nil value, from nil
// or an opaque zero value. A constructor's value whose parts the test
// replaced with made-up ones is no longer the constructor's. "" if none.
func fieldSetOn(c *testcase.Cluster, t *testcase.Test, stmt int, ref testcase.Ref, onNil bool) string {
	for j := 0; j < stmt && j < t.Len(); j++ {
		s := t.Stmts[j]
		if s.Op.Kind != testcase.OpFieldSet || len(s.Args) != 2 || s.Args[0] != ref || s.Args[1].IsOmitted() {
			continue
		}
		v := s.Args[1].Stmt
		why := ""
		if onNil {
			why = holdsNil(c, t, v)
		} else {
			why, _ = builtOf(t, v, func(k int) (string, bool) {
				why := bypassing(c, t.Stmts[k].Op)
				return why, why != ""
			})
		}
		if why != "" {
			return "its field " + s.Op.Fields[0].Name() + " set to " + why
		}
	}
	return ""
}

// FailedAt returns the statement of test t, a minimised reproducer of
// fault f, that failed: the one the execution reported, or, for a crash or
// a leak, whose statement the process could not report, the last one.
// Minimising removes every statement after the one that failed, since
// they never run. Data races have none (-1).
func FailedAt(f *Fault, t *testcase.Test) int {
	if f.Stmt >= 0 || f.Kind == Race {
		return f.Stmt
	}
	return t.Len() - 1
}

// holdsNil says what nil, opaque zero value or literal that bypasses a
// constructor (see rules 1 to 3) the value of statement i is built from
// ("" if none).
func holdsNil(c *testcase.Cluster, t *testcase.Test, i int) string {
	why, _ := builtOf(t, i, func(k int) (string, bool) {
		src := t.Stmts[k]
		switch {
		case nilValue(src.Op):
			return "nil " + types.TypeString(src.Op.Type, shortQualifier), true
		case madeByTest(src.Op) && opaque(src.Op.Type):
			return "the zero value of " + types.TypeString(structOf(src.Op.Type), shortQualifier), true
		case nilReturned(t, k) != "":
			return "a function that returns nil " + nilReturned(t, k), true
		case madeByTest(src.Op) && embeddedLeftNil(t, k) != "":
			return fmt.Sprintf("a value of %s whose embedded %s the test left nil", types.TypeString(structOf(src.Op.Type), shortQualifier), embeddedLeftNil(t, k)), true
		case madeByTest(src.Op) && ofAnotherPackage(c, structOf(src.Op.Type)) && leftNil(t, k) != "":
			return fmt.Sprintf("a value of %s whose field %s the test left nil", types.TypeString(structOf(src.Op.Type), shortQualifier), leftNil(t, k)), true
		}
		why := bypassing(c, src.Op)
		return why, why != ""
	})
	return why
}

// nilReturned names the type of a result that the function literal of
// statement k returns as nil, if it has one of pointer, func, map,
// channel or interface type (but error, whose nil is success, and the
// empty interface, whose nil is no value): a callback of the test's that
// hands the code a nil to call or follow. "" if none. A literal returns
// the zero value for every result after the first, and for the first
// with the zero body.
func nilReturned(t *testcase.Test, k int) string {
	s := t.Stmts[k]
	if s.Op.Kind != testcase.OpFunc {
		return ""
	}
	sig := testcase.Signature(s.Op.Type)
	lit, ok := s.Value.(testcase.FuncLit)
	if sig == nil || !ok || lit.Variant >= len(s.Op.Variants) {
		return ""
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if i == 0 && s.Op.Variants[lit.Variant].Body != testcase.BodyZero {
			continue
		}
		if r := sig.Results().At(i).Type(); nilable(r) && !testcase.IsError(r) && !emptyInterface(r) {
			return types.TypeString(r, shortQualifier)
		}
	}
	return ""
}

// unsetField returns the name of the first field of the struct value
// statement i makes (a composite literal, a zero value, a fresh variable)
// that the value leaves nil and kind accepts, or "": a literal sets the
// fields it is given something other than nil; a zero value or a fresh
// variable sets none.
func unsetField(t *testcase.Test, i int, kind func(*types.Var) bool) string {
	s := t.Stmts[i]
	st := structOf(s.Op.Type)
	if st == nil {
		return ""
	}
	set := map[string]bool{}
	if s.Op.Kind == testcase.OpComposite {
		for k, f := range s.Op.Fields {
			if k < len(s.Args) && !s.Args[k].IsOmitted() && !nilValue(t.Stmts[s.Args[k].Stmt].Op) {
				set[f.Name()] = true
			}
		}
	}
	u := st.Underlying().(*types.Struct)
	for k := 0; k < u.NumFields(); k++ {
		if f := u.Field(k); !set[f.Name()] && kind(f) {
			return f.Name()
		}
	}
	return ""
}

// ofAnotherPackage reports whether t is a named type of a package other
// than R and E (the standard library's io.LimitedReader, say): the code
// under test takes such a value as its package defines it, and one the
// test left part of nil is no value that package would hand out.
func ofAnotherPackage(c *testcase.Cluster, t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || c == nil || c.Caller == nil || c.Callee == nil {
		return false
	}
	p := n.Obj().Pkg().Path()
	return p != c.Caller.Path && p != c.Callee.Path
}

// embeddedLeftNil returns the first embedded field of pointer or
// interface type that the struct value statement i makes (a literal, a
// zero value, a fresh variable) leaves nil, "" if none: a struct that
// embeds an interface or a pointer hands its methods on to the value
// embedded (afero.Afero{} embeds an Fs, bufio.ReadWriter{} a *Reader and
// a *Writer), and with none there every such call dereferences nil.
func embeddedLeftNil(t *testcase.Test, i int) string {
	return unsetField(t, i, func(f *types.Var) bool {
		switch f.Type().Underlying().(type) {
		case *types.Pointer, *types.Interface:
			return f.Embedded()
		}
		return false
	})
}

// builtOf walks the statements the value of statement i is built from,
// through the literals and calls that make it: i first, then its inputs,
// depth first, each once. It returns the first answer found gives.
func builtOf[T any](t *testcase.Test, i int, found func(k int) (T, bool)) (T, bool) {
	seen := map[int]bool{}
	var walk func(k int) (T, bool)
	walk = func(k int) (T, bool) {
		var none T
		if seen[k] {
			return none, false
		}
		seen[k] = true
		if v, ok := found(k); ok {
			return v, true
		}
		for _, a := range t.Stmts[k].Args {
			if a.IsOmitted() {
				continue
			}
			if v, ok := walk(a.Stmt); ok {
				return v, true
			}
		}
		return none, false
	}
	return walk(i)
}

// argName names the i-th argument of a call in a reason.
func argName(op *testcase.Op, i int) string {
	if op.Kind == testcase.OpFieldSet {
		if i == 0 {
			return "the object whose field " + op.Fields[0].Name() + " is set"
		}
		return "the value of field " + op.Fields[0].Name()
	}
	if op.Method {
		if i == 0 {
			if op.Invoke {
				return "the function value of " + op.Name
			}
			return "the receiver of " + op.Name
		}
		i--
	}
	return fmt.Sprintf("argument %d of %s", i+1, op.Name)
}

// position names the i-th argument of a call without the call: "the
// receiver", "argument 2".
func position(op *testcase.Op, i int) string {
	if op.Method {
		if i == 0 {
			if op.Invoke {
				return "the function value"
			}
			return "the receiver"
		}
		i--
	}
	return fmt.Sprintf("argument %d", i+1)
}

// nilable reports whether nil of type t is a nil pointer, func, map,
// channel or interface.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Signature, *types.Map, *types.Chan, *types.Interface:
		return true
	}
	return false
}

// structOf returns the struct type t is or points to (nil if neither).
func structOf(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Struct); ok {
		return t
	}
	return nil
}

// bypassesConstructor reports whether a literal of type t (a struct or a
// pointer to one) leaves unexported fields zero that a constructor of the
// cluster would set.
func bypassesConstructor(c *testcase.Cluster, t types.Type) bool {
	st := structOf(t)
	if st == nil {
		return false
	}
	if !hidesFields(st.Underlying().(*types.Struct), map[*types.Struct]bool{}) {
		return false
	}
	return hasConstructor(c, st, types.NewPointer(st))
}

// bypassing names the value op makes when it is a literal, zero value or
// fresh variable the test made that bypasses its type's constructor ("a
// catalog.Label literal, not made by a constructor"), "" otherwise or
// without a cluster to look for constructors in.
func bypassing(c *testcase.Cluster, op *testcase.Op) string {
	if c == nil || !madeByTest(op) || !bypassesConstructor(c, op.Type) {
		return ""
	}
	return "a " + types.TypeString(structOf(op.Type), shortQualifier) + " literal, not made by a constructor"
}

// hidesFields reports whether struct u has an unexported field, of its
// own or of a struct it embeds (directly or through a pointer): the
// embedded struct's fields are u's too, and a literal of u leaves them
// zero (or the embedded pointer nil) where only their package can set
// them.
func hidesFields(u *types.Struct, seen map[*types.Struct]bool) bool {
	if seen[u] {
		return false
	}
	seen[u] = true
	for i := 0; i < u.NumFields(); i++ {
		f := u.Field(i)
		if !f.Exported() {
			return true
		}
		if !f.Embedded() {
			continue
		}
		if e := structOf(f.Type()); e != nil && hidesFields(e.Underlying().(*types.Struct), seen) {
			return true
		}
	}
	return false
}

// hasConstructor reports whether a function of the cluster (not one the
// standard library provides), or a method of another type, hands out
// values of one of the types: as its first result (zerolog's Context,
// which only Logger.With hands out, has a constructor in this sense) or
// in an exported field of the struct its first result is or points to
// (jsonschema's OutputError, whose values come only as the Error field
// of the *OutputUnit that ValidationError.BasicOutput returns). A method
// of the type itself (a copy, a builder's next step) does not count.
//
// It reads only the operations the cluster holds, and asks for no
// producers: a type's producers, looked up for the first time, would add
// operations to the cluster that the executor, built before the search,
// does not have, and a later test could call them.
func hasConstructor(c *testcase.Cluster, ts ...types.Type) bool {
	for _, op := range c.Ops {
		if op.Kind != testcase.OpCall || op.IsStdProvider() || (op.Method && ofType(op, ts)) {
			continue
		}
		outs := op.Outputs()
		if len(outs) == 0 {
			continue
		}
		if slices.ContainsFunc(ts, func(t types.Type) bool { return types.Identical(outs[0], t) }) {
			return true
		}
		if inExportedField(outs[0], ts) {
			return true
		}
	}
	return false
}

// inExportedField reports whether result is, or points to, a struct with
// an exported field of one of the types ts, or of a pointer, slice or
// array of one.
func inExportedField(result types.Type, ts []types.Type) bool {
	st := structOf(result)
	if st == nil {
		return false
	}
	u := st.Underlying().(*types.Struct)
	for i := 0; i < u.NumFields(); i++ {
		f := u.Field(i)
		if !f.Exported() {
			continue
		}
		ft := f.Type()
		for range 3 {
			if slices.ContainsFunc(ts, func(t types.Type) bool { return types.Identical(ft, t) }) {
				return true
			}
			switch e := ft.Underlying().(type) {
			case *types.Pointer:
				ft = e.Elem()
			case *types.Slice:
				ft = e.Elem()
			case *types.Array:
				ft = e.Elem()
			}
		}
	}
	return false
}

// ofType reports whether method op is a method of one of the types ts
// (or of what they point to).
func ofType(op *testcase.Op, ts []types.Type) bool {
	if op.Func == nil {
		return true // not known: as if it were
	}
	recv := op.Func.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	rt := recv.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	for _, t := range ts {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if types.Identical(rt, t) {
			return true
		}
	}
	return false
}

// anyArgument returns the reason a failed type assertion is misuse when
// statement s passes a value of the test's choosing as an empty
// interface (any, ...any, []any): the API took any type, the code
// asserted one, and the test picked another ("" if s passes none).
func anyArgument(t *testcase.Test, s testcase.Stmt) string {
	if s.Op.Kind != testcase.OpCall {
		return ""
	}
	for i, a := range s.Args {
		if a.IsOmitted() || i >= len(s.Op.Params) {
			continue
		}
		src := t.Stmts[a.Stmt]
		p := s.Op.Params[i]
		if sl, ok := p.Underlying().(*types.Slice); ok && emptyInterface(sl.Elem()) && src.Op.Kind == testcase.OpSlice {
			for _, e := range src.Args {
				if !e.IsOmitted() && !nilInterface(t.Stmts[e.Stmt].Op) {
					return fmt.Sprintf("%s holds a %s passed as any", argName(s.Op, i), types.TypeString(t.Stmts[e.Stmt].Op.Outputs()[e.Result], shortQualifier))
				}
			}
			continue
		}
		if emptyInterface(p) && !nilInterface(src.Op) {
			return fmt.Sprintf("%s is a %s passed as any", argName(s.Op, i), types.TypeString(src.Op.Outputs()[a.Result], shortQualifier))
		}
	}
	return ""
}

// assertedArgument returns the reason a failed type assertion is misuse
// when statement s passes, as an interface, a value of the type the
// assertion failed on, as the runtime's message names it ("" if it passes
// none).
func assertedArgument(t *testcase.Test, s testcase.Stmt, msg string) string {
	dynamic := assertedType(msg)
	if dynamic == "" || s.Op.Kind != testcase.OpCall {
		return ""
	}
	for i, a := range s.Args {
		if a.IsOmitted() || i >= len(s.Op.Params) || !types.IsInterface(s.Op.Params[i]) {
			continue
		}
		outs := t.Stmts[a.Stmt].Op.Outputs()
		if a.Result >= len(outs) || types.IsInterface(outs[a.Result]) {
			continue
		}
		if name := types.TypeString(outs[a.Result], shortQualifier); name == dynamic {
			return fmt.Sprintf("%s is a %s passed as %s, which the code asserted to be another type", argName(s.Op, i), name, types.TypeString(s.Op.Params[i], shortQualifier))
		}
	}
	return ""
}

// assertedType returns the dynamic type the runtime's message of a failed
// type assertion names: *ast.Link in "interface conversion: ast.Node is
// *ast.Link, not *ast.List" and in "interface conversion: *ast.Link is not
// ast.Block: missing method B" ("" for a nil value or another message).
func assertedType(msg string) string {
	rest, ok := strings.CutPrefix(msg, "interface conversion: ")
	if !ok {
		return ""
	}
	if dynamic, _, ok := strings.Cut(rest, " is not "); ok {
		return dynamic
	}
	_, rest, ok = strings.Cut(rest, " is ")
	if !ok {
		return ""
	}
	dynamic, _, ok := strings.Cut(rest, ", not ")
	if !ok || dynamic == "nil" {
		return ""
	}
	return dynamic
}

// nilInterface reports whether op makes a value that is nil once stored
// in an interface: a nil of interface type. A nil slice, map, pointer or
// func has a dynamic type there, and an assertion on it fails like one on
// any other value the test chose.
func nilInterface(op *testcase.Op) bool {
	if op.Kind != testcase.OpNil {
		return false
	}
	_, isInterface := op.Type.Underlying().(*types.Interface)
	return isInterface
}

// longWait returns the reason a hang is misuse when statement s passes a
// time.Duration of a second or more that the test wrote: the test asked
// the code to wait longer than cling waits for a call ("" if it passes
// none).
func longWait(t *testcase.Test, s testcase.Stmt) string {
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		src := t.Stmts[a.Stmt]
		named, ok := src.Op.Type.(*types.Named)
		if src.Op.Kind != testcase.OpPrim || !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "time" || named.Obj().Name() != "Duration" {
			continue
		}
		if d, ok := src.Value.(int64); ok && d >= int64(time.Second) {
			return fmt.Sprintf("%s is a wait of %s", argName(s.Op, i), time.Duration(d))
		}
	}
	return ""
}

// emptyInterface reports whether t is an interface with no methods.
func emptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0
}

// madeCycle returns the reason a test whose first n statements ran made
// a cycle through a field it set, or through a method it gave a value
// built from the method's own receiver (echo's
// httpError.SetInternal(httpError)); "" if it made none. A value of plain
// data (a number, a string, a []byte) holds nothing of the receiver.
func madeCycle(t *testcase.Test, n int) string {
	for _, s := range t.Stmts[:n] {
		switch {
		case s.Op.Kind == testcase.OpFieldSet && len(s.Args) == 2 && !s.Args[0].IsOmitted() && !s.Args[1].IsOmitted():
			if builtFrom(t, s.Args[1].Stmt, s.Args[0].Stmt) {
				return fmt.Sprintf("the test made a cycle: field %s is set to a value built from the object that holds it", s.Op.Fields[0].Name())
			}
		case s.Op.Kind == testcase.OpCall && s.Op.Method && len(s.Args) > 1 && !s.Args[0].IsOmitted():
			for i, a := range s.Args[1:] {
				if !a.IsOmitted() && i+1 < len(s.Op.Params) && !plainData(s.Op.Params[i+1]) && builtFrom(t, a.Stmt, s.Args[0].Stmt) {
					return fmt.Sprintf("the test made a cycle: %s is given a value built from its own receiver", s.Op.Name)
				}
			}
		}
	}
	return ""
}

// builtFrom reports whether the value of statement i is that of
// statement j or built from it.
func builtFrom(t *testcase.Test, i, j int) bool {
	_, ok := builtOf(t, i, func(k int) (struct{}, bool) { return struct{}{}, k == j })
	return ok
}

// madeByTest reports whether op makes a struct value the test wrote
// itself: a composite literal, a zero value, or a fresh variable whose
// address it passes (var v T; &v).
func madeByTest(op *testcase.Op) bool {
	switch op.Kind {
	case testcase.OpComposite, testcase.OpZero, testcase.OpTarget:
		return true
	}
	return false
}

// inputsOf returns the statements the arguments of statement stmt are,
// or are built from (see builtOf).
func inputsOf(t *testcase.Test, stmt int) map[int]bool {
	used := map[int]bool{}
	for _, a := range t.Stmts[stmt].Args {
		if a.IsOmitted() {
			continue
		}
		builtOf(t, a.Stmt, func(j int) (struct{}, bool) {
			used[j] = true
			return struct{}{}, false
		})
	}
	return used
}

// drivenStep returns why statement stmt steps into a protocol R drives
// itself (rule 11): it calls a method R calls on its own through R's
// interface, or takes a value built from the result of such a call, or
// one such a call took as an argument before. "" if none.
func drivenStep(c *testcase.Cluster, t *testcase.Test, stmt int) string {
	if c == nil {
		return ""
	}
	s := t.Stmts[stmt]
	if c.DrivenByCaller(s.Op) {
		return fmt.Sprintf("the test called %s, which %s calls itself, in an order of its own", s.Op.Name, c.Caller.Name)
	}
	used := inputsOf(t, stmt)
	for j := 0; j < stmt; j++ {
		op := t.Stmts[j].Op
		if !c.DrivenByCaller(op) {
			continue
		}
		if used[j] {
			return fmt.Sprintf("it takes what %s returned, a step of %s's own that the test took itself", op.Name, c.Caller.Name)
		}
		for k, a := range t.Stmts[j].Args {
			if !a.IsOmitted() && used[a.Stmt] && k < len(op.Params) && !plainData(op.Params[k]) {
				return fmt.Sprintf("it takes a value the test gave %s, a step of %s's own that the test took itself", op.Name, c.Caller.Name)
			}
		}
	}
	return ""
}

// askedIndex returns why an index out of range is the index the test
// wrote (rule 9): the function the statement calls raised it itself
// (raisedIn), the runtime's message names the index ("index out of range
// [800] with length 0"), and the statement passes that integer. "" if
// not.
func askedIndex(t *testcase.Test, s testcase.Stmt, msg, raisedIn string) string {
	if s.Op.Kind != testcase.OpCall || s.Op.Func == nil || s.Op.Func.Pkg() == nil || raisedIn == "" || BareName(raisedIn) != s.Op.Func.Name() || packageOf(raisedIn) != s.Op.Func.Pkg().Path() {
		return ""
	}
	_, rest, ok := strings.Cut(msg, "index out of range [")
	if !ok {
		return ""
	}
	text, _, ok := strings.Cut(rest, "]")
	index, err := strconv.ParseInt(text, 10, 64)
	if !ok || err != nil {
		return ""
	}
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		switch v := t.Stmts[a.Stmt].Value.(type) {
		case int64:
			if v == index {
				return fmt.Sprintf("%s is %d, the index the test asked for", argName(s.Op, i), v)
			}
		case uint64:
			if index >= 0 && v == uint64(index) {
				return fmt.Sprintf("%s is %d, the index the test asked for", argName(s.Op, i), v)
			}
		}
	}
	return ""
}

// outOfRangeMessage matches the runtime's messages for an index or a
// slice bound past the end: "index out of range [800] with length 3",
// "slice bounds out of range [:672] with capacity 9".
var outOfRangeMessage = regexp.MustCompile(`out of range \[:?(\d+)\] with (?:length|capacity) (\d+)`)

// askedBeyond returns why an index or slice bound past the end is one
// the test wrote (rule 9): the runtime's message names a bound greater
// than the length (not merely at it, as an off-by-one of the code's own
// would be), and the statement's arguments are built from that integer,
// or from one next to it (code that slices n+1 for a sign or a dot, or
// indexes n-1): toml.LocalTime{Precision: 16}, marshalled, slices 17 of
// the 10 characters there are. "" if not.
func askedBeyond(t *testcase.Test, s testcase.Stmt, msg string) string {
	bound, length, ok := pastTheEnd(msg)
	if !ok {
		return ""
	}
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		if v, ok := nearInt(t, a.Stmt, bound); ok {
			return fmt.Sprintf("%s is built from %d, and the code went to %d of the %d there are: the bound the test asked for", argName(s.Op, i), v, bound, length)
		}
	}
	return ""
}

// pastTheEnd reads the bound and the length from a runtime message of an
// index or a slice bound past the end, when the bound is greater than the
// length (see askedBeyond).
func pastTheEnd(msg string) (bound, length int64, ok bool) {
	m := outOfRangeMessage.FindStringSubmatch(msg)
	if m == nil {
		return 0, 0, false
	}
	bound, err1 := strconv.ParseInt(m[1], 10, 64)
	length, err2 := strconv.ParseInt(m[2], 10, 64)
	return bound, length, err1 == nil && err2 == nil && bound > length
}

// nearInt returns an integer literal the value of statement i is built
// from that is bound or next to it.
func nearInt(t *testcase.Test, i int, bound int64) (int64, bool) {
	near := func(v int64) bool { return v >= bound-1 && v <= bound+1 }
	return builtOf(t, i, func(k int) (int64, bool) {
		switch v := t.Stmts[k].Value.(type) {
		case int64:
			return v, near(v)
		case uint64:
			return int64(v), v <= 1<<62 && near(int64(v))
		}
		return 0, false
	})
}

// leftNil returns a field of map, pointer, channel, func or interface type
// that the struct the test made at statement i (a composite literal, a
// zero value or a fresh variable) leaves nil, or "": the first unexported
// one, or an exported one the literal does not set or sets to nil.
func leftNil(t *testcase.Test, i int) string {
	return unsetField(t, i, func(f *types.Var) bool {
		_, slice := f.Type().Underlying().(*types.Slice)
		return !slice && nilable(f.Type())
	})
}

// unwrapped returns the name of the first field of type error that the
// struct value statement i makes leaves nil, or sets to the nil error of
// a call that succeeded (out's observations say which), or "".
func unwrapped(t *testcase.Test, i int, out *testcase.Outcome) string {
	isError := func(f *types.Var) bool { return testcase.IsError(f.Type()) }
	if name := unsetField(t, i, isError); name != "" {
		return name
	}
	s := t.Stmts[i]
	if s.Op.Kind != testcase.OpComposite {
		return ""
	}
	for k, f := range s.Op.Fields {
		if k < len(s.Args) && isError(f) && !s.Args[k].IsOmitted() && noError(out, s.Args[k]) {
			return f.Name()
		}
	}
	return ""
}

// errorMethod reports whether op calls the Error or Unwrap method of an
// error type: a wrapper's (type ErrX struct{ Err error }), which reads the
// error it wraps.
func errorMethod(op *testcase.Op) bool {
	if op.Kind != testcase.OpCall || !op.Method || op.Invoke || op.Func == nil || len(op.Params) == 0 {
		return false
	}
	errT := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	return (op.Func.Name() == "Error" || op.Func.Name() == "Unwrap") && types.Implements(op.Params[0], errT)
}

// opaque reports whether t is a struct type, or a pointer to one, with
// fields of which none is exported.
func opaque(t types.Type) bool {
	st := structOf(t)
	if st == nil {
		return false
	}
	u := st.Underlying().(*types.Struct)
	for i := 0; i < u.NumFields(); i++ {
		if u.Field(i).Exported() {
			return false
		}
	}
	return u.NumFields() > 0
}

// shortQualifier writes package names, not paths.
func shortQualifier(p *types.Package) string { return p.Name() }

// nilResult reports whether the observations show ref nil when the call
// that made it returned, and whether that call returned an error beside
// it.
func nilResult(out *testcase.Outcome, ref testcase.Ref) (isNil, withError bool) {
	if out == nil {
		return false, false
	}
	for _, o := range out.Observations {
		if o.End || o.Ref.Stmt != ref.Stmt || o.Path != "" {
			continue
		}
		switch {
		case o.Ref.Result == ref.Result && o.Kind == testcase.ObsNil:
			isNil = true
		case o.Ref.Result != ref.Result && o.Kind == testcase.ObsError:
			withError = true
		}
	}
	return isNil, withError
}

// nilResultWithin says which nil result of an earlier call (rule 4) the
// value ref is built from, through the calls and literals that take it,
// ref itself not counted (the caller checks it): an option made from a
// node a failed conversion returned nil. "" if none.
func nilResultWithin(t *testcase.Test, out *testcase.Outcome, ref testcase.Ref) string {
	seen := map[int]bool{}
	var walk func(r testcase.Ref, top bool) string
	walk = func(r testcase.Ref, top bool) string {
		src := t.Stmts[r.Stmt]
		if !top && src.Op.Kind == testcase.OpCall {
			if isNil, withError := nilResult(out, r); isNil && withError {
				return "the nil result of " + src.Op.Name + ", which returned an error"
			} else if isNil {
				return "the nil result of " + src.Op.Name
			}
		}
		if seen[r.Stmt] {
			return ""
		}
		seen[r.Stmt] = true
		for _, a := range src.Args {
			if a.IsOmitted() {
				continue
			}
			if why := walk(a, false); why != "" {
				return why
			}
		}
		return ""
	}
	return walk(ref, true)
}

// unhashableAny returns why an unhashable map key is the test's value
// (rule 6): the statement's arguments are built from a slice, map or func
// that the test put where any value is taken (an argument, a field or an
// element of interface type), and the code hashed it. "" if none.
func unhashableAny(t *testcase.Test, s testcase.Stmt) string {
	for i, a := range s.Args {
		if a.IsOmitted() {
			continue
		}
		what, ok := builtOf(t, a.Stmt, func(k int) (string, bool) {
			st := t.Stmts[k]
			for j, in := range st.Args {
				if in.IsOmitted() {
					continue
				}
				if typ := inputType(st.Op, j); typ == nil || !types.IsInterface(typ) {
					continue
				}
				outs := t.Stmts[in.Stmt].Op.Outputs()
				if in.Result < len(outs) && !types.Comparable(outs[in.Result]) && !types.IsInterface(outs[in.Result]) {
					return types.TypeString(outs[in.Result], shortQualifier), true
				}
			}
			return "", false
		})
		if ok {
			return fmt.Sprintf("%s is built from a %s the test passed as an interface value, which cannot be a map key", argName(s.Op, i), what)
		}
	}
	return ""
}

// inputType is the type of input j of op (see testcase.Op.ArgType), the
// element's for the rest of a variadic call; nil if there is none.
func inputType(op *testcase.Op, j int) types.Type {
	if (op.Kind == testcase.OpCall || op.Kind == testcase.OpFieldSet) && op.Variadic && len(op.Params) > 0 && j >= len(op.Params)-1 {
		if sl, ok := op.Params[len(op.Params)-1].Underlying().(*types.Slice); ok {
			return sl.Elem()
		}
	}
	switch op.Kind {
	case testcase.OpSlice, testcase.OpChan, testcase.OpMap:
		return op.ArgType(j)
	}
	if in := op.Inputs(); j < len(in) {
		return in[j]
	}
	return nil
}

// noError reports whether the observations show ref, an error result,
// nil when the call that made it returned: the call succeeded, and the
// test passed its "no error" on as an error (rule 4).
func noError(out *testcase.Outcome, ref testcase.Ref) bool {
	if out == nil {
		return false
	}
	for _, o := range out.Observations {
		if !o.End && o.Ref == ref && o.Path == "" && o.Kind == testcase.ObsNoError {
			return true
		}
	}
	return false
}

// hugeSize is the least length rule 9 takes for one the test asked for,
// and hugeWork the least count for a hang or an out-of-memory crash: work
// in proportion to 16 million elements takes seconds, and memory in
// proportion to it (a structure per element) gigabytes.
const (
	hugeSize = 1 << 32
	hugeWork = 1 << 24
)

// hugeInt returns an integer literal the value of statement i is built
// from that is at least limit, or negative if negative is set (see rule
// 9).
func hugeInt(t *testcase.Test, i int, limit int64, negative bool) (int64, bool) {
	return builtOf(t, i, func(k int) (int64, bool) {
		switch v := t.Stmts[k].Value.(type) {
		case int64:
			return v, v < 0 && negative || v >= limit
		case uint64:
			return int64(v), v >= uint64(limit)
		}
		return 0, false
	})
}

// declaresConstant reports whether the package of a named type declares
// an exported constant of it.
func declaresConstant(named *types.Named) bool {
	scope := named.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		if k, ok := scope.Lookup(name).(*types.Const); ok && k.Exported() && types.Identical(k.Type(), named) {
			return true
		}
	}
	return false
}

// madeUpScalar reports whether a literal of type t is a value its package
// never declares and only hands out: t is a named number or string type
// of which the package declares no exported constant, and a function of
// the cluster returns it first (rule 2).
func madeUpScalar(c *testcase.Cluster, t types.Type) bool {
	named, ok := t.(*types.Named)
	if c == nil || !ok || named.Obj().Pkg() == nil {
		return false
	}
	if _, basic := named.Underlying().(*types.Basic); !basic || declaresConstant(named) {
		return false
	}
	return hasConstructor(c, t)
}

// releasers are the names of the methods that release what a value holds
// (its goroutines among it).
var releasers = map[string]bool{"Close": true, "Stop": true, "Shutdown": true, "Cancel": true}

// unreleased returns the reason a leak is misuse: a value the test made
// has a releasing method the test never called on it. A value of a type
// with a release method (testcase.ReleaseMethod) is released at the end
// of every test, so a leak with it released is the code's.
func unreleased(t *testcase.Test) string {
	called := map[testcase.Ref]map[string]bool{}
	for _, s := range t.Stmts {
		if s.Op.Kind == testcase.OpCall && s.Op.Method && s.Op.Func != nil && len(s.Args) > 0 {
			if called[s.Args[0]] == nil {
				called[s.Args[0]] = map[string]bool{}
			}
			called[s.Args[0]][s.Op.Func.Name()] = true
		}
	}
	for i, s := range t.Stmts {
		for r, typ := range s.Op.Outputs() {
			if r < len(s.Op.Releases) && s.Op.Releases[r] != "" {
				continue
			}
			for _, m := range releaseMethods(typ) {
				if !called[testcase.Ref{Stmt: i, Result: r}][m] {
					return fmt.Sprintf("the %s made by %s is never released (%s is not called)", types.TypeString(typ, shortQualifier), s.Op.Name, m)
				}
			}
		}
	}
	return ""
}

// releaseMethods lists the releasing methods of a value of type t.
func releaseMethods(t types.Type) []string {
	ms := types.NewMethodSet(t)
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	var out []string
	for i := 0; i < ms.Len(); i++ {
		if name := ms.At(i).Obj().Name(); releasers[name] {
			out = append(out, name)
		}
	}
	return out
}

// nilValue reports whether op makes a nil pointer, func, map, channel or
// interface: nil itself, or the zero value of such a type.
func nilValue(op *testcase.Op) bool {
	return (op.Kind == testcase.OpNil || op.Kind == testcase.OpZero) && nilable(op.Type)
}
