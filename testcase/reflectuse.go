package testcase

import (
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"

	"github.com/cling-go/cling/ccfg"
	"golang.org/x/tools/go/ssa"
)

// ParamUse says how the code under test treats a parameter, as its SSA
// form shows: one of interface type as a pointer to decode into, or as a
// function to call; a string as a path.
type ParamUse uint8

const (
	// UseTarget marks a decode target: the function that has p calls
	// Elem on reflect.ValueOf(p), or the code compares the kind of p's
	// value or type with reflect.Ptr (and at most one other kind); or the
	// function is named like a decoder (Unmarshal, Decode) and p is its
	// last parameter.
	UseTarget ParamUse = 1 << iota
	// UseFunc marks a function value: the code compares the kind of p's
	// value or type with reflect.Func (and at most one other kind) or
	// calls the methods only functions have (In, NumIn, Out, NumOut,
	// IsVariadic, Call); or the parameter is
	// named f, fn, fnc, fun, func..., callback, cb, handler, helper or
	// hook.
	UseFunc
	// UsePath marks a string parameter the code uses as the path of a
	// file or directory: R's or E's code passes it, directly, joined or
	// through calls of other functions of R and E, to a function of os,
	// io/ioutil, path/filepath or io/fs. The test then sometimes passes a
	// directory of its own (OpTempDir), so that code that writes files
	// writes them where nothing is left behind.
	UsePath
)

// reflection is what R's and E's code does with reflection: the struct
// tag keys and option words it reads, and how it treats parameters of
// interface type.
type reflection struct {
	pkgs map[*types.Package]bool
	tags tagging
	// asserted are the interfaces the code asserts values to (see
	// assertedInterfaces).
	asserted []types.Type
	uses     map[useKey]ParamUse
	running  map[useKey]bool
}

// stage is what a value being followed is: the interface value of the
// parameter itself, reflect.ValueOf of it, or its reflect.Type.
type stage uint8

const (
	stageIface stage = iota
	stageValue
	stageType
	// stageValueOf is reflect.ValueOf of the parameter in the function
	// that has the parameter: Elem on it says "a pointer is expected",
	// where a walker that gets a reflect.Value calls Elem on whatever
	// pointer it meets.
	stageValueOf
)

type useKey struct {
	fn  *ssa.Function
	idx int
	st  stage
}

// scanReflection reads the functions of R and E (funcs, sorted by
// position) for struct tags.
func scanReflection(pkgs []*types.Package, funcs []*ccfg.Function) *reflection {
	r := &reflection{pkgs: map[*types.Package]bool{}, uses: map[useKey]ParamUse{}, running: map[useKey]bool{}}
	for _, p := range pkgs {
		r.pkgs[p] = true
	}
	r.tags = scanTags(funcs)
	r.asserted = assertedInterfaces(funcs)
	return r
}

