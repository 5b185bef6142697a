package testcase

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/pkgstate"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// OpKind says what an operation does.
type OpKind int

const (
	// OpCall calls a function or method (receiver as first input).
	OpCall OpKind = iota
	// OpComposite builds a struct with a composite literal (T{...} or
	// &T{...}), one input per exported field.
	OpComposite
	// OpFieldSet assigns an exported field: obj.F = x.
	OpFieldSet
	// OpPrim is a literal of a basic type (or a named basic type).
	OpPrim
	// OpNil is a typed nil.
	OpNil
	// OpSlice builds a slice from its elements.
	OpSlice
	// OpMap builds a map from keys and values.
	OpMap
	// OpZero is the zero value of a type (arrays, structs without exported
	// fields).
	OpZero
	// OpChan is a channel: buffered with its elements and closed (or left
	// open, when Open is set) for channels a test receives from; empty with
	// room to send, for send-only ones.
	OpChan
	// OpTarget is a pointer to a fresh variable, &v after var v T: what a
	// decoder decodes into. Type is *T; the test observes v at its end.
	OpTarget
	// OpFunc is a function literal of Type, whose body is one of
	// Variants (the statement's FuncLit says which, with its constant).
	OpFunc
	// OpGlobal reads an exported package-level variable (Var), such as a
	// sentinel error: pkg.ErrX.
	OpGlobal
	// OpTempDir is the path of a new empty directory the test owns and
	// that is removed when it ends, t.TempDir(), or with File the path of
	// a file not made yet in one, filepath.Join(t.TempDir(), "file"):
	// what the test passes to a string parameter the code uses as a path
	// (see UsePath), so that code that writes files writes them there.
	OpTempDir
)

// Op is one operation of the cluster: a way to produce values or to act on
// them. A statement applies an op to earlier values.
type Op struct {
	// ID numbers the op in the cluster (the harness uses it).
	ID   int
	Kind OpKind
	// Name is a readable name: pkg.F, (*pkg.T).M, &pkg.T{}, int, ...
	Name string
	// Func is the called function or method (OpCall); TypeArgs its type
	// arguments when it is generic.
	Func     *types.Func
	TypeArgs []types.Type
	// Params are the inputs of a call (receiver first for a method) or of a
	// field set (object, value).
	Params   []types.Type
	Variadic bool
	Results  []types.Type
	// Concrete is, for a standard-library provider whose value keeps what
	// the code under test does with it (an httptest.ResponseRecorder as an
	// http.ResponseWriter), the type its function really returns, which
	// the written test's variable has: the emitter asserts on its fields
	// and String method. Nil when unknown or of no use.
	Concrete types.Type
	// Type is the produced type (composite, prim, nil, slice, map, zero);
	// for a pointer composite it is the pointer type.
	Type types.Type
	// Struct is the struct type of a composite or field set; Fields its
	// exported fields.
	Fields []*types.Var
	// Ptr is true for &T{...}.
	Ptr bool
	// Method is true for a method call.
	Method bool
	// ByReflection marks a method call the executor makes through
	// reflection: the receiver's type cannot be named outside its
	// package, nor can one of the method's results (a builder's method
	// that returns its own unexported type) or parameters, so no
	// interface holding the method can be written either. The written
	// test calls it directly.
	ByReflection bool
	// Open is true for a channel left open after its elements: receiving
	// past them blocks, where a closed channel would always be ready.
	Open bool
	// File is true for an OpTempDir that is the path of a file in the
	// directory.
	File bool
	// Covering is true for calls of R's covering functions; API for calls
	// of R's exported functions and methods.
	Covering bool
	API      bool
	// Served marks calls of a method of a standard-library interface
	// whose values R hands out (ServeHTTP on the handler a middleware
	// returns, see servedByR), and calls of a function value R handed out
	// (Invoke):
	// R's code implements it, so the call exercises R's API as an API
	// call does, and what it does to the test's values is no set-up.
	Served bool
	// Invoke marks the call of a function value, the op's first input,
	// rather than of a declared function (Func is nil): a value of a
	// function type that R hands out, whose body is R's code (see
	// invokeOp). Method is set too, the value standing where a receiver
	// stands.
	Invoke bool
	// Goals are, for a call of a covering function, the coupled branches
	// whose call site the function may reach (couple.Analysis.GoalsFrom),
	// in increasing order.
	Goals []int32
	// Variants are the bodies an OpFunc literal may have.
	Variants []FuncVariant
	// Var is the variable an OpGlobal reads.
	Var *types.Var
	// Uses says, per input of a call, how the code under test treats an
	// argument of interface type (decode target, function), nil if the
	// analysis found nothing.
	Uses []ParamUse
	// WritesState marks calls of functions that change package-level
	// state (see package pkgstate): what a test does after one depends on
	// it, so the executor runs the next test in a fresh process.
	WritesState bool
	// Releases names, per result (the value, for a composite literal), the
	// method that releases it at the end of the test (see ReleaseMethod),
	// "" for none; nil when no result has one.
	Releases []string
}

// Use is how the code under test treats input k of a call (see Uses).
func (o *Op) Use(k int) ParamUse {
	if k < len(o.Uses) {
		return o.Uses[k]
	}
	return 0
}

// SetsUp reports whether the op prepares the test's inputs rather than
// exercising R's API: everything but calls of R's exported functions and
// methods. The state such an op leaves a value in is the test's own doing,
// so assertions on the value's fields at the end of the test are kept only
// for the fields that changed since.
func (o *Op) SetsUp() bool { return !(o.Kind == OpCall && (o.API || o.Served)) }

// Inputs are the types of the op's arguments.
func (o *Op) Inputs() []types.Type {
	switch o.Kind {
	case OpCall, OpFieldSet:
		return o.Params
	case OpComposite:
		in := make([]types.Type, len(o.Fields))
		for i, f := range o.Fields {
			in[i] = f.Type()
		}
		return in
	}
	return nil
}

// ArgType is the type of the op's k-th argument: an input, or for slices
// and maps an element (keys and values alternate in maps).
func (o *Op) ArgType(k int) types.Type {
	switch o.Kind {
	case OpSlice, OpChan:
		_, elem := o.ElemTypes()
		return elem
	case OpMap:
		key, elem := o.ElemTypes()
		if k%2 == 0 {
			return key
		}
		return elem
	}
	return o.Inputs()[k]
}

// Outputs are the types of the values the op produces.
func (o *Op) Outputs() []types.Type {
	switch o.Kind {
	case OpCall:
		return o.Results
	case OpFieldSet:
		return nil
	}
	return []types.Type{o.Type}
}

// Pure reports whether the op has no effect beyond producing its value.
func (o *Op) Pure() bool {
	switch o.Kind {
	case OpCall, OpFieldSet:
		return false
	}
	return true
}

// ElemTypes returns the element (or key and value) types of slice and map
// ops.
func (o *Op) ElemTypes() (key, elem types.Type) {
	switch u := o.Type.Underlying().(type) {
	case *types.Slice:
		return nil, u.Elem()
	case *types.Chan:
		return nil, u.Elem()
	case *types.Map:
		return u.Key(), u.Elem()
	}
	return nil, nil
}

// Constants are the literals found in the source of R and E, used to seed
// primitive values.
type Constants struct {
	Ints    []int64
	Floats  []float64
	Strings []string
	// Chars are the printable ASCII character literals ('(', ',', 'x'),
	// as strings: what a lexer compares input bytes with.
	Chars []string
}

