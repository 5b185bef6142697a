//go:build go1.21

package rt

// The probes of the coverage criteria besides the coupled branches. They
// are compiled in only when cling is asked for those criteria (the table's
// Extras), and record, per test:
//
//   - the lines reached (Ln), those of E only during a call made at one of
//     R's call sites;
//   - the direct calls of R's externally callable functions, which the
//     instrumented function itself reports: Call when it starts, then, from
//     a deferred function, Direct and, for a direct call, Left with the
//     recovered panic and the results. A direct call is one made while no
//     other such function runs (the test's own call). Left records whether
//     the call returned, the partitions its results fall into, the panic
//     that ended it (the function of R or E that raised it and the type of
//     the value; the panic goes on with the same value) and, on request,
//     the non-nil errors it returned;
//   - the outcomes of the branching nodes of R taken during a direct call
//     of the function they belong to;
//   - the interface mutants reached, and those infected: the mutant's
//     value would differ from the original's (Inf, InfZ, InfRet, FCD).

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Extra probes a table may ask for.
const (
	// ExtraLines: line probes.
	ExtraLines uint8 = 1 << iota
	// ExtraAPI: direct calls, returns, outputs and panics of R's API.
	ExtraAPI
	// ExtraErrors: the non-nil errors R's API returns, with ExtraAPI.
	ExtraErrors
	// ExtraDirect: branches of R's API taken in direct calls.
	ExtraDirect
	// ExtraMutants: infection of the interface mutants.
	ExtraMutants
	// ExtraOutcomes: branch outcomes in the cumulative record (cling cbc).
	ExtraOutcomes
)

// Output classes of a result; they match package targets' classes.
const (
	classNone uint8 = iota
	classBool
	classSigned
	classUnsigned
	classLen
	classNil
	classError
)

// MaxParts is the largest number of partitions of an output class.
const MaxParts = 3

// Mutant states in a trace.
const (
	// MutantReached: the mutant's code ran.
	MutantReached uint8 = 1
	// MutantInfected: it ran and its value would differ.
	MutantInfected uint8 = 2
)

// maxInfectionChecks bounds, per test, the executions of a mutant that
// compute whether it is infected through reflection (a call whose result
// and argument always agree would otherwise go through it every time).
const maxInfectionChecks = 64

var (
	extras uint8

	// testEpoch counts the tests; 0 before the first one begins, when
	// nothing is recorded (package initialisation).
	testEpoch uint32

	lineCallee  []uint8
	lineStamp   []uint32
	lineTouched []int32

	apiDepth  int32
	curDirect int32 = -1
	// lastDirect is the function of the test's last direct call (see
	// Call).
	lastDirect int32     = -1
	nodeFunc   []int32   // per node, the index of its function of R's API, -1
	funcSlots  [][]int32 // per function of R's API, per result, its output slot or -1
	slotClass  []uint8
	funcName   []string
	callFlags  []uint8 // per function: bit 0 called directly, bit 1 returned
	callStamp  []uint32
	callTouch  []int32
	outDist    [][MaxParts]float64
	outStamp   []uint32
	outTouch   []int32
	directOut  []uint32 // per outcome, the test epoch it was taken directly
	directList []int32
	panicKeys  []string
	panicSeen  map[string]bool
	pkgPaths   []string

	mutState  []uint8
	mutStamp  []uint32
	mutChecks []uint8
	mutTouch  []int32
	// funCals are the mutants of each call with FunCalDel mutants;
	// funCalDoneIn marks, per call, the test in which all were infected;
	// funCalArgs keeps the arguments its mutants may return; funCalMu
	// guards it, since goroutines of R may make the same call at once,
	// and a map written from two goroutines ends the process.
	funCals      [][]int32
	funCalDoneIn []uint32
	funCalArgs   []map[int32]any
	funCalMu     sync.Mutex

	// The cumulative record of cling cbc, after the goals' bytes: one byte
	// per outcome (branch criterion), line, function called, function
	// returned, output partition, direct outcome and mutant infected; and
	// a file of the panics seen.
	cumOutcomes, cumLines, cumCalled, cumReturned, cumOutputs, cumDirect, cumMutants []byte
	panicFile                                                                        *os.File
	panicWritten                                                                     map[string]bool
	// panicMu guards panicKeys, panicSeen, panicFile and panicWritten:
	// goroutines of R and E may panic at once.
	panicMu sync.Mutex
)