// tagWordRx are the option words tags may carry.
var tagWordRx = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// scanTags collects the tag keys: the string constants passed to
// reflect.StructTag's Get and Lookup, in source order. The option words
// are the string constants the functions that read tags (and the
// functions of the same package that call those) compare with == or !=,
// switch on, or test as a prefix with strings.HasPrefix: what a tag is
// checked against after it is split ("omitempty", "inline"); words only,
// not "true" and "false" (the values of boolean tags). Comparing with "-"
// marks the skip tag.
func scanTags(funcs []*ccfg.Function) tagging {
	var tg tagging
	readers := map[*ssa.Function]bool{}
	for _, f := range funcs {
		eachCall(f.SSA, func(c *ssa.CallCommon) {
			obj := calleeObject(c)
			if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "reflect" || (obj.Name() != "Get" && obj.Name() != "Lookup") {
				return
			}
			sig := obj.Type().(*types.Signature)
			if sig.Recv() == nil || !isReflectNamed(sig.Recv().Type(), "StructTag") || len(c.Args) < 2 {
				return
			}
			if s, ok := stringConst(c.Args[1]); ok && s != "" && !slices.Contains(tg.keys, s) {
				tg.keys = append(tg.keys, s)
			}
			readers[f.SSA] = true
		})
	}
	if len(readers) == 0 {
		return tg
	}
	for _, f := range funcs {
		reads := readers[f.SSA]
		eachCall(f.SSA, func(c *ssa.CallCommon) {
			if callee := c.StaticCallee(); callee != nil && readers[callee] {
				reads = true
			}
		})
		if !reads {
			continue
		}
		add := func(v ssa.Value) {
			s, ok := stringConst(v)
			switch {
			case !ok:
			case s == "-":
				tg.dash = true
			case s == "true" || s == "false":
				// The value of a boolean tag (multiline:"true"), not an
				// option.
			case tagWordRx.MatchString(s) && len(s) <= 20 && !slices.Contains(tg.keys, s) && !slices.Contains(tg.options, s):
				tg.options = append(tg.options, s)
			}
		}
		for _, b := range f.SSA.Blocks {
			for _, in := range b.Instrs {
				switch x := in.(type) {
				case *ssa.BinOp:
					if x.Op == token.EQL || x.Op == token.NEQ {
						add(x.X)
						add(x.Y)
					}
				case *ssa.Call:
					if obj := calleeObject(&x.Call); obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "strings" && obj.Name() == "HasPrefix" && len(x.Call.Args) == 2 {
						add(x.Call.Args[1])
					}
				}
			}
		}
	}
	return tg
}

// eachCall calls f on every call of fn (calls, go and defer statements).
func eachCall(fn *ssa.Function, f func(*ssa.CallCommon)) {
	if fn == nil {
		return
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(ssa.CallInstruction); ok {
				f(c.Common())
			}
		}
	}
}

// calleeObject is the function or method a call calls statically, or the
// interface method it invokes.
func calleeObject(c *ssa.CallCommon) types.Object {
	if c.IsInvoke() {
		return c.Method
	}
	if f := c.StaticCallee(); f != nil {
		if f.Origin() != nil {
			f = f.Origin()
		}
		return f.Object()
	}
	return nil
}

func stringConst(v ssa.Value) (string, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(k.Value), true
}

func isReflectNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == name
}

// paramUse says how fn (a function or method of R or E, receiver first)
// treats its parameter idx, following the parameter's value through
// conversions, reflect.ValueOf, reflect.TypeOf, Value.Type and calls of
// other functions of R and E.
func (r *reflection) paramUse(fn *ssa.Function, idx int) ParamUse {
	return r.use(fn, idx, stageIface)
}

func (r *reflection) use(fn *ssa.Function, idx int, st stage) ParamUse {
	if fn == nil || idx >= len(fn.Params) {
		return 0
	}
	key := useKey{fn, idx, st}
	if u, ok := r.uses[key]; ok || r.running[key] {
		return u
	}
	r.running[key] = true
	u := r.follow(fn.Params[idx], st)
	delete(r.running, key)
	r.uses[key] = u
	return u
}