// Cluster is everything a test of R may do: the calls of R's exported API
// (covering functions marked), and for every type those calls need, the
// operations that produce a value of it.
type Cluster struct {
	Caller *ccfg.Package
	Callee *ccfg.Package
	// Ops are all operations, in a deterministic order; Ops[i].ID == i.
	Ops []*Op
	// API are the calls of R's exported functions and methods that the
	// cluster can drive; Covering those of covering functions.
	API      []*Op
	Covering []*Op
	// Constants seed primitive values.
	Constants Constants
	// Skipped lists the functions and methods of R that a test outside R
	// can call but the cluster cannot, with the reason, in the order of
	// apiFuncs.
	Skipped []Skip
	// MaxDepth bounds the nesting of values built to feed a call.
	MaxDepth int
	// Pool are the types values for the empty interface are drawn from,
	// and Declared the types tests declare themselves (the struct types
	// of the pool, then the stubs of interfaces; see declared.go and
	// stubs.go); Pool is built the first time a value of an empty
	// interface is needed (see pool.go), Declared then, when a value of
	// an interface a stub implements is, or when a type parameter takes a
	// declared struct (declaredTypeArg).
	Pool     []types.Type
	Declared []*types.Named

	analysis      *couple.Analysis
	refl          *reflection
	paths         map[pathKey]bool
	pathFields    map[*types.Var]bool
	tempPaths     []*Op
	poolBuilt     bool
	declaredBuilt bool
	shapes        []types.Type // the other kinds and shapes of the pool
	targets       typeutil.Map // T -> the OpTarget of *T
	// poolTargets and poolFuncs are the decode targets and the function
	// types of the pool, once asked for.
	poolTargets []*Op
	poolFuncs   []types.Type
	guide       *guidance
	scan        []*types.Package
	producers   typeutil.Map // types.Type -> []*Op
	methods     typeutil.Map // types.Type -> []*Op
	height      typeutil.Map // types.Type -> int (buildHeight)
	fieldSets   typeutil.Map // pointer type -> []*Op
	seenOps     map[string]*Op
	// sealed is the number of ops the executor was built with (see
	// Seal); 0 before.
	sealed int
	// writers are the functions that change package-level state.
	writers map[*types.Func]bool
	// rResults are the result types of R's exported functions and
	// methods, once asked for (see resultsOfR).
	rResults []types.Type
	// rHanded are the types of the values R hands out, and rFuncs the
	// function types among them, whose values run R's code when called;
	// found once asked for (see findHandedOut).
	rHanded, rFuncs []types.Type
	// driven are the methods of R's interfaces that R's code calls
	// through them (see DrivenByCaller), found once.
	driven     map[string]bool
	drivenOnce sync.Once
	// assignableTo remembers assignable's answers, by the identity of the
	// two types: breeding asks the same few pairs again and again, and
	// whether a type implements an interface means looking up each of
	// its methods.
	assignableTo map[[2]types.Type]bool
}

// Skip is a function or method of R that a test outside R can call, but
// the cluster cannot: it cannot build a value the call needs.
type Skip struct {
	// What names the function or method: pkg.F, (*pkg.T).M.
	What string
	// Reason says which value cannot be built (a parameter, the receiver,
	// a result the call must name), of which type, and why.
	Reason string
}

const unbuildable = 1 << 20

// NewCluster builds the test cluster of an analysed pair. Values are
// searched for in R, E, the packages they import, and the packages that
// declare the types needed.
func NewCluster(a *couple.Analysis, maxDepth int) *Cluster {
	c := &Cluster{
		analysis: a,
		Caller:   a.Caller.Pkg,
		Callee:   a.Callee.Pkg,
		MaxDepth: maxDepth,
		seenOps:  map[string]*Op{},
	}
	c.scan = scanPackages(a)
	var ssaPkgs []*ssa.Package
	for _, p := range a.Prog.Packages {
		ssaPkgs = append(ssaPkgs, p.SSA)
	}
	c.writers = pkgstate.Writers(ssaPkgs)
	covering := map[*types.Func]bool{}
	goals := map[*types.Func][]int32{}
	for _, f := range a.Covering {
		if obj, ok := f.SSA.Object().(*types.Func); ok {
			covering[obj] = true
			for _, g := range a.GoalsFrom(f) {
				goals[obj] = append(goals[obj], int32(g))
			}
		}
	}
	addAPI := func(op *Op, fn *types.Func) {
		cover := covering[fn.Origin()]
		op.API = true
		op.Covering = op.Covering || cover
		if cover {
			op.Goals = append(op.Goals, goals[fn.Origin()]...)
			slices.Sort(op.Goals)
			op.Goals = slices.Compact(op.Goals)
		}
		if slices.Contains(c.API, op) {
			return
		}
		c.API = append(c.API, op)
		if op.Covering {
			c.Covering = append(c.Covering, op)
		}
	}
	outside := newReach(c)
	for _, fn := range apiFuncs(a.Caller.Pkg.Types) {
		ops, why := c.callOps(fn)
		added := false
		for _, op := range ops {
			reason := c.unbuildableInput(op, 0)
			if reason == "" {
				addAPI(op, fn)
				added = true
				continue
			}
			if why == "" {
				why = reason
			}
			// A method of an unexported type is reached through an
			// exported interface it implements, on values the package's
			// constructors return as that interface, or on an exported
			// type that embeds the unexported one.
			for _, via := range append(c.viaInterfaces(fn), c.viaEmbedding(fn)...) {
				if c.unbuildableInput(via, 0) == "" {
					addAPI(via, fn)
					added = true
				}
			}
		}
		if !added && why != "" && outside.canCall(fn) {
			c.Skipped = append(c.Skipped, Skip{What: funcName(fn, fn.Type().(*types.Signature), nil), Reason: why})
		}
	}
	c.Constants = collectConstants(a.Caller.Pkg, a.Callee.Pkg)
	c.complete()
	if c.declaredBuilt {
		// Decoders look up the names of the declared types' fields.
		c.Constants.addFieldNames(c.Declared)
	}
	return c
}

// complete registers every op a test may ever use, so that the executor,
// generated from Ops, has a stub for each: the producers of every type an
// op consumes, and the methods and field assignments of every type an op
// produces, transitively.
func (c *Cluster) complete() {
	var seen typeutil.Map
	var queue []types.Type
	push := func(t types.Type) {
		if t != nil && seen.At(t) == nil {
			seen.Set(t, true)
			queue = append(queue, t)
		}
	}
	pushOp := func(op *Op) {
		for k := range op.Inputs() {
			push(op.ArgType(k))
		}
		if op.Kind == OpSlice || op.Kind == OpMap || op.Kind == OpChan {
			key, elem := op.ElemTypes()
			push(key)
			push(elem)
		}
		for _, t := range op.Outputs() {
			push(t)
		}
	}
	for _, op := range c.API {
		pushOp(op)
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, op := range c.Producers(t) {
			pushOp(op)
		}
		for _, op := range c.Methods(t) {
			pushOp(op)
		}
		for _, op := range c.FieldSets(t) {
			pushOp(op)
		}
	}
}

// scanPackages returns R, E and their direct imports, deterministically.
func scanPackages(a *couple.Analysis) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	add := func(p *types.Package) {
		if p != nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(a.Caller.Pkg.Types)
	add(a.Callee.Pkg.Types)
	for _, p := range []*types.Package{a.Caller.Pkg.Types, a.Callee.Pkg.Types} {
		imps := append([]*types.Package(nil), p.Imports()...)
		sort.Slice(imps, func(i, j int) bool { return imps[i].Path() < imps[j].Path() })
		for _, i := range imps {
			add(i)
		}
	}
	return out
}

