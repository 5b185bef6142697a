//go:build go1.21

// Package hrt is the interpreter that runs inside cling's executor: a
// generated main package (see package harness) that links the
// instrumented caller and callee, one stub per operation of the test
// cluster, and this code. It reads batches of test cases from a pipe,
// executes each in a fresh goroutine with the probes reset, and writes
// back, per test, its trace, its panic if any, and on request the values
// it observed.
//
// cling copies this file into the executor's main package, so it must
// stay free of imports outside the standard library.
package hrt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// Op is one operation of the cluster as the executor knows it.
type Op struct {
	// Outputs is the number of values the op produces.
	Outputs int
	// Call computes the op from its arguments (nil for omitted ones).
	Call func(args []any) []any
	// Prim converts a decoded literal (int64, uint64, float64, string,
	// bool) to the op's type.
	Prim func(v any) any
	// ErrorOut marks the outputs of static type error.
	ErrorOut []bool
	// Setup marks ops that prepare inputs (not calls of R's API): the
	// fields of the struct values they produce or change are snapshot, and
	// at the end of the test only fields that differ from the snapshot are
	// observed.
	Setup bool
}

// As converts an argument to the parameter type; nil (an omitted argument
// or a nil interface) gives the zero value.
func As[T any](v any) T {
	t, _ := v.(T)
	return t
}

// Config is what the generated main passes to Serve.
type Config struct {
	Ops []Op
	// Reset clears the probes before a test; Trace appends the test's
	// encoded trace.
	Reset func()
	Trace func([]byte) []byte
	// Packages are the import paths of the caller and callee, for the
	// innermost frame of a panic.
	Packages []string
	// MaxGoroutines makes the worker retire once tests leaked this many
	// goroutines; MaxHeap (bytes) once the heap grew this large.
	MaxGoroutines int
	MaxHeap       uint64
}

// helloText is the executor's first frame.
const helloText = "cling-executor"

// Statuses of a test result.
const (
	statusOK     = 0
	statusPanic  = 1
	flagRetiring = 0x80
)

// Serve runs the executor's loop on the protocol pipes (file descriptors 3
// for requests and 4 for results) until the request pipe closes.
func Serve(cfg Config) {
	in := os.NewFile(3, "requests")
	out := os.NewFile(4, "results")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "cling executor: run by cling only")
		os.Exit(2)
	}
	// The code under test must not write into the protocol.
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = null, null
	}
	// Runaway recursion should end fast, not after a gigabyte of stack.
	debug.SetMaxStack(64 << 20)
	if v, err := strconv.ParseUint(os.Getenv("CLING_EXECUTOR_MAX_HEAP"), 10, 64); err == nil && v > 0 {
		cfg.MaxHeap = v
	}
	serve(cfg, bufio.NewReaderSize(in, 1<<16), out)
}

func serve(cfg Config, in *bufio.Reader, out io.Writer) {
	w := bufio.NewWriterSize(out, 1<<16)
	// The hello frame tells cling the executor started.
	writeFrame(w, []byte(helloText))
	w.Flush()
	var buf []byte
	base := runtime.NumGoroutine()
	for {
		payload, err := readFrame(in)
		if err != nil {
			return
		}
		r := &reader{b: payload}
		observe := r.byte() == 1
		n := int(r.uvarint())
		for i := 0; i < n && r.err == nil; i++ {
			t := decodeTest(r, cfg.Ops)
			if r.err != nil {
				// A request cling should never send: exit, so cling sees a
				// crash rather than waiting for a result.
				os.Exit(3)
			}
			res := run(cfg, t, observe)
			retire := cfg.MaxGoroutines > 0 && runtime.NumGoroutine()-base > cfg.MaxGoroutines
			if cfg.MaxHeap > 0 && !retire {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				retire = ms.HeapAlloc > cfg.MaxHeap
			}
			buf = encodeResult(buf[:0], cfg, res, retire)
			if observe {
				buf = appendObservations(buf, res.obs)
			}
			writeFrame(w, buf)
			// Every result goes out before the next test runs: if that test
			// kills the process, this one's result is not lost with it.
			w.Flush()
			if retire {
				os.Exit(0)
			}
		}
		w.Flush()
	}
}

// test is a decoded test: per statement its op, argument slots (-1 for
// omitted), output base slot and literal.
type test struct {
	stmts []stmt
	slots int
}

type stmt struct {
	op    int
	args  []int
	base  int
	value any
}

func decodeTest(r *reader, ops []Op) *test {
	t := &test{}
	n := int(r.uvarint())
	for i := 0; i < n && r.err == nil; i++ {
		s := stmt{op: int(r.uvarint()), base: t.slots}
		if s.op >= len(ops) {
			r.err = errors.New("unknown op")
			return t
		}
		na := int(r.uvarint())
		s.args = make([]int, na)
		for j := range s.args {
			s.args[j] = int(r.uvarint()) - 1
		}
		if ops[s.op].Prim != nil {
			s.value = r.literal()
		}
		t.slots += ops[s.op].Outputs
		t.stmts = append(t.stmts, s)
	}
	return t
}