// follow collects what the code does with v and the values derived from
// it.
func (r *reflection) follow(v ssa.Value, st stage) ParamUse {
	type item struct {
		v  ssa.Value
		st stage
	}
	var use ParamUse
	seen := map[item]bool{}
	queue := []item{{v, st}}
	push := func(v ssa.Value, st stage) {
		if it := (item{v, st}); !seen[it] {
			seen[it] = true
			queue = append(queue, it)
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		refs := it.v.Referrers()
		if refs == nil {
			continue
		}
		for _, in := range *refs {
			switch x := in.(type) {
			case *ssa.MakeInterface:
				push(x, it.st)
			case *ssa.ChangeInterface:
				push(x, it.st)
			case *ssa.ChangeType:
				push(x, it.st)
			case *ssa.Phi:
				push(x, it.st)
			case *ssa.Call:
				use |= r.call(x, it.v, it.st, push)
			}
		}
	}
	return use
}

// call handles a call that takes v (at stage st) as an argument or a
// receiver.
func (r *reflection) call(x *ssa.Call, v ssa.Value, st stage, push func(ssa.Value, stage)) ParamUse {
	c := &x.Call
	if c.IsInvoke() {
		// reflect.Type is an interface: its methods are invoked.
		if c.Value == v && st == stageType && isReflectNamed(c.Value.Type(), "Type") {
			return reflectMethod(c.Method.Name(), x, st, push)
		}
		return 0
	}
	obj := calleeObject(c)
	if obj == nil || obj.Pkg() == nil {
		return 0
	}
	if obj.Pkg().Path() == "reflect" {
		sig := obj.Type().(*types.Signature)
		switch {
		case sig.Recv() == nil && st == stageIface && len(c.Args) == 1 && c.Args[0] == v:
			switch obj.Name() {
			case "ValueOf":
				push(x, stageValueOf)
			case "TypeOf":
				push(x, stageType)
			}
		case sig.Recv() != nil && len(c.Args) > 0 && c.Args[0] == v:
			return reflectMethod(obj.Name(), x, st, push)
		}
		return 0
	}
	callee := c.StaticCallee()
	if callee == nil || !r.pkgs[obj.Pkg()] {
		return 0
	}
	if st == stageValueOf {
		st = stageValue
	}
	var use ParamUse
	for j, a := range c.Args {
		if a == v {
			use |= r.use(callee, j, st)
		}
	}
	return use
}

// reflectMethod handles a call of a method of reflect.Value or
// reflect.Type on a value derived from the parameter.
func reflectMethod(name string, x *ssa.Call, st stage, push func(ssa.Value, stage)) ParamUse {
	switch name {
	case "Kind":
		return kindUse(x)
	case "Elem":
		if st == stageValueOf {
			return UseTarget
		}
	case "Type":
		if st == stageValue || st == stageValueOf {
			push(x, stageType)
		}
	case "In", "NumIn", "Out", "NumOut", "IsVariadic", "Call", "CallSlice":
		return UseFunc
	}
	return 0
}

// kindUse reads what the result of a Kind call is compared with: with
// reflect.Ptr (a decode target) or reflect.Func (a function), and at most
// one other kind. A switch that dispatches on many kinds is a walker's,
// and says nothing of what the parameter should be.
func kindUse(kind ssa.Value) ParamUse {
	var use ParamUse
	refs := kind.Referrers()
	if refs == nil {
		return 0
	}
	kinds := 0
	for _, in := range *refs {
		b, ok := in.(*ssa.BinOp)
		if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
			continue
		}
		other := b.X
		if other == kind {
			other = b.Y
		}
		k, ok := other.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
			continue
		}
		n, _ := constant.Int64Val(k.Value)
		kinds++
		switch reflect.Kind(n) {
		case reflect.Pointer:
			use |= UseTarget
		case reflect.Func:
			use |= UseFunc
		}
	}
	if kinds > 2 {
		return 0
	}
	return use
}

// funcParamRx are parameter names that say "a function".
var funcParamRx = regexp.MustCompile(`^(?i:f|fn|fnc|fun|func.*|.*func|callback|cb|handler|helper|hook)$`)

// decoderRx are function names that say "decodes into its last
// parameter".
var decoderRx = regexp.MustCompile(`^(?i:unmarshal.*|decode.*)$`)

// nameUse is what a parameter's and its function's names say: a decode
// target, or a function.
func nameUse(fn *types.Func, sig *types.Signature, idx int) ParamUse {
	if idx < 0 || idx >= sig.Params().Len() {
		return 0
	}
	var use ParamUse
	if decoderRx.MatchString(fn.Name()) && idx == sig.Params().Len()-1 {
		use |= UseTarget
	}
	if funcParamRx.MatchString(sig.Params().At(idx).Name()) {
		use |= UseFunc
	}
	return use
}