// apiFuncs lists the exported functions and the exported methods of the
// named types of pkg, sorted by position then name.
func apiFuncs(pkg *types.Package) []*types.Func {
	var out []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() && name != "init" {
				out = append(out, obj)
			}
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || obj.IsAlias() {
				continue
			}
			for i := 0; i < named.NumMethods(); i++ {
				if m := named.Method(i); m.Exported() {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// viaInterfaces returns calls, through exported interfaces of the scanned
// packages, of a method whose receiver type tests cannot name (an
// unexported type): goldmark's extensions are *cjk values handed out as
// goldmark.Extender.
func (c *Cluster) viaInterfaces(fn *types.Func) []*Op {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || nameable(sig.Recv().Type(), c.Caller.Types) {
		return nil
	}
	var out []*Op
	for _, p := range c.scan {
		if isInternalElsewhere(p.Path(), c.Caller.Types) {
			continue
		}
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 || !types.Implements(sig.Recv().Type(), iface) {
				continue
			}
			for i := 0; i < iface.NumMethods(); i++ {
				m := iface.Method(i)
				if m.Name() != fn.Name() {
					continue
				}
				msig := m.Type().(*types.Signature)
				isig := types.NewSignatureType(types.NewVar(0, p, "", tn.Type()), nil, nil, msig.Params(), msig.Results(), msig.Variadic())
				if op := c.newCallOp(m, isig, nil); op != nil {
					out = append(out, op)
				}
			}
		}
	}
	return out
}

// viaEmbedding returns calls of a method of an unexported type of R that
// an exported type of R embeds, on that type, which Go promotes the method
// to: go-cache's Cache embeds *cache, and a test calls c.Set on the *Cache
// that New returns. The receiver is a pointer to the exported type, or the
// type itself when only values of it can be built.
func (c *Cluster) viaEmbedding(fn *types.Func) []*Op {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || fn.Pkg() != c.Caller.Types || nameable(sig.Recv().Type(), c.Caller.Types) {
		return nil
	}
	var out []*Op
	for _, outer := range promotedInto(fn) {
		for _, recv := range []types.Type{types.NewPointer(outer), outer} {
			if !promotes(recv, fn) {
				continue
			}
			psig := types.NewSignatureType(types.NewVar(sig.Recv().Pos(), sig.Recv().Pkg(), sig.Recv().Name(), recv),
				nil, nil, sig.Params(), sig.Results(), sig.Variadic())
			if op := c.newCallOp(fn, psig, nil); op != nil && c.unbuildableInput(op, 0) == "" {
				out = append(out, op)
				break
			}
		}
	}
	return out
}

// promotedInto returns the exported, non-generic named types of fn's
// package whose pointer's method set holds fn through an embedded field.
func promotedInto(fn *types.Func) []*types.Named {
	var out []*types.Named
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		if promotes(types.NewPointer(named), fn) {
			out = append(out, named)
		}
	}
	return out
}

// promotes reports whether the method set of t holds fn through an
// embedded field.
func promotes(t types.Type, fn *types.Func) bool {
	sel := types.NewMethodSet(t).Lookup(fn.Pkg(), fn.Name())
	return sel != nil && sel.Obj() == fn && len(sel.Index()) > 1
}

// OpNamed returns the op of the given name (Op.Name), nil if there is
// none.
func (c *Cluster) OpNamed(name string) *Op { return c.seenOps[name] }

// Seal records that the executor was built with the cluster's ops so
// far. Ops the cluster makes later, when a type is first asked about
// during the search, get IDs the executor does not know: Producers,
// Methods, FieldSets and Target leave them out from then on, so that no
// test calls an op the executor cannot run.
func (c *Cluster) Seal() {
	if c.sealed == 0 {
		c.sealed = len(c.Ops)
	}
}

// runnable reports whether the executor can run op: it was made before
// the cluster was sealed, or the cluster is not sealed yet.
func (c *Cluster) runnable(op *Op) bool { return c.sealed == 0 || op.ID < c.sealed }

// runnableOps returns the ops of ops the executor can run.
func (c *Cluster) runnableOps(ops []*Op) []*Op {
	if c.sealed == 0 {
		return ops
	}
	out := ops[:0:0]
	for _, op := range ops {
		if c.runnable(op) {
			out = append(out, op)
		}
	}
	return out
}

// register adds an op to the cluster once, keyed by its name.
func (c *Cluster) register(op *Op) *Op {
	if prev, ok := c.seenOps[op.Name]; ok {
		return prev
	}
	op.ID = len(c.Ops)
	c.Ops = append(c.Ops, op)
	c.seenOps[op.Name] = op
	return op
}

// callOps returns the call ops of a function or method: one op, or one per
// instantiation of a generic function; when there is none, the reason.
func (c *Cluster) callOps(fn *types.Func) ([]*Op, string) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil && recvTypeParams(sig) > 0 {
		return c.genericMethodOps(fn)
	}
	if sig.TypeParams().Len() > 0 {
		var out []*Op
		why := ""
		for _, targs := range c.instantiations(fn) {
			inst, err := types.Instantiate(nil, fn.Type(), targs, true)
			if err != nil {
				continue
			}
			op, opWhy := c.callOp(fn, inst.(*types.Signature), targs)
			if op != nil {
				out = append(out, op)
			} else if why == "" {
				why = funcName(fn, inst.(*types.Signature), targs) + ": " + opWhy
			}
		}
		if len(out) == 0 && why == "" {
			why = c.whyNoInstantiation(fn)
		}
		return out, why
	}
	if op, why := c.callOp(fn, sig, nil); op != nil {
		return []*Op{op}, ""
	} else {
		return nil, why
	}
}

// genericMethodOps returns the call ops of a method of a generic type, one
// per instantiation of the type (Stack[int], Stack[string]): the method of
// the instantiated type, which a test calls on a value of it as on any
// other (s.Push(1)). When there is none, the reason.
func (c *Cluster) genericMethodOps(fn *types.Func) ([]*Op, string) {
	recv := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	generic, ok := types.Unalias(recv).(*types.Named)
	if !ok {
		return nil, "cling cannot name the receiver's generic type"
	}
	generic = generic.Origin()
	var out []*Op
	why := ""
	for _, targs := range c.typeArgs(generic.TypeParams()) {
		inst, err := types.Instantiate(nil, generic, targs, true)
		if err != nil {
			continue
		}
		named := inst.(*types.Named)
		for i := 0; i < named.NumMethods(); i++ {
			m := named.Method(i)
			if m.Name() != fn.Name() {
				continue
			}
			op, opWhy := c.callOp(m, m.Type().(*types.Signature), nil)
			if op != nil {
				out = append(out, op)
			} else if why == "" {
				why = funcName(m, m.Type().(*types.Signature), nil) + ": " + opWhy
			}
		}
	}
	if len(out) == 0 && why == "" {
		why = c.whyNoTypeArgs(generic.TypeParams())
	}
	return out, why
}

func recvTypeParams(sig *types.Signature) int {
	if sig.RecvTypeParams() != nil {
		return sig.RecvTypeParams().Len()
	}
	return 0
}

// instantiations proposes type arguments for a generic function: for each
// type parameter, the first candidates among a fixed list of common types
// and the named types of R and E that satisfy its constraint, and a
// declared struct type when the code reads struct tags
// (declaredTypeArg); for a type
// parameter constrained by a type built from the others (S ~[]T,
// M ~map[K]V), that type with their arguments in place.
func (c *Cluster) instantiations(fn *types.Func) [][]types.Type {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		return nil // methods of generic types: see genericMethodOps
	}
	return c.typeArgs(sig.TypeParams())
}

// typeArgs proposes type arguments for the type parameters tps, as
// instantiations describes.
func (c *Cluster) typeArgs(tps *types.TypeParamList) [][]types.Type {
	candidates := c.typeArgCandidates()
	options := make([][]types.Type, tps.Len())
	derived := make([]types.Type, tps.Len())
	for i := 0; i < tps.Len(); i++ {
		for _, t := range candidates {
			if satisfies(t, tps.At(i)) {
				options[i] = append(options[i], t)
			}
			if len(options[i]) == 2 {
				break
			}
		}
		if d := c.declaredTypeArg(tps.At(i)); d != nil {
			options[i] = append(options[i], d)
		}
		if len(options[i]) == 0 {
			if derived[i] = builtFromTypeParams(tps.At(i)); derived[i] == nil {
				return nil
			}
		}
	}
	// All combinations of the candidates, at most 4; derived type
	// arguments follow from the others (types.Instantiate checks them
	// against their constraints).
	var out [][]types.Type
	acc := make([]types.Type, tps.Len())
	var rec func(i int)
	rec = func(i int) {
		if len(out) >= 4 {
			return
		}
		if i == tps.Len() {
			targs := slices.Clone(acc)
			for k, d := range derived {
				if d == nil {
					continue
				}
				if targs[k] = substTypeParams(d, tps, targs); targs[k] == nil {
					return
				}
			}
			out = append(out, targs)
			return
		}
		if derived[i] != nil {
			rec(i + 1)
			return
		}
		for _, t := range options[i] {
			acc[i] = t
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// declaredTypeArg returns a struct type the test declares (item1 of
// declared.go, tagged with the keys R's and E's code reads) as a type
// argument for tp, when R's or E's code reads struct tags and the type
// satisfies tp's constraint; nil otherwise. A generic function of code
// that walks structs by reflection (Decode[T any], Build[G any]) does
// little with the int and string that satisfy the same constraint.
func (c *Cluster) declaredTypeArg(tp *types.TypeParam) types.Type {
	if len(c.reflection().tags.keys) == 0 {
		return nil
	}
	if d := c.declared()[0]; satisfies(d, tp) {
		return d
	}
	return nil
}

// builtFromTypeParams returns the type a type parameter's constraint is
// made of when it is one type, possibly with a tilde, built from other
// type parameters (~[]T, ~map[K]V, ~func(T) bool), or nil.
func builtFromTypeParams(tp *types.TypeParam) types.Type {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok || iface.NumEmbeddeds() != 1 {
		return nil
	}
	t := iface.EmbeddedType(0)
	if u, ok := t.(*types.Union); ok {
		if u.Len() != 1 {
			return nil
		}
		t = u.Term(0).Type()
	}
	if _, ok := t.(*types.TypeParam); ok || !mentionsTypeParam(t) {
		return nil
	}
	return t
}

// mentionsTypeParam reports whether t is built from a type parameter.
func mentionsTypeParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if mentionsTypeParam(t.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	found := false
	forComponents(t, func(c types.Type) { found = found || mentionsTypeParam(c) })
	return found
}

// forComponents calls f with each type t is directly built from: the
// element of a pointer, slice, array or channel, the key and element of a
// map, the parameters and results of a signature, the type arguments of
// an instantiated named type. Struct fields are left to the caller.
func forComponents(t types.Type, f func(types.Type)) {
	switch t := t.(type) {
	case *types.Pointer:
		f(t.Elem())
	case *types.Slice:
		f(t.Elem())
	case *types.Array:
		f(t.Elem())
	case *types.Chan:
		f(t.Elem())
	case *types.Map:
		f(t.Key())
		f(t.Elem())
	case *types.Signature:
		for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tu.Len(); i++ {
				f(tu.At(i).Type())
			}
		}
	case *types.Named:
		for i := 0; i < t.TypeArgs().Len(); i++ {
			f(t.TypeArgs().At(i))
		}
	}
}

// substTypeParams returns t with the type parameters tps replaced by
// targs, or nil when one of them has no argument or t is of a kind it
// does not rebuild.
func substTypeParams(t types.Type, tps *types.TypeParamList, targs []types.Type) types.Type {
	sub := func(t types.Type) types.Type { return substTypeParams(t, tps, targs) }
	if !mentionsTypeParam(t) {
		return t
	}
	switch t := t.(type) {
	case *types.TypeParam:
		for i := 0; i < tps.Len(); i++ {
			if tps.At(i) == t {
				return targs[i]
			}
		}
		return nil
	case *types.Slice:
		if e := sub(t.Elem()); e != nil {
			return types.NewSlice(e)
		}
	case *types.Array:
		if e := sub(t.Elem()); e != nil {
			return types.NewArray(e, t.Len())
		}
	case *types.Pointer:
		if e := sub(t.Elem()); e != nil {
			return types.NewPointer(e)
		}
	case *types.Chan:
		if e := sub(t.Elem()); e != nil {
			return types.NewChan(t.Dir(), e)
		}
	case *types.Map:
		if k, v := sub(t.Key()), sub(t.Elem()); k != nil && v != nil {
			return types.NewMap(k, v)
		}
	case *types.Signature:
		params, okParams := substTuple(t.Params(), sub)
		results, okResults := substTuple(t.Results(), sub)
		if okParams && okResults {
			return types.NewSignatureType(nil, nil, nil, params, results, t.Variadic())
		}
	case *types.Named:
		var args []types.Type
		for i := 0; i < t.TypeArgs().Len(); i++ {
			a := sub(t.TypeArgs().At(i))
			if a == nil {
				return nil
			}
			args = append(args, a)
		}
		if inst, err := types.Instantiate(nil, t.Origin(), args, true); err == nil {
			return inst
		}
	}
	return nil
}

// substTuple rebuilds a tuple with sub applied to its types; ok is false
// when sub fails on one. (An empty tuple is nil.)
func substTuple(tu *types.Tuple, sub func(types.Type) types.Type) (_ *types.Tuple, ok bool) {
	vars := make([]*types.Var, tu.Len())
	for i := range vars {
		v := tu.At(i)
		t := sub(v.Type())
		if t == nil {
			return nil, false
		}
		vars[i] = types.NewParam(v.Pos(), v.Pkg(), v.Name(), t)
	}
	return types.NewTuple(vars...), true
}

// typeArgCandidates are the types instantiations tries, in order: int,
// string, float64, bool, and the exported named types of R and E that are
// not generic.
func (c *Cluster) typeArgCandidates() []types.Type {
	candidates := []types.Type{types.Typ[types.Int], types.Typ[types.String], types.Typ[types.Float64], types.Typ[types.Bool]}
	for _, p := range []*types.Package{c.Caller.Types, c.Callee.Types} {
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok && tn.Exported() && !tn.IsAlias() {
				if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
					candidates = append(candidates, n)
				}
			}
		}
	}
	return candidates
}