// result is the outcome of one test.
type result struct {
	status    byte
	panicStmt int
	panicVal  any
	frame     string
	values    []any
	done      int // statements completed
	obs       []observation
	// snaps holds, per value built by set-up ops, its fields as set up.
	snaps map[int]map[observation]bool
}

// run executes a test in its own goroutine, so that a runtime.Goexit or a
// panic in the code under test ends the test, not the executor.
func run(cfg Config, t *test, observe bool) *result {
	res := &result{values: make([]any, t.slots)}
	cfg.Reset()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				res.status = statusPanic
				res.panicStmt = res.done
				res.panicVal = p
				res.frame = innermostFrame(cfg.Packages)
			} else if res.done < len(t.stmts) {
				// runtime.Goexit: the test stopped without panicking.
				res.status = statusPanic
				res.panicStmt = res.done
				res.panicVal = "runtime.Goexit called"
			}
		}()
		args := make([]any, 0, 8)
		for _, s := range t.stmts {
			op := cfg.Ops[s.op]
			if op.Prim != nil {
				res.values[s.base] = op.Prim(s.value)
			} else {
				args = args[:0]
				for _, a := range s.args {
					if a < 0 {
						args = append(args, nil)
					} else {
						args = append(args, res.values[a])
					}
				}
				outs := op.Call(args)
				copy(res.values[s.base:s.base+op.Outputs], outs)
			}
			if observe {
				for r := 0; r < op.Outputs; r++ {
					isErr := r < len(op.ErrorOut) && op.ErrorOut[r]
					res.obs = append(res.obs, describe(res.done, r, res.values[s.base+r], isErr, false)...)
				}
				if op.Setup {
					res.snapshot(s, op)
				}
			}
			res.done++
		}
	}()
	<-done
	if observe {
		res.obs = append(res.obs, observeEnd(cfg, t, res)...)
	}
	return res
}

// innermostFrame finds, on the panicking stack, the innermost frame of the
// caller or callee package.
func innermostFrame(pkgs []string) string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		for _, p := range pkgs {
			if strings.HasPrefix(f.Function, p+".") {
				return fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Function)
			}
		}
		if !more {
			return ""
		}
	}
}

func encodeResult(buf []byte, cfg Config, res *result, retire bool) []byte {
	st := res.status
	if retire {
		st |= flagRetiring
	}
	buf = append(buf, st)
	if res.status == statusPanic {
		buf = binary.AppendUvarint(buf, uint64(res.panicStmt))
		text, isErr, isText := describePanic(res.panicVal)
		buf = appendBool(buf, isErr)
		buf = appendBool(buf, isText)
		buf = appendString(buf, text)
		buf = appendString(buf, res.frame)
	}
	tr := cfg.Trace(nil)
	buf = binary.AppendUvarint(buf, uint64(len(tr)))
	buf = append(buf, tr...)
	return buf
}

func describePanic(v any) (text string, isErr, isText bool) {
	switch x := v.(type) {
	case error:
		return x.Error(), true, false
	case string:
		return x, false, true
	}
	return fmt.Sprint(v), false, false
}

// Observation kinds; they match testcase.ObsKind.
const (
	obsNil = iota + 1
	obsNotNil
	obsBool
	obsInt
	obsUint
	obsFloat
	obsString
	obsNoError
	obsError
	obsLen
)

type observation struct {
	stmt, result int
	path         string
	end          bool
	kind         byte
	text         string
}

// snapshot records the fields of the struct values a set-up op produced,
// and again those of its arguments that were snapshot before (a field set
// or a set-up method may have changed them).
func (res *result) snapshot(s stmt, op Op) {
	if res.snaps == nil {
		res.snaps = map[int]map[observation]bool{}
	}
	take := func(i int) {
		obs := describe(0, 0, res.values[i], false, true)
		if obs == nil {
			return
		}
		m := make(map[observation]bool, len(obs))
		for _, o := range obs {
			m[o] = true
		}
		res.snaps[i] = m
	}
	for r := 0; r < op.Outputs; r++ {
		take(s.base + r)
	}
	for _, a := range s.args {
		if _, ok := res.snaps[a]; ok {
			take(a)
		}
	}
}

// observeEnd describes, when the test is over, the exported fields of the
// structs its outputs point to.
func observeEnd(cfg Config, t *test, res *result) []observation {
	var out []observation
	for i, s := range t.stmts {
		if i >= res.done {
			break
		}
		op := cfg.Ops[s.op]
		for r := 0; r < op.Outputs; r++ {
			isErr := r < len(op.ErrorOut) && op.ErrorOut[r]
			snap, hasSnap := res.snaps[s.base+r]
			for _, o := range describe(i, r, res.values[s.base+r], isErr, true) {
				key := o
				key.stmt, key.result = 0, 0
				if hasSnap && snap[key] {
					continue // as the test set it up
				}
				out = append(out, o)
			}
		}
	}
	return out
}