// setupExtras prepares the extra probes of a table.
func setupExtras(t *Table) {
	extras = t.Extras
	lineCallee = t.LineCallee
	lineStamp = make([]uint32, len(t.LineCallee))
	lineTouched = nil
	apiDepth, curDirect, lastDirect = 0, -1, -1
	nodeFunc = t.NodeFunc
	funcSlots = t.FuncSlots
	slotClass = t.SlotClass
	funcName = t.FuncNames
	callFlags = make([]uint8, len(t.FuncSlots))
	callStamp = make([]uint32, len(t.FuncSlots))
	callTouch = nil
	outDist = make([][MaxParts]float64, len(t.SlotClass))
	outStamp = make([]uint32, len(t.SlotClass))
	outTouch = nil
	directOut = make([]uint32, 2*len(t.Side))
	directList = nil
	panicKeys, panicSeen = nil, map[string]bool{}
	pkgPaths = t.Packages
	mutState = make([]uint8, t.Mutants+1)
	mutStamp = make([]uint32, t.Mutants+1)
	mutChecks = make([]uint8, t.Mutants+1)
	mutTouch = nil
	funCals = t.FunCals
	funCalDoneIn = make([]uint32, len(t.FunCals))
	funCalArgs = make([]map[int32]any, len(t.FunCals))
	testEpoch = 0
}

// The parts of the cumulative record of the extras, in order.
const (
	PartOutcomes = iota
	PartLines
	PartCalled
	PartReturned
	PartOutputs
	PartDirect
	PartMutants
	numParts
)

// ExtrasLayout returns the sizes of the parts of the cumulative record of
// the extras (PartOutcomes...), which follows the goals' bytes, for a
// table with that many nodes, lines, functions of R's API, output slots
// and mutants.
func ExtrasLayout(nodes, lines, funcs, slots, mutants int) []int {
	return []int{
		PartOutcomes: 2 * nodes,
		PartLines:    lines,
		PartCalled:   funcs,
		PartReturned: funcs,
		PartOutputs:  MaxParts * slots,
		PartDirect:   2 * nodes,
		PartMutants:  mutants + 1,
	}
}

func layoutOf(t *Table) []int {
	return ExtrasLayout(len(t.Side), len(t.LineCallee), len(t.FuncSlots), len(t.SlotClass), int(t.Mutants))
}

// extrasSize is the size of the cumulative record's part after the goals.
func extrasSize(t *Table) int {
	if t.Extras == 0 {
		return 0
	}
	n := 0
	for _, k := range layoutOf(t) {
		n += k
	}
	return n
}