// whyNoInstantiation says why instantiations has nothing for fn.
func (c *Cluster) whyNoInstantiation(fn *types.Func) string {
	return c.whyNoTypeArgs(fn.Type().(*types.Signature).TypeParams())
}

// whyNoTypeArgs says why typeArgs has nothing for tps.
func (c *Cluster) whyNoTypeArgs(tps *types.TypeParamList) string {
	candidates := c.typeArgCandidates()
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		if builtFromTypeParams(tp) != nil {
			continue
		}
		if !slices.ContainsFunc(candidates, func(t types.Type) bool { return satisfies(t, tp) }) {
			return fmt.Sprintf("type parameter %s: no type cling tries (int, string, float64, bool, the exported types of %s and %s) satisfies its constraint %s",
				tp.Obj().Name(), c.Caller.Name, c.Callee.Name, types.TypeString(tp.Constraint(), qualifyByName))
		}
	}
	return "cling cannot instantiate it with the types it tries"
}

func satisfies(t types.Type, tp *types.TypeParam) bool {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	return types.Satisfies(t, iface)
}

// newCallOp makes the op of a call with the given (instantiated)
// signature, or returns nil when the harness cannot call it.
func (c *Cluster) newCallOp(fn *types.Func, sig *types.Signature, targs []types.Type) *Op {
	op, _ := c.callOp(fn, sig, targs)
	return op
}

// callOp makes the op of a call with the given (instantiated) signature;
// when the harness cannot call it, it returns nil and the reason.
func (c *Cluster) callOp(fn *types.Func, sig *types.Signature, targs []types.Type) (*Op, string) {
	if fn.Pkg() != c.Caller.Types && c.deprecated(fn) {
		return nil, "deprecated"
	}
	name := funcName(fn, sig, targs)
	op := &Op{Kind: OpCall, Name: name, Func: fn, TypeArgs: targs, Variadic: sig.Variadic(), WritesState: c.writers[fn.Origin()]}
	if recv := sig.Recv(); recv != nil {
		// A receiver of an unexported type is fine: values come from
		// constructors, and the harness calls through an interface, which
		// needs the results to be nameable too.
		op.Method = true
		op.Params = append(op.Params, recv.Type())
		if !nameable(recv.Type(), c.Caller.Types) {
			for i := 0; i < sig.Results().Len(); i++ {
				if !nameable(sig.Results().At(i).Type(), c.Caller.Types) {
					op.ByReflection = true
				}
			}
			for i := 0; i < sig.Params().Len(); i++ {
				// An interface holding the method must write its
				// parameters as they are declared, not as their
				// signatures (see WrittenType).
				if t := sig.Params().At(i).Type(); WrittenType(t) != t {
					op.ByReflection = true
				}
			}
		}
	}
	for i := 0; i < sig.Params().Len(); i++ {
		op.Params = append(op.Params, sig.Params().At(i).Type())
	}
	for i := 0; i < sig.Results().Len(); i++ {
		op.Results = append(op.Results, sig.Results().At(i).Type())
	}
	op.Releases = releases(op.Results)
	for i := 0; i < sig.Params().Len(); i++ {
		if t := WrittenType(sig.Params().At(i).Type()); !nameable(t, c.Caller.Types) {
			return nil, fmt.Sprintf("%s: %s; cling passes only values of types it can name", place("parameter", i, sig.Params()), whyUnnameable(t, c.Caller.Types))
		}
	}
	for i, p := range op.Params {
		var u ParamUse
		switch {
		case isEmptyInterface(p):
			u = c.paramUse(fn, sig, i-boolToInt(op.Method), i)
		case types.Identical(p, types.Typ[types.String]) && c.takesPath(fn, i):
			u = UsePath
			c.TempPaths() // built into the executor with the op
		}
		if u != 0 {
			if op.Uses == nil {
				op.Uses = make([]ParamUse, len(op.Params))
			}
			op.Uses[i] = u
		}
	}
	return c.register(op), ""
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// funcName renders pkg.F, (*pkg.T).M or pkg.F[int]; sig is the signature
// the op calls (its receiver may be a pointer to the method's).
func funcName(fn *types.Func, sig *types.Signature, targs []types.Type) string {
	var b strings.Builder
	if recv := sig.Recv(); recv != nil {
		b.WriteString("(" + types.TypeString(recv.Type(), qualifyByName) + ").")
	} else {
		b.WriteString(fn.Pkg().Name() + ".")
	}
	b.WriteString(fn.Name())
	if len(targs) > 0 {
		var ts []string
		for _, t := range targs {
			ts = append(ts, types.TypeString(t, qualifyByName))
		}
		b.WriteString("[" + strings.Join(ts, ", ") + "]")
	}
	return b.String()
}

func qualifyByName(p *types.Package) string { return p.Name() }

// nameable reports whether code outside from can write type t.
func nameable(t types.Type, from *types.Package) bool { return whyUnnameable(t, from) == "" }

// WrittenType is the type code outside t's package writes for t: t itself,
// or, for an unexported named function type (type urlRewriter
// func(*url.URL)), its signature, whose values Go assigns to t. Only such
// types are written as their underlying type: a value of an unnamed
// function type is assignable to the named one, and a function literal is
// all a test ever passes as one.
func WrittenType(t types.Type) types.Type {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Exported() || IsDeclaredPkg(n.Obj().Pkg()) || n.TypeArgs().Len() > 0 {
		return t
	}
	if sig, ok := n.Underlying().(*types.Signature); ok {
		return sig
	}
	return t
}

// Nameable reports whether the test package of from (package from_test)
// can write type t: every named type in it exported, and not in an
// internal package it cannot import.
func Nameable(t types.Type, from *types.Package) bool { return nameable(t, from) }

// isInternalElsewhere reports whether path is an internal package that
// code in the test package of from cannot import.
func isInternalElsewhere(path string, from *types.Package) bool {
	i := strings.LastIndex(path, "/internal/")
	switch {
	case i >= 0:
	case strings.HasPrefix(path, "internal/"):
		return true
	case strings.HasSuffix(path, "/internal"):
		i = len(path) - len("/internal")
	default:
		return false
	}
	parent := path[:i]
	return !(from.Path() == parent || strings.HasPrefix(from.Path(), parent+"/"))
}

// assignable reports whether a value of type v can be passed where t is
// expected: identical types, or an interface that v implements. (Other
// assignments Go allows, between a named and an unnamed type of the same
// underlying type, would change the dynamic type the harness sees.)
func assignable(v, t types.Type) bool {
	if types.Identical(v, t) {
		return true
	}
	if iface, ok := t.Underlying().(*types.Interface); ok {
		return types.Implements(v, iface)
	}
	return false
}

// assignable is assignable(v, t), remembered where t is an interface (a
// lookup costs more than comparing two other types).
func (c *Cluster) assignable(v, t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); !ok {
		return types.Identical(v, t)
	}
	key := [2]types.Type{v, t}
	if ok, seen := c.assignableTo[key]; seen {
		return ok
	}
	if c.assignableTo == nil {
		c.assignableTo = map[[2]types.Type]bool{}
	}
	ok := assignable(v, t)
	c.assignableTo[key] = ok
	return ok
}