// describe observes one value. Without end, the value itself (and the
// fields of a struct value); with end, the fields of a struct pointed to.
func describe(stmt, result int, v any, isErr, end bool) []observation {
	obs := func(path string, kind byte, text string) observation {
		return observation{stmt: stmt, result: result, path: path, end: end, kind: kind, text: text}
	}
	if isErr {
		if end {
			return nil
		}
		if v == nil {
			return []observation{obs("", obsNoError, "")}
		}
		return []observation{obs("", obsError, v.(error).Error())}
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		if end {
			return nil
		}
		return []observation{obs("", obsNil, "")}
	}
	if end {
		if rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Struct {
			return fields(rv.Elem(), obs)
		}
		return nil
	}
	if o, ok := basic(rv, ""); ok {
		return []observation{obs(o.path, o.kind, o.text)}
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
		if rv.IsNil() {
			return []observation{obs("", obsNil, "")}
		}
		out := []observation{obs("", obsNotNil, "")}
		if text, ok := stringer(rv); ok {
			out = append(out, obs("String()", obsString, text))
		}
		return out
	case reflect.Slice, reflect.Map:
		if rv.IsNil() {
			return []observation{obs("", obsNil, "")}
		}
		return []observation{obs("", obsLen, fmt.Sprint(rv.Len()))}
	case reflect.Struct:
		out := fields(rv, obs)
		if text, ok := stringer(rv); ok {
			out = append(out, obs("String()", obsString, text))
		}
		return out
	}
	return nil
}

// stringer calls the String method of a value that has one, unless it
// panics or its text is long.
func stringer(rv reflect.Value) (text string, ok bool) {
	if !rv.CanInterface() {
		return "", false
	}
	s, isStringer := rv.Interface().(fmt.Stringer)
	if !isStringer {
		return "", false
	}
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	text = s.String()
	return text, len(text) <= 256
}

// fields observes the exported fields of a struct of basic kinds, errors,
// nil-ness and lengths.
func fields(rv reflect.Value, obs func(string, byte, string) observation) []observation {
	var out []observation
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := rv.Field(i)
		path := "." + f.Name
		if o, ok := basic(fv, path); ok {
			out = append(out, obs(o.path, o.kind, o.text))
			continue
		}
		if f.Type == errorType {
			if fv.IsNil() {
				out = append(out, obs(path, obsNoError, ""))
			} else {
				out = append(out, obs(path, obsError, fv.Interface().(error).Error()))
			}
			continue
		}
		switch fv.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
			if fv.IsNil() {
				out = append(out, obs(path, obsNil, ""))
			} else {
				out = append(out, obs(path, obsNotNil, ""))
			}
		case reflect.Slice, reflect.Map:
			if fv.IsNil() {
				out = append(out, obs(path, obsNil, ""))
			} else {
				out = append(out, obs(path, obsLen, fmt.Sprint(fv.Len())))
			}
		case reflect.Struct:
			if text, ok := stringer(fv); ok {
				out = append(out, obs(path+".String()", obsString, text))
			}
		}
	}
	return out
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// basic describes a value of a basic kind.
func basic(rv reflect.Value, path string) (observation, bool) {
	o := observation{path: path}
	switch rv.Kind() {
	case reflect.Bool:
		o.kind, o.text = obsBool, fmt.Sprint(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		o.kind, o.text = obsInt, fmt.Sprint(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		o.kind, o.text = obsUint, fmt.Sprint(rv.Uint())
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return o, false
		}
		o.kind, o.text = obsFloat, fmt.Sprint(f)
		if rv.Kind() == reflect.Float32 {
			o.text = fmt.Sprint(float32(f))
		}
	case reflect.String:
		s := rv.String()
		if len(s) > 256 {
			o.kind, o.text = obsLen, fmt.Sprint(len(s))
		} else {
			o.kind, o.text = obsString, s
		}
	default:
		return o, false
	}
	return o, true
}

func appendObservations(buf []byte, obs []observation) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(obs)))
	for _, o := range obs {
		buf = binary.AppendUvarint(buf, uint64(o.stmt))
		buf = binary.AppendUvarint(buf, uint64(o.result))
		buf = appendString(buf, o.path)
		buf = appendBool(buf, o.end)
		buf = append(buf, o.kind)
		buf = appendString(buf, o.text)
	}
	return buf
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, 1)
	}
	return append(buf, 0)
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func readFrame(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}

func writeFrame(w io.Writer, b []byte) {
	var hdr [binary.MaxVarintLen64]byte
	w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(b)))])
	w.Write(b)
}

// Literal tags on the wire.
const (
	litInt = iota
	litUint
	litFloat
	litString
	litBool
)

type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("short request")

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShort
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) literal() any {
	switch r.byte() {
	case litInt:
		v, n := binary.Varint(r.b)
		if n <= 0 {
			r.err = errShort
			return int64(0)
		}
		r.b = r.b[n:]
		return v
	case litUint:
		return r.uvarint()
	case litFloat:
		if len(r.b) < 8 {
			r.err = errShort
			return float64(0)
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return v
	case litString:
		n := int(r.uvarint())
		if n > len(r.b) {
			r.err = errShort
			return ""
		}
		s := string(r.b[:n])
		r.b = r.b[n:]
		return s
	case litBool:
		return r.byte() == 1
	}
	r.err = errShort
	return nil
}