// splitCumulative carves the cumulative record of the extras out of b.
func splitCumulative(t *Table, b []byte) {
	cumOutcomes, cumLines, cumCalled, cumReturned, cumOutputs, cumDirect, cumMutants = nil, nil, nil, nil, nil, nil, nil
	if b == nil || t.Extras == 0 {
		return
	}
	var parts [numParts][]byte
	for i, n := range layoutOf(t) {
		parts[i], b = b[:n:n], b[n:]
	}
	cumOutcomes, cumLines, cumCalled, cumReturned = parts[PartOutcomes], parts[PartLines], parts[PartCalled], parts[PartReturned]
	cumOutputs, cumDirect, cumMutants = parts[PartOutputs], parts[PartDirect], parts[PartMutants]
	panicWritten = map[string]bool{}
	if dir := os.Getenv("CLING_COVER_DIR"); dir != "" {
		panicFile, _ = os.OpenFile(filepath.Join(dir, "panics-"+strconv.Itoa(os.Getpid())), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	}
}

// resetExtras starts the extras' record of a new test.
func resetExtras() {
	testEpoch++
	lineTouched = lineTouched[:0]
	apiDepth, curDirect, lastDirect = 0, -1, -1
	callTouch, outTouch, directList = callTouch[:0], outTouch[:0], directList[:0]
	panicMu.Lock()
	panicKeys = panicKeys[:0]
	clear(panicSeen)
	panicMu.Unlock()
	mutTouch = mutTouch[:0]
}

// Ln records that line id is reached.
func Ln(id int32) {
	if uint32(id) < uint32(len(lineStamp)) && lineStamp[id] == testEpoch {
		return
	}
	lineSlow(id)
}

func lineSlow(id int32) {
	if uint32(id) >= uint32(len(lineStamp)) || testEpoch == 0 {
		return
	}
	if lineCallee[id] != 0 && depth <= 0 {
		return // a line of E outside any call from R: not counted
	}
	lineStamp[id] = testEpoch
	lineTouched = append(lineTouched, id)
	if cumLines != nil {
		cumLines[id] = 1
	}
}

// directHit records outcome o of node n of R if it belongs to the
// function of the current direct call.
func directHit(n, o int32) {
	if curDirect < 0 || uint32(n) >= uint32(len(nodeFunc)) || nodeFunc[n] != curDirect || directOut[o] == testEpoch {
		return
	}
	directOut[o] = testEpoch
	directList = append(directList, o)
	if cumDirect != nil {
		cumDirect[o] = 1
	}
}

// APICall is a call of a function of R's API in progress.
type APICall struct {
	fn     int32
	direct bool
}

// EnterAPI records that function fn of R's API starts; its deferred function
// passes the result to Direct.
func EnterAPI(fn int32) APICall {
	apiDepth++
	if apiDepth != 1 || testEpoch == 0 || uint32(fn) >= uint32(len(callFlags)) {
		return APICall{fn: fn}
	}
	curDirect = fn
	if extras&ExtraDirect != 0 && depth <= 0 && fn != lastDirect {
		// The probes skip an outcome already recorded in the current
		// context; a new one makes them record fn's outcomes in this
		// direct call. Outcomes recorded since fn was last called directly
		// were recorded in direct calls of fn.
		newOutside()
		lastDirect = fn
	}
	callFlag(fn, 1)
	return APICall{fn: fn, direct: true}
}

// Direct ends a call that is not direct, and reports whether c is direct
// (and must end with Left).
func Direct(c APICall) bool {
	if !c.direct {
		if apiDepth > 0 {
			apiDepth--
		}
		return false
	}
	return true
}

// Left ends a direct call: p is what recover returned in the function's
// deferred function (nil if the call returns), results the results. A
// panic is recorded and goes on with the same value.
func Left(c APICall, p any, results ...any) {
	apiDepth, curDirect = 0, -1
	if p != nil {
		recordPanic("panic", raisedIn(), fmt.Sprintf("%T", p))
		panic(p)
	}
	callFlag(c.fn, 2)
	slots := funcSlots[c.fn]
	for k, v := range results {
		if k >= len(slots) || slots[k] < 0 {
			continue
		}
		s := slots[k]
		class := slotClass[s]
		output(s, class, v)
		if class == classError && v != nil && extras&ExtraErrors != 0 {
			recordPanic("error", funcName[c.fn], fmt.Sprintf("%T", v))
		}
	}
}

func callFlag(fn int32, bit uint8) {
	if callStamp[fn] != testEpoch {
		callStamp[fn] = testEpoch
		callFlags[fn] = 0
		callTouch = append(callTouch, fn)
	}
	callFlags[fn] |= bit
	if bit == 1 && cumCalled != nil {
		cumCalled[fn] = 1
	}
	if bit == 2 && cumReturned != nil {
		cumReturned[fn] = 1
	}
}

// output records result v of output slot s: the distance of v to each
// partition of its class, 0 for the partition it falls in.
func output(s int32, class uint8, v any) {
	var d [MaxParts]float64
	rv := reflect.ValueOf(v)
	switch class {
	case classBool:
		if rv.Kind() == reflect.Bool && rv.Bool() {
			d = [MaxParts]float64{0, 1, 1}
		} else {
			d = [MaxParts]float64{1, 0, 1}
		}
	case classSigned:
		x := 0.0
		switch {
		case rv.CanInt():
			x = float64(rv.Int())
		case rv.CanFloat():
			x = rv.Float()
		}
		d = [MaxParts]float64{math.Max(x+1, 0), math.Abs(x), math.Max(1-x, 0)}
		if x > -1 && x < 0 {
			d[0] = 0
		}
		if x > 0 && x < 1 {
			d[2] = 0
		}
	case classUnsigned:
		x := 0.0
		if rv.CanUint() {
			x = float64(rv.Uint())
		}
		d = [MaxParts]float64{x, 0, 1}
		if x == 0 {
			d[1] = 1
		}
	case classLen:
		n := 0
		switch rv.Kind() {
		case reflect.String, reflect.Slice, reflect.Map:
			n = rv.Len()
		}
		d = [MaxParts]float64{float64(n), 0, 1}
		if n == 0 {
			d[1] = 1
		}
	case classNil, classError:
		if isNil(rv) {
			d = [MaxParts]float64{0, 1, 1}
		} else {
			d = [MaxParts]float64{1, 0, 1}
		}
	default:
		return
	}
	if outStamp[s] != testEpoch {
		outStamp[s] = testEpoch
		outDist[s] = d
		outTouch = append(outTouch, s)
	} else {
		for i := range d {
			outDist[s][i] = math.Min(outDist[s][i], d[i])
		}
	}
	if cumOutputs != nil {
		for i := range d {
			if d[i] == 0 {
				cumOutputs[MaxParts*s+int32(i)] = 1
			}
		}
	}
}

// isNil reports whether a value boxed in an interface is nil: a nil
// interface, or a nil pointer, map, slice, channel or function.
func isNil(rv reflect.Value) bool {
	if !rv.IsValid() {
		return true
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// raisedIn names the innermost function of R or E on the panicking stack,
// as package.Function.
func raisedIn() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	panicking := false
	for {
		f, more := frames.Next()
		if f.Function == "runtime.gopanic" {
			panicking = true
		} else if panicking {
			for _, p := range pkgPaths {
				if name, ok := strings.CutPrefix(f.Function, p+"."); ok {
					return p[strings.LastIndexByte(p, '/')+1:] + "." + name
				}
			}
		}
		if !more {
			return "?"
		}
	}
}

// recordPanic records a panic (or an error) of kind seen in function fn
// with a value of type typ, once per test.
func recordPanic(kind, fn, typ string) {
	key := kind + " " + fn + " " + typ
	panicMu.Lock()
	defer panicMu.Unlock()
	if !panicSeen[key] {
		panicSeen[key] = true
		panicKeys = append(panicKeys, key)
	}
	if panicFile == nil {
		return
	}
	if !panicWritten[key] {
		panicWritten[key] = true
		panicFile.Write([]byte(key + "\n"))
	}
}

// mutantDone reports whether mutant id is infected in this test already,
// or no test runs.
func mutantDone(id int32) bool {
	return uint32(id) >= uint32(len(mutState)) || testEpoch == 0 || mutStamp[id] == testEpoch && mutState[id] == MutantInfected
}

// mutantReached records that mutant id's code runs, infected or not, and
// reports whether its infection may still be checked this test.
func mutantReached(id int32, infected bool) {
	if mutStamp[id] != testEpoch {
		mutStamp[id] = testEpoch
		mutState[id] = MutantReached
		mutChecks[id] = 0
		mutTouch = append(mutTouch, id)
	}
	if mutChecks[id] < maxInfectionChecks {
		mutChecks[id]++
	}
	if infected {
		mutState[id] = MutantInfected
		if cumMutants != nil {
			cumMutants[id] = 1
		}
	}
}

// checking reports whether the infection of mutant id may still be
// computed this test.
func checking(id int32) bool {
	return mutStamp[id] != testEpoch || mutChecks[id] < maxInfectionChecks
}

// Inf records that mutant id is reached, which infects it.
func Inf(id int32) {
	if !mutantDone(id) {
		mutantReached(id, true)
	}
}

// InfZ returns v and records that mutant id, which returns the zero value
// in its place, is reached, and infected if v is not zero.
func InfZ[T any](id int32, v T) T {
	if !mutantDone(id) {
		infZ(id, any(v))
	}
	return v
}

// infZ records mutant id reached with value v, while its infection may
// still be checked.
func infZ(id int32, v any) {
	if !checking(id) {
		mutantReached(id, false)
		return
	}
	mutantReached(id, v != nil && !reflect.ValueOf(v).IsZero())
}

// InfRet returns f, or, while mutant id may still be checked, a function
// that calls f and records the mutant (which returns the zero value as
// result k of the call) reached, and infected if that result is not zero.
func InfRet[F any](id int32, k int, f F) F {
	if mutantDone(id) {
		return f
	}
	if !checking(id) {
		mutantReached(id, false)
		return f
	}
	return infRet(id, k, f)
}

func infRet[F any](id int32, k int, f F) F {
	fv := reflect.ValueOf(&f).Elem()
	return reflect.MakeFunc(fv.Type(), func(in []reflect.Value) []reflect.Value {
		out := callValue(fv, in)
		if k < len(out) {
			mutantReached(id, !out[k].IsZero())
		}
		return out
	}).Interface().(F)
}

// The probes of the FunCalDel mutants of call k of the table's FunCals
// (a call of R into E with such mutants). The table holds a triple (id,
// arg, res) per mutant of the call: arg < 0 for the deletion, with res
// -1 when the call's results are unused (a deleted call is infected when
// reached) and -2 when they are used (infected if one of them is not
// zero); arg >= 0 for the mutant that returns argument arg as result res
// (infected if they differ). Once every mutant of a call is infected in a
// test, its probes return at once.
//
// FCReach marks the deletion of a call whose results are unused; FCA
// keeps an argument a mutant may put in place of a result; FC1 (and FC2
// to FC4, for calls with several results) take the call's results and
// record the mutants. FCD wraps the function of a call whose arguments or
// results those cannot take.

// FCReach returns f, the function of call k, and records its deletion
// mutant reached, which infects it.
func FCReach[F any](k int32, f F) F {
	if !funCalDone(k) {
		funCalResults(k, nil)
	}
	return f
}

// FCA returns argument i of call k, v, and keeps it for the mutants that
// return it as a result.
func FCA[T any](k, i int32, v T) T {
	if !funCalDone(k) {
		funCalArg(k, i, any(v))
	}
	return v
}

// FC1 returns the result of call k and records its mutants.
func FC1[A any](k int32, a A) A {
	if !funCalDone(k) {
		funCalResults(k, []any{a})
	}
	return a
}

// FC2 takes the results of a call with two results: FC2[A, B](k).R(call)
// returns them and records the mutants of call k (a call with several
// results can only be the sole argument of a call, so the call's number
// goes in the receiver).
type FC2[A, B any] int32

// R returns the results of call k and records its mutants.
func (k FC2[A, B]) R(a A, b B) (A, B) {
	if !funCalDone(int32(k)) {
		funCalResults(int32(k), []any{a, b})
	}
	return a, b
}

// FC3 is FC2 for calls with three results.
type FC3[A, B, C any] int32

// R returns the results of call k and records its mutants.
func (k FC3[A, B, C]) R(a A, b B, c C) (A, B, C) {
	if !funCalDone(int32(k)) {
		funCalResults(int32(k), []any{a, b, c})
	}
	return a, b, c
}

// FC4 is FC2 for calls with four results.
type FC4[A, B, C, D any] int32

// R returns the results of call k and records its mutants.
func (k FC4[A, B, C, D]) R(a A, b B, c C, d D) (A, B, C, D) {
	if !funCalDone(int32(k)) {
		funCalResults(int32(k), []any{a, b, c, d})
	}
	return a, b, c, d
}

// FCD returns f, the function of call k, or a function that calls it and
// records the call's mutants from its arguments and results.
func FCD[F any](k int32, f F) F {
	if funCalDone(k) {
		return f
	}
	return fcd(k, f)
}

func fcd[F any](k int32, f F) F {
	fv := reflect.ValueOf(&f).Elem()
	return reflect.MakeFunc(fv.Type(), func(in []reflect.Value) []reflect.Value {
		out := callValue(fv, in)
		for i, a := range in {
			funCalArg(k, int32(i), a.Interface())
		}
		results := make([]any, len(out))
		for i, o := range out {
			results[i] = o.Interface()
		}
		funCalResults(k, results)
		return out
	}).Interface().(F)
}

// funCalDone reports whether the probes of call k have nothing left to
// record in this test (or no test runs).
func funCalDone(k int32) bool {
	return uint32(k) >= uint32(len(funCalDoneIn)) || testEpoch == 0 || funCalDoneIn[k] == testEpoch
}

// funCalArg keeps argument i of call k.
func funCalArg(k, i int32, v any) {
	funCalMu.Lock()
	defer funCalMu.Unlock()
	if funCalArgs[k] == nil {
		funCalArgs[k] = map[int32]any{}
	}
	funCalArgs[k][i] = v
}

// funCalResults records the mutants of call k reached, with the call's
// results (nil for a call whose results are unused).
func funCalResults(k int32, results []any) {
	funCalMu.Lock()
	defer funCalMu.Unlock()
	spec := funCals[k]
	done := true
	for i := 0; i+2 < len(spec); i += 3 {
		id, arg, res := spec[i], spec[i+1], int(spec[i+2])
		if mutantDone(id) {
			continue
		}
		infected := false
		switch {
		case arg < 0 && res == -1:
			infected = true
		case !checking(id):
		case arg < 0:
			for _, r := range results {
				infected = infected || r != nil && !reflect.ValueOf(r).IsZero()
			}
		case res < len(results):
			infected = !reflect.DeepEqual(funCalArgs[k][arg], results[res])
		}
		mutantReached(id, infected)
		done = done && infected
	}
	if done {
		funCalDoneIn[k] = testEpoch
	}
}

// callValue calls a function value with the arguments a MakeFunc wrapper
// received.
func callValue(fv reflect.Value, in []reflect.Value) []reflect.Value {
	if fv.Type().IsVariadic() {
		return fv.CallSlice(in)
	}
	return fv.Call(in)
}