// unbuildableInput returns why a value for one of op's inputs cannot be
// built within the depth bound (the receiver included, which comes from
// its own producers), or "" when all can.
func (c *Cluster) unbuildableInput(op *Op, depth int) string {
	for i, p := range op.Inputs() {
		if op.Variadic && i == len(op.Params)-1 {
			continue // a variadic parameter can be given no values
		}
		if h, limit := c.Height(p), c.MaxDepth-depth-1; h > limit {
			return inputPlace(op, i) + ": " + c.whyUnbuildable(p, h, limit)
		}
	}
	return ""
}

// inputPlace names an input of a call op: its receiver, or its k-th
// parameter with the parameter's name.
func inputPlace(op *Op, k int) string {
	if op.Method && k == 0 {
		return "receiver " + typeName(op.Params[0])
	}
	if op.Kind != OpCall {
		return "input " + strconv.Itoa(k+1) + " " + typeName(op.Inputs()[k])
	}
	if op.Method {
		k--
	}
	return place("parameter", k, op.Signature().Params())
}

// place names the i-th variable of a parameter or result list: "parameter
// 2 (opts []cmp.Option)".
func place(kind string, i int, vars *types.Tuple) string {
	v := vars.At(i)
	what := typeName(v.Type())
	if v.Name() != "" && v.Name() != "_" {
		what = v.Name() + " " + what
	}
	return fmt.Sprintf("%s %d (%s)", kind, i+1, what)
}

// whyUnbuildable says why a value of type t, whose height is h, cannot be
// built within limit levels of nesting.
func (c *Cluster) whyUnbuildable(t types.Type, h, limit int) string {
	if h < unbuildable {
		return fmt.Sprintf("a value of %s takes %d levels of nested calls to build, and cling builds at most %d", typeName(t), h, limit)
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		switch {
		case b.Info()&types.IsComplex != 0:
			return "cling does not generate complex numbers"
		case b.Kind() == types.UnsafePointer:
			return "cling does not generate unsafe pointers"
		}
	}
	var makers []string
	for _, op := range c.Producers(t) {
		makers = append(makers, op.Name)
	}
	unnameable := !nameable(t, c.Caller.Types) && !types.IsInterface(t)
	switch {
	case unnameable && len(makers) == 0:
		return whyUnnameable(t, c.Caller.Types) + ", and cling gets such values only from package-level functions, none of which returns one"
	case unnameable:
		return whyUnnameable(t, c.Caller.Types) + ", and cling cannot build the arguments of " + strings.Join(makers, ", ") + ", which return one"
	case len(makers) == 0:
		return "cling has no way to build a " + typeName(t)
	}
	return "cling cannot build the arguments of " + strings.Join(makers, ", ") + ", which make a " + typeName(t)
}

// whyUnnameable says why code outside from (the tests, in the external
// package R_test) cannot write type t: the part of it that is unexported,
// internal, or a type parameter; "" when they can.
func whyUnnameable(t types.Type, from *types.Package) string {
	cannot := typeName(t) + " cannot be named outside its package"
	switch u := t.(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer || u.Kind() == types.Invalid {
			return "cling does not write values of " + typeName(t)
		}
		return ""
	case *types.Named:
		// Even R's own unexported types cannot be named in R_test.
		obj := u.Obj()
		switch {
		case IsDeclaredPkg(obj.Pkg()):
			return "" // the test declares it
		case obj.Pkg() != nil && !obj.Exported():
			return typeName(t) + " is unexported"
		case obj.Pkg() != nil && isInternalElsewhere(obj.Pkg().Path(), from):
			return typeName(t) + " is declared in " + obj.Pkg().Path() + ", an internal package that " + from.Path() + "'s tests cannot import"
		}
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if why := whyUnnameable(u.TypeArgs().At(i), from); why != "" {
				return why
			}
		}
		return ""
	case *types.Alias:
		return whyUnnameable(types.Unalias(u), from)
	case *types.Pointer:
		return whyUnnameable(u.Elem(), from)
	case *types.Slice:
		return whyUnnameable(u.Elem(), from)
	case *types.Array:
		return whyUnnameable(u.Elem(), from)
	case *types.Chan:
		return whyUnnameable(u.Elem(), from)
	case *types.Map:
		if why := whyUnnameable(u.Key(), from); why != "" {
			return why
		}
		return whyUnnameable(u.Elem(), from)
	case *types.Signature:
		for _, vars := range []*types.Tuple{u.Params(), u.Results()} {
			for i := 0; i < vars.Len(); i++ {
				if why := whyUnnameable(vars.At(i).Type(), from); why != "" {
					return why
				}
			}
		}
		return ""
	case *types.Interface:
		if u.NumMethods() == 0 {
			return ""
		}
		if u.NumExplicitMethods() == 0 {
			return cannot + " (its methods all come from embedded interfaces)"
		}
		for i := 0; i < u.NumMethods(); i++ {
			if m := u.Method(i); !m.Exported() {
				return cannot + " (its method " + m.Name() + " is unexported)"
			} else if why := whyUnnameable(m.Type(), from); why != "" {
				return why
			}
		}
		return ""
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); !f.Exported() {
				return cannot + " (its field " + f.Name() + " is unexported)"
			} else if why := whyUnnameable(f.Type(), from); why != "" {
				return why
			}
		}
		return ""
	case *types.TypeParam:
		return typeName(t) + " is a type parameter"
	}
	return cannot
}

// Height is how many levels of nested values it takes to build a value of
// type t (0 for literals and nil); unbuildable types get a huge height.
func (c *Cluster) Height(t types.Type) int {
	if h := c.height.At(t); h != nil {
		return h.(int)
	}
	c.height.Set(t, unbuildable) // cycle guard
	best := unbuildable
	for _, op := range c.Producers(t) {
		h := 0
		for i, in := range op.Inputs() {
			if op.Variadic && i == len(op.Inputs())-1 {
				continue
			}
			if op.Kind == OpSlice || op.Kind == OpMap || op.Kind == OpChan {
				continue // zero elements are allowed
			}
			h = max(h, c.Height(in)+1)
		}
		if op.Kind == OpComposite && h > 0 {
			// Fields can be left out: a composite is as easy as its
			// easiest form, the empty literal.
			h = 1
		}
		best = min(best, h)
	}
	c.height.Set(t, best)
	return best
}

// Producers lists the ops that produce a value assignable to t:
// literals, constructors, composite literals, implementations of
// interfaces, nil, slices and maps.
func (c *Cluster) Producers(t types.Type) []*Op {
	if v := c.producers.At(t); v != nil {
		return v.([]*Op)
	}
	ops := c.runnableOps(c.findProducers(t))
	c.producers.Set(t, ops)
	return ops
}

func (c *Cluster) findProducers(t types.Type) []*Op {
	var out []*Op
	add := func(op *Op) {
		if op != nil {
			out = append(out, op)
		}
	}
	from := c.Caller.Types
	if !nameable(WrittenType(t), from) && !types.IsInterface(t) {
		// A value of an unnameable type can still come from a
		// constructor, or from a method that hands one out (a builder:
		// (*Policy).AllowAttrs returns an unexported *attrPolicyBuilder);
		// nothing else can build it.
		return append(c.constructors(t), c.methodProducers(t, false)...)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UntypedNil || u.Kind() == types.UnsafePointer || u.Info()&types.IsComplex != 0 {
			return nil
		}
		add(c.prim(t))
	case *types.Pointer:
		out = append(out, c.constructors(t)...)
		if st, ok := u.Elem().Underlying().(*types.Struct); ok {
			add(c.composite(u.Elem(), st, true))
		}
		add(c.nilOp(t))
	case *types.Struct:
		out = append(out, c.constructors(t)...)
		out = append(out, c.stdProviders(t)...)
		add(c.composite(t, u, false))
	case *types.Interface:
		if n, named := types.Unalias(t).(*types.Named); named && n.Obj().Pkg() != nil && u.NumMethods() > 0 {
			// A package's own interface is often built by functions
			// that return it (Comparer(f) Option) from unexported types.
			out = append(out, c.constructors(t)...)
		}
		out = append(out, c.implementations(t, u)...)
		if len(out) == 0 && u.NumMethods() > 0 {
			// Nothing builds one directly: a package's interface may
			// come only from a method of another of its types, as a
			// request's context comes from its server
			// ((*Echo).NewContext(r, w) Context). The methods of
			// exported types only: a test reaches an unexported type's
			// through the interfaces that hold its values, which are
			// produced on their own.
			out = append(out, c.methodProducers(t, true)...)
		}
		add(c.nilOp(t))
	case *types.Slice:
		if IsBytes(t) {
			add(c.prim(t)) // []byte("...")
		}
		out = append(out, c.constructors(t)...)
		add(c.register(&Op{Kind: OpSlice, Name: "slice " + typeName(t), Type: t}))
		add(c.nilOp(t))
	case *types.Map:
		out = append(out, c.constructors(t)...)
		if types.Comparable(u.Key()) {
			add(c.register(&Op{Kind: OpMap, Name: "map " + typeName(t), Type: t}))
		}
		add(c.nilOp(t))
	case *types.Array:
		add(c.register(&Op{Kind: OpZero, Name: "zero " + typeName(t), Type: t}))
	case *types.Chan:
		add(c.register(&Op{Kind: OpChan, Name: "chan " + typeName(t), Type: t}))
		if u.Dir() != types.SendOnly {
			add(c.register(&Op{Kind: OpChan, Name: "open chan " + typeName(t), Type: t, Open: true}))
		}
		add(c.nilOp(t))
	case *types.Signature:
		// A named function type is often a functional option, which its
		// package's constructors (WithX(...) Option) build.
		out = append(out, c.constructors(t)...)
		add(c.funcOp(t))
		add(c.nilOp(t))
	}
	return out
}

func typeName(t types.Type) string { return types.TypeString(t, qualifyByName) }

func (c *Cluster) prim(t types.Type) *Op {
	return c.register(&Op{Kind: OpPrim, Name: "lit " + typeName(t), Type: t})
}

func (c *Cluster) nilOp(t types.Type) *Op {
	return c.register(&Op{Kind: OpNil, Name: "nil " + typeName(t), Type: t})
}

// composite makes the composite-literal op of a struct type, over its
// exported fields whose types can be named.
func (c *Cluster) composite(t types.Type, st *types.Struct, ptr bool) *Op {
	n, named := t.(*types.Named)
	if !named {
		return nil
	}
	if c.madeUpZero(n, st) {
		return nil
	}
	var fields []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Exported() && nameable(f.Type(), c.Caller.Types) && !c.deprecated(f) {
			fields = append(fields, f)
		}
	}
	name := "{} " + typeName(t)
	typ := t
	if ptr {
		name = "&" + name
		typ = types.NewPointer(t)
	}
	if prev := c.seenOps[name]; prev != nil {
		return prev
	}
	op := &Op{Kind: OpComposite, Name: name, Type: typ, Fields: fields, Ptr: ptr}
	// A literal of a type with a release method (&BufferedWriteSyncer{},
	// whose writes start a flushing goroutine) is released as a call's
	// result is.
	op.Releases = releases([]types.Type{typ})
	for i, f := range fields {
		if isString(f.Type()) && c.PathField(f) {
			if op.Uses == nil {
				op.Uses = make([]ParamUse, len(fields))
			}
			op.Uses[i] = UsePath
			c.TempPaths() // built into the executor with the op
		}
	}
	return c.register(op)
}

// madeUpZero reports whether a literal of struct type n would be a zero
// value the test makes up: n belongs to a package other than R and E,
// has no exported field (so the literal is its zero value), and its doc
// comment does not say its zero value is a value to use. A bytes.Buffer's ("an
// empty buffer ready to use") is a value to pass; an io.PipeWriter's,
// which blocks for ever, or a bufio.Writer's, which panics, is not: their
// packages hand out the values that work.
func (c *Cluster) madeUpZero(n *types.Named, st *types.Struct) bool {
	pkg := n.Obj().Pkg()
	if pkg == nil || pkg == c.Caller.Types || pkg == c.Callee.Types || IsDeclared(n) {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Exported() {
			return false
		}
	}
	return !ZeroValueDocumented(c.analysis.Prog.Fset, n.Obj())
}

// constructors are package-level functions of the scanned packages (and of
// t's own package) whose first result is t (or *t for a struct t) and
// whose other results, if any, are one error or bool.
func (c *Cluster) constructors(t types.Type) []*Op {
	var out []*Op
	for _, p := range c.constructorPkgs(t) {
		scope := p.Scope()
		for _, name := range scope.Names() {
			fn, ok := scope.Lookup(name).(*types.Func)
			if !ok || !fn.Exported() {
				continue
			}
			sig := fn.Type().(*types.Signature)
			var targs []types.Type
			if sig.TypeParams().Len() > 0 {
				// A generic constructor of a generic type
				// (NewLRU[K, V](…) *LRU[K, V]), instantiated with the
				// type arguments t has.
				if targs = resultTypeArgs(sig, t); targs == nil {
					continue
				}
				inst, err := types.Instantiate(nil, sig, targs, true)
				if err != nil || needsItself(inst.(*types.Signature), t) {
					continue
				}
				sig = inst.(*types.Signature)
			}
			if !producesFirst(sig, t) || printfLike(fn) {
				continue
			}
			if op := c.newCallOp(fn, sig, targs); op != nil {
				out = append(out, op)
			}
		}
	}
	return out
}

// resultTypeArgs returns the type arguments with which the generic
// signature sig's first result, a generic named type or a pointer to one
// (*LRU[K, V]), is t, nil if there are none: each type parameter the
// result mentions takes the type in its place in t, and one constrained
// by a type built from the others (S ~[]T) that type with their arguments
// in place. Other type parameters leave it nil, and so does another kind
// of result: a function that returns a bare T (Max, errors.AsType) or a
// []T is a helper, not how a package makes its values.
func resultTypeArgs(sig *types.Signature, t types.Type) []types.Type {
	tps := sig.TypeParams()
	if sig.Results().Len() == 0 {
		return nil
	}
	result := types.Unalias(sig.Results().At(0).Type())
	if p, ok := result.(*types.Pointer); ok {
		result = types.Unalias(p.Elem())
	}
	if n, ok := result.(*types.Named); !ok || n.TypeArgs().Len() == 0 {
		return nil
	}
	targs := make([]types.Type, tps.Len())
	if !bindTypeParams(sig.Results().At(0).Type(), t, tps, targs) {
		return nil
	}
	for i, a := range targs {
		if a != nil {
			continue
		}
		built := builtFromTypeParams(tps.At(i))
		if built == nil {
			return nil
		}
		if targs[i] = substTypeParams(built, tps, targs); targs[i] == nil {
			return nil
		}
	}
	return targs
}

// needsItself reports whether a parameter of sig is t or built from it: a
// generic function that makes a t from one (First[T any](xs []T) T) is no
// way to make a t, and the values it asks for grow without end ([]int,
// [][]int, …).
func needsItself(sig *types.Signature, t types.Type) bool {
	var holds func(x types.Type) bool
	holds = func(x types.Type) bool {
		if types.Identical(x, t) {
			return true
		}
		found := false
		forComponents(x, func(c types.Type) { found = found || holds(c) })
		return found
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if holds(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// bindTypeParams matches pattern, a type that mentions the type
// parameters tps, against t, and records in targs the type each of them
// stands for; it reports whether t has pattern's shape, with the same
// type wherever a type parameter repeats.
func bindTypeParams(pattern, t types.Type, tps *types.TypeParamList, targs []types.Type) bool {
	pattern, t = types.Unalias(pattern), types.Unalias(t)
	if !mentionsTypeParam(pattern) {
		return types.Identical(pattern, t)
	}
	bind := func(p, x types.Type) bool { return bindTypeParams(p, x, tps, targs) }
	switch p := pattern.(type) {
	case *types.TypeParam:
		for i := 0; i < tps.Len(); i++ {
			if tps.At(i) != p {
				continue
			}
			if targs[i] == nil {
				targs[i] = t
				return true
			}
			return types.Identical(targs[i], t)
		}
	case *types.Pointer:
		if x, ok := t.(*types.Pointer); ok {
			return bind(p.Elem(), x.Elem())
		}
	case *types.Slice:
		if x, ok := t.(*types.Slice); ok {
			return bind(p.Elem(), x.Elem())
		}
	case *types.Array:
		if x, ok := t.(*types.Array); ok && x.Len() == p.Len() {
			return bind(p.Elem(), x.Elem())
		}
	case *types.Chan:
		if x, ok := t.(*types.Chan); ok && x.Dir() == p.Dir() {
			return bind(p.Elem(), x.Elem())
		}
	case *types.Map:
		if x, ok := t.(*types.Map); ok {
			return bind(p.Key(), x.Key()) && bind(p.Elem(), x.Elem())
		}
	case *types.Named:
		x, ok := t.(*types.Named)
		if !ok || x.Origin().Obj() != p.Origin().Obj() || x.TypeArgs().Len() != p.TypeArgs().Len() {
			return false
		}
		for i := 0; i < p.TypeArgs().Len(); i++ {
			if !bind(p.TypeArgs().At(i), x.TypeArgs().At(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// methodProducers lists the exported methods of the named types of the
// scanned packages (and t's own) whose first result is t, with at most an
// error or bool beside it, as constructors does for functions: how code
// outside a package gets values of its unexported builder types, and of
// interfaces that only another type's method hands out; with
// exportedOnly, only the methods of exported types.
func (c *Cluster) methodProducers(t types.Type, exportedOnly bool) []*Op {
	var out []*Op
	for _, p := range c.constructorPkgs(t) {
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || exportedOnly && !tn.Exported() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			for i := 0; i < named.NumMethods(); i++ {
				m := named.Method(i)
				if !m.Exported() {
					continue
				}
				sig := m.Type().(*types.Signature)
				if !producesFirst(sig, t) || printfLike(m) || poolAccessor(named, m) {
					continue
				}
				if op := c.newCallOp(m, sig, nil); op != nil {
					out = append(out, op)
				}
			}
		}
	}
	return out
}

// poolAccessor reports whether method m of named hands out values of a
// pool: it is AcquireX, and named has ReleaseX to give them back (echo's
// (*Echo).AcquireContext, "returns an empty Context instance from the
// pool"). Such a value is recycled, empty until its package resets it for
// a use, so a test gets its values from the type's other methods.
func poolAccessor(named *types.Named, m *types.Func) bool {
	rest, ok := strings.CutPrefix(m.Name(), "Acquire")
	if !ok {
		return false
	}
	for i := 0; i < named.NumMethods(); i++ {
		if named.Method(i).Name() == "Release"+rest {
			return true
		}
	}
	return false
}

// producesFirst reports whether a function of signature sig makes a t:
// its first result is t, and a second, if any, is an error or a bool.
func producesFirst(sig *types.Signature, t types.Type) bool {
	if sig.TypeParams().Len() > 0 || sig.Results().Len() == 0 || sig.Results().Len() > 2 {
		return false
	}
	if !types.Identical(sig.Results().At(0).Type(), t) {
		return false
	}
	if sig.Results().Len() == 2 {
		second := sig.Results().At(1).Type()
		return IsError(second) || types.Identical(second, types.Typ[types.Bool])
	}
	return true
}

// constructorPkgs are the packages whose functions and methods a test may
// call to make a t: the package that declares t (or the type t points
// to) first, then the scanned packages, each once, without those the
// tests cannot import or call.
func (c *Cluster) constructorPkgs(t types.Type) []*types.Package {
	pkgs := c.scan
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		pkgs = append([]*types.Package{n.Obj().Pkg()}, pkgs...)
	} else if p, ok := t.(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil {
			pkgs = append([]*types.Package{n.Obj().Pkg()}, pkgs...)
		}
	}
	var out []*types.Package
	seen := map[*types.Package]bool{}
	for _, p := range pkgs {
		if seen[p] || isInternalElsewhere(p.Path(), c.Caller.Types) || p.Name() == "main" || !callable(p.Path()) {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// IsBytes reports whether t is a byte slice ([]byte or a named type of
// it), which literals build from a string: []byte("...").
func IsBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// printfLike reports whether fn takes a format string and its arguments
// (Sprintf, Appendf, Errorf): random formats make vet complain and read
// badly.
func printfLike(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	n := sig.Params().Len()
	if !sig.Variadic() || n < 2 {
		return false
	}
	format := sig.Params().At(n - 2)
	b, ok := format.Type().(*types.Basic)
	return ok && b.Kind() == types.String && (format.Name() == "format" || strings.HasSuffix(fn.Name(), "f"))
}

// isStandard reports whether path is a standard-library package.
func isStandard(path string) bool { return ccfg.IsStdPath(path) }

// safeStandard are the standard-library packages whose functions a test
// may call to build values: pure computations. Packages that touch files,
// processes, the network or the runtime (os, os/exec, net, syscall, ...)
// are never called: a random test must not delete files.
var safeStandard = map[string]bool{
	// fmt is left out: what it prints of pointers (addresses) differs from
	// run to run, so assertions on it would be flaky.
	"errors": true, "strings": true, "bytes": true, "strconv": true,
	"unicode": true, "unicode/utf8": true, "unicode/utf16": true, "math": true,
	"math/big": true, "math/bits": true, "encoding/hex": true, "encoding/base64": true,
	"encoding/json": true, "regexp": true, "sort": true, "slices": true, "maps": true,
	"container/list": true, "container/ring": true, "net/url": true, "time": true,
	"text/scanner": true, "go/token": true, "io": true, "bufio": true, "cmp": true,
}

// callable reports whether functions of package path may be called to
// build values.
func callable(path string) bool {
	return !isStandard(path) || safeStandard[path]
}

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// implementations produce values for an interface: the concrete types of
// the scanned packages that implement it (through their producers) and
// well-known standard-library providers.
func (c *Cluster) implementations(t types.Type, iface *types.Interface) []*Op {
	var out []*Op
	out = append(out, c.stdProviders(t)...)
	if IsError(t) {
		out = append(out, c.sentinels()...)
	}
	if iface.NumMethods() == 0 {
		// any: values of the types of the pool.
		return append(out, c.poolProducers(t)...)
	}
	for _, d := range c.declared() {
		if IsStub(d) && types.Implements(d, iface) {
			out = append(out, c.composite(d, d.Underlying().(*types.Struct), false))
		}
	}
	for _, p := range c.scan {
		if isInternalElsewhere(p.Path(), c.Caller.Types) {
			continue
		}
		// Of a standard-library package whose functions a test does not
		// call, only the function types: their values are the test's own
		// literals (http.HandlerFunc for the next handler of a
		// middleware), which call nothing of the package.
		funcTypesOnly := !callable(p.Path())
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || !tn.Exported() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
				continue
			}
			if _, isFunc := named.Underlying().(*types.Signature); funcTypesOnly && !isFunc {
				continue
			}
			for _, ct := range []types.Type{named, types.NewPointer(named)} {
				if types.Implements(ct, iface) {
					for _, op := range c.Producers(ct) {
						if op.Kind != OpNil {
							out = append(out, op)
						}
					}
					break
				}
			}
		}
	}
	return out
}

// stdProviders are the standard-library functions that provide values of
// common interfaces.
func (c *Cluster) stdProviders(t types.Type) []*Op {
	type provider struct {
		pkg, fn string
		params  []types.Type
		// keeps marks a value that keeps what the code did with it, which
		// the written test asserts through its concrete type.
		keeps bool
	}
	str := types.Typ[types.String]
	var provs []provider
	switch typeString(t) {
	case "error":
		provs = []provider{{"errors", "New", []types.Type{str}, false}}
	case "io.Reader":
		provs = []provider{{"strings", "NewReader", []types.Type{str}, false}}
	case "io.Writer":
		// A buffer: what the code writes stays in memory.
		provs = []provider{{"bytes", "NewBufferString", []types.Type{str}, true}}
	case "context.Context":
		provs = []provider{{"context", "Background", nil, false}}
	case "reflect.Value":
		// A function that takes a reflect.Value walks what it holds:
		// values of the pool's types, through reflect.ValueOf.
		provs = []provider{{"reflect", "ValueOf", []types.Type{types.Universe.Lookup("any").Type()}, false}}
	case "reflect.Type":
		provs = []provider{{"reflect", "TypeOf", []types.Type{types.Universe.Lookup("any").Type()}, false}}
	case "net/http.ResponseWriter":
		// A recorder: what a handler writes stays in memory.
		provs = []provider{{"net/http/httptest", "NewRecorder", nil, true}}
	}
	var out []*Op
	for _, p := range provs {
		op := &Op{Kind: OpCall, Name: p.pkg + "." + p.fn + " as " + typeString(t), Func: stdFunc(p.pkg, p.fn, p.params, t), Params: p.params, Results: []types.Type{t}}
		if p.keeps {
			op.Concrete = stdResult(p.pkg, p.fn)
		}
		out = append(out, c.register(op))
	}
	return out
}

func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Path() })
}

// stdFunc makes a stand-in *types.Func for a standard-library provider; the
// harness and the emitter only need its package and name.
func stdFunc(pkgPath, name string, params []types.Type, result types.Type) *types.Func {
	pkg := types.NewPackage(pkgPath, pkgPath[strings.LastIndex(pkgPath, "/")+1:])
	var vars []*types.Var
	for i, p := range params {
		vars = append(vars, types.NewParam(token.NoPos, pkg, "p"+strconv.Itoa(i), p))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), types.NewTuple(types.NewParam(token.NoPos, pkg, "", result)), false)
	return types.NewFunc(token.NoPos, pkg, name, sig)
}

// CallsStandard reports whether the op calls a function or method of the
// standard library.
func (o *Op) CallsStandard() bool {
	return o.Kind == OpCall && o.Func != nil && o.Func.Pkg() != nil && isStandard(o.Func.Pkg().Path())
}

// IsStdProvider reports whether a call op is a standard-library provider
// (strings.NewReader for io.Reader, ...), whose function is a stand-in.
func (o *Op) IsStdProvider() bool {
	return o.Kind == OpCall && strings.Contains(o.Name, " as ")
}

// Methods returns the calls of the exported methods of a value of type t
// declared outside R (R's own methods are API calls): the set-up a test can
// do on the objects it passes to R, like stocking an inventory. For a
// function type whose values run R's code, the call of the value comes
// first (see invokeOp).
func (c *Cluster) Methods(t types.Type) []*Op {
	if v := c.methods.At(t); v != nil {
		return v.([]*Op)
	}
	var out []*Op
	if op := c.invokeOp(t); op != nil && c.unbuildableInput(op, 0) == "" {
		out = append(out, op)
	}
	base := t
	if p, ok := t.(*types.Pointer); ok {
		base = p.Elem()
	}
	if n, ok := types.Unalias(base).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != c.Caller.Types &&
		!isInternalElsewhere(n.Obj().Pkg().Path(), c.Caller.Types) && n.TypeParams().Len() == 0 &&
		(!isStandard(n.Obj().Pkg().Path()) || c.servedByR(t)) {
		served := isStandard(n.Obj().Pkg().Path())
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			fn, ok := ms.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() || len(ms.At(i).Index()) > 1 {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if !types.Identical(sig.Recv().Type(), t) {
				// A value method called through a pointer: the op's
				// receiver is the pointer the test holds.
				sig = types.NewSignatureType(types.NewVar(sig.Recv().Pos(), sig.Recv().Pkg(), sig.Recv().Name(), t),
					nil, nil, sig.Params(), sig.Results(), sig.Variadic())
			}
			op := c.newCallOp(fn, sig, nil)
			if op != nil && c.unbuildableInput(op, 0) == "" {
				op.Served = served
				out = append(out, op)
			}
		}
	}
	out = c.runnableOps(out)
	c.methods.Set(t, out)
	return out
}

// servedByR reports whether the methods of t, a type of the standard
// library, are called on the values a test holds: t is a small
// interface (at most maxStubMethods methods) whose values R hands out (see
// handedOutByR). Such an interface is the kind a package implements to
// plug into the standard library (http.Handler, io.Reader, fmt.Stringer),
// so the implementation is R's code: the handler a middleware returns
// runs the middleware. A large one (reflect.Type) is the standard
// library's own abstraction, whose methods run only the standard library.
func (c *Cluster) servedByR(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	return ok && iface.NumMethods() > 0 && iface.NumMethods() <= maxStubMethods && c.handedOutByR(t)
}

// resultsOfR returns the result types of R's exported functions and
// methods, found once.
func (c *Cluster) resultsOfR() []types.Type {
	if c.rResults == nil {
		c.rResults = []types.Type{}
		for _, sig := range exportedSignatures(c.Caller.Types) {
			for i := 0; i < sig.Results().Len(); i++ {
				c.rResults = append(c.rResults, types.Unalias(sig.Results().At(i).Type()))
			}
		}
	}
	return c.rResults
}

// exportedSignatures returns the signatures of the exported functions of
// pkg and of the exported methods of its exported types, in the order of
// their names.
func exportedSignatures(pkg *types.Package) []*types.Signature {
	var out []*types.Signature
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() {
				out = append(out, obj.Type().(*types.Signature))
			}
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || !obj.Exported() || obj.IsAlias() || types.IsInterface(named) {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(named))
			for i := 0; i < ms.Len(); i++ {
				if m := ms.At(i).Obj(); m.Exported() {
					out = append(out, m.Type().(*types.Signature))
				}
			}
		}
	}
	return out
}

// FieldSets returns the field-set ops for a pointer-to-struct type: one
// per exported field whose type can be named and built (a field of an
// opaque type no op makes, such as a struct of another package whose zero
// value is not documented as usable, cannot be set).
func (c *Cluster) FieldSets(t types.Type) []*Op {
	if v := c.fieldSets.At(t); v != nil {
		return v.([]*Op)
	}
	var out []*Op
	if p, ok := t.(*types.Pointer); ok {
		if st, ok := p.Elem().Underlying().(*types.Struct); ok && nameable(p.Elem(), c.Caller.Types) {
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if f.Exported() && nameable(f.Type(), c.Caller.Types) && !c.deprecated(f) && c.Height(f.Type()) < unbuildable {
					out = append(out, c.register(&Op{Kind: OpFieldSet, Name: typeName(t) + "." + f.Name() + " =", Params: []types.Type{t, f.Type()}, Fields: []*types.Var{f}, Type: t}))
				}
			}
		}
	}
	out = c.runnableOps(out)
	c.fieldSets.Set(t, out)
	return out
}

// collectConstants gathers the literals of the non-test files of R and E.
func collectConstants(pkgs ...*ccfg.Package) Constants {
	var k Constants
	for _, p := range pkgs {
		for _, f := range p.Files {
			k.Add(f)
		}
	}
	return k
}

// Add adds the literals of a file, once each.
func (k *Constants) Add(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := n.(*ast.ImportSpec); ok {
			return false // an import path is no value of the program
		}
		lit, ok := n.(*ast.BasicLit)
		if !ok {
			return true
		}
		v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		switch lit.Kind {
		case token.INT, token.CHAR:
			i, exact := constant.Int64Val(v)
			if !exact {
				break
			}
			if !slices.Contains(k.Ints, i) {
				k.Ints = append(k.Ints, i)
			}
			if c := string(rune(i)); lit.Kind == token.CHAR && i >= ' ' && i <= '~' && !slices.Contains(k.Chars, c) {
				k.Chars = append(k.Chars, c)
			}
		case token.FLOAT:
			if f, _ := constant.Float64Val(v); !slices.Contains(k.Floats, f) {
				k.Floats = append(k.Floats, f)
			}
		case token.STRING:
			if v.Kind() == constant.String {
				if s := constant.StringVal(v); len(s) <= 64 && !slices.Contains(k.Strings, s) {
					k.Strings = append(k.Strings, s)
				}
			}
		}
		return true
	})
}

// SeedPackages lists the import paths, outside the standard library,
// of the packages whose functions the cluster calls besides R and E: their
// literals (a list of supported currencies, say) also make good values.
func (c *Cluster) SeedPackages() []string {
	seen := map[string]bool{c.Caller.Path: true, c.Callee.Path: true}
	var out []string
	for _, op := range c.Ops {
		if op.Kind != OpCall || op.IsStdProvider() || op.Func == nil || op.Func.Pkg() == nil {
			continue
		}
		p := op.Func.Pkg().Path()
		if !seen[p] && !isStandard(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Summary describes the cluster for reports.
func (c *Cluster) Summary() string {
	return fmt.Sprintf("%d API calls (%d covering), %d operations, %d constants",
		len(c.API), len(c.Covering), len(c.Ops), len(c.Constants.Ints)+len(c.Constants.Floats)+len(c.Constants.Strings))
}

// Analysis is the analysis of the pair the cluster was built for.
func (c *Cluster) Analysis() *couple.Analysis { return c.analysis }

// deprecated reports whether a function or field of the loaded program is
// deprecated (see Deprecated): tests neither call nor set it.
func (c *Cluster) deprecated(obj types.Object) bool {
	return Deprecated(c.analysis.Prog.Fset, obj)
}
