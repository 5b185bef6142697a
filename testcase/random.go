package testcase

import (
	"go/types"
	"math"
	"math/rand"
	"slices"
	"strconv"
)

// Config are the parameters of test generation.
type Config struct {
	// MaxCalls bounds the API calls of a random test.
	MaxCalls int
	// MaxLen bounds the statements of a test during the search.
	MaxLen int
	// ObjectReuse is the probability of passing an existing value of a
	// non-basic type rather than building a new one; PrimitiveReuse the
	// same for basic types.
	ObjectReuse, PrimitiveReuse float64
	// ConstantPool is the probability of drawing a literal from the
	// constants of R and E; ConstantInsert the probability that a string
	// mutation inserts one of those constants rather than a character,
	// and that a character it inserts or replaces is one of their
	// character literals rather than one of the alphabet.
	ConstantPool, ConstantInsert float64
	// NilProbability is the probability of nil where other values exist.
	NilProbability float64
	// MaxInt bounds random integers; MaxString bounds string lengths;
	// MaxCollection bounds slice and map sizes.
	MaxInt, MaxString, MaxCollection int
	// ExtremeInts is the probability that a random integer is the least
	// or greatest value of its type: the values that overflow arithmetic,
	// which small random numbers never reach.
	ExtremeInts float64
	// CoveringPriority is the probability that an inserted API call is a
	// call of a covering function.
	CoveringPriority float64
	// SetUpCalls is the probability that a call of a random test is a
	// method of a value the test built (outside R) rather than R's API.
	SetUpCalls float64
	// CloneUses is the probability that an insertion repeats the calls
	// that take a literal, with a variant of the literal.
	CloneUses float64
	// ConstructorPreference is the probability of building a value with a
	// constructor when there is one, rather than a composite literal.
	ConstructorPreference float64
	// UseHint is the probability that an argument the code under test
	// treats as a decode target gets one (&v), and one it treats as a
	// function gets a function literal of the pool.
	UseHint float64
	// PreferPool is the probability that a value for an empty interface
	// is of a type the search prefers (Generator.Prefer), when the pool
	// has one.
	PreferPool float64
	// Retype is the probability that a change of a value passed only as
	// an empty interface replaces it by a value of another type of the
	// pool, rather than changing the value.
	Retype float64
	// ShapeShare is the probability that a type drawn uniformly from
	// the pool is one of the other kinds and shapes (channels, variadic
	// functions, maps keyed by other kinds; see otherShapes) rather than
	// one of the rest: code that tells those apart gets them, and code
	// that does not is not drowned in them.
	ShapeShare float64
}

// DefaultConfig holds EvoSuite's and Pynguin's usual values, with shorter
// tests: integration tests read better short.
func DefaultConfig() Config {
	return Config{
		MaxCalls:         6,
		MaxLen:           40,
		ObjectReuse:      0.9,
		PrimitiveReuse:   0.3,
		ConstantPool:     0.5,
		ConstantInsert:   0.3,
		NilProbability:   0.1,
		MaxInt:           2048,
		MaxString:        20,
		MaxCollection:    4,
		ExtremeInts:      0.02,
		CoveringPriority: 0.6,
		SetUpCalls:       0.3,
		CloneUses:        0.1,

		ConstructorPreference: 0.8,
		UseHint:               0.7,
		PreferPool:            0.5,
		Retype:                0.3,
		ShapeShare:            0.1,
	}
}

// Generator builds random tests and values from a cluster. Its randomness
// is one seeded source, so the same seed gives the same tests.
type Generator struct {
	C   *Cluster
	Cfg Config
	Rnd *rand.Rand
	// Focus, when not empty, takes the place of the cluster's covering
	// calls wherever a test gets a call of R's API (the covering call
	// every random test has, and those PickAPI picks), calls of R's API
	// that are not covering calls staying available: the whole-suite
	// search with an archive narrows them to the covering functions
	// whose coupled branches are not all covered yet.
	Focus []*Op
	// Prefer, when set, says which types of the pool the values drawn for
	// an empty interface should have (see Cluster.Preference); the search
	// updates it as goals get covered.
	Prefer *Preference
	// poolAt caches, per depth, the pool types buildable at that depth,
	// ready to draw from; targets and funcs, the pool's decode targets'
	// types and function types.
	poolAt         map[int]*typeChoice
	targets, funcs *typeChoice
}

// NewGenerator returns a generator with its own seeded random source.
func NewGenerator(c *Cluster, cfg Config, seed int64) *Generator {
	return &Generator{C: c, Cfg: cfg, Rnd: rand.New(rand.NewSource(seed))}
}

// RandomTest builds a test that calls at least one covering function
// first, then further calls of R's API, covering functions preferred
// (Derakhshanfar et al. 2022, section 3.2.3). It returns nil if the
// cluster has no covering call.
func (g *Generator) RandomTest() *Test {
	if len(g.C.Covering) == 0 {
		return nil
	}
	t := &Test{}
	n := 1 + g.Rnd.Intn(g.Cfg.MaxCalls)
	// The guaranteed covering call comes at a random place, often late, so
	// that the calls before it can set up its receiver and arguments.
	at := n - 1 - g.Rnd.Intn(1+g.Rnd.Intn(n))
	for i := 0; i < n && len(t.Stmts) < g.Cfg.MaxLen; i++ {
		switch {
		case i == at:
			g.InsertCall(t, g.pickCovering(), len(t.Stmts))
		case g.Rnd.Float64() < g.Cfg.SetUpCalls && g.InsertMethodCall(t, len(t.Stmts)):
		default:
			g.InsertCall(t, g.PickAPI(), len(t.Stmts))
		}
	}
	return t
}

// InsertMethodCall calls, at position pos, an exported method (declared
// outside R) of a value the test already has before pos. It reports
// whether there was such a value.
func (g *Generator) InsertMethodCall(t *Test, pos int) bool {
	type cand struct {
		ref Ref
		ops []*Op
	}
	var cands []cand
	for i := 0; i < pos && i < t.Len(); i++ {
		for r, out := range t.Stmts[i].Op.Outputs() {
			ops := g.C.Methods(out)
			if t.Stmts[i].Op.Kind != OpCall && slices.ContainsFunc(ops, (*Op).callsHandedOut) {
				// The test's own function literal, stub or nil: calling
				// it runs none of R's code.
				ops = slices.DeleteFunc(slices.Clone(ops), (*Op).callsHandedOut)
			}
			if len(ops) > 0 {
				cands = append(cands, cand{Ref{Stmt: i, Result: r}, ops})
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	c := cands[g.Rnd.Intn(len(cands))]
	op := c.ops[g.Rnd.Intn(len(c.ops))]
	ins := &inserter{g: g, t: t, pos: pos}
	args := make([]Ref, len(op.Params))
	args[0] = c.ref
	for i := 1; i < len(op.Params); i++ {
		if op.Variadic && i == len(op.Params)-1 && g.Rnd.Float64() < 0.5 {
			args[i] = Omitted
			continue
		}
		args[i] = ins.value(op.Params[i], 1)
	}
	ins.unfeed(op, args, 0)
	ins.add(Stmt{Op: op, Args: args})
	return true
}

// PickAPI chooses an API call, covering functions with priority; with a
// Focus, covering functions outside it are left out.
func (g *Generator) PickAPI() *Op {
	if len(g.C.Covering) > 0 && g.Rnd.Float64() < g.Cfg.CoveringPriority {
		return g.pickCovering()
	}
	api := g.C.API
	if len(g.Focus) > 0 {
		api = slices.DeleteFunc(slices.Clone(api), func(op *Op) bool { return op.Covering && !slices.Contains(g.Focus, op) })
	}
	return api[g.Rnd.Intn(len(api))]
}

// pickCovering chooses a covering call, among Focus if it is set.
func (g *Generator) pickCovering() *Op {
	ops := g.C.Covering
	if len(g.Focus) > 0 {
		ops = g.Focus
	}
	return ops[g.Rnd.Intn(len(ops))]
}

// InsertCall inserts a statement applying op at position pos, preceded by
// the statements that build its inputs; it returns the index of the op's
// statement.
func (g *Generator) InsertCall(t *Test, op *Op, pos int) int {
	ins := &inserter{g: g, t: t, pos: pos}
	idx := ins.apply(op, 0)
	return idx
}

// BuildValue inserts at position pos of t the statements that build a
// value of type typ, as random generation builds an argument: reusing a
// value before pos with the reuse probabilities of the configuration,
// else applying a producer of the cluster, one level below the top. It
// returns a reference to the value and how many statements it inserted:
// the statements from pos on moved down by that many.
func (g *Generator) BuildValue(t *Test, pos int, typ types.Type) (Ref, int) {
	ins := &inserter{g: g, t: t, pos: pos}
	ref := ins.value(typ, 1)
	return ref, ins.pos - pos
}

// inserter inserts statements at a position of a test, shifting the
// references of the statements after it.
type inserter struct {
	g   *Generator
	t   *Test
	pos int
	// fresh builds every value anew, reusing none of the test's (see
	// unfeed).
	fresh bool
}

// add inserts s at the insertion point and returns its index.
func (in *inserter) add(s Stmt) int {
	t := in.t
	at := in.pos
	t.Stmts = append(t.Stmts, Stmt{})
	copy(t.Stmts[at+1:], t.Stmts[at:])
	t.Stmts[at] = s
	for j := at + 1; j < len(t.Stmts); j++ {
		for k, a := range t.Stmts[j].Args {
			if !a.IsOmitted() && a.Stmt >= at {
				t.Stmts[j].Args[k].Stmt++
			}
		}
	}
	in.pos++
	return at
}

// apply builds op's inputs and inserts op.
func (in *inserter) apply(op *Op, depth int) int {
	inputs := op.Inputs()
	args := make([]Ref, len(inputs))
	for i, typ := range inputs {
		if op.callsHandedOut() && i == 0 {
			args[i] = in.invoked(typ, depth+1)
			continue
		}
		if op.Method && i == 0 {
			args[i] = in.receiver(typ, depth+1)
			continue
		}
		switch {
		case op.Kind == OpComposite:
			if in.g.C.Height(typ) > in.g.C.MaxDepth-depth-1 || in.g.Rnd.Float64() < 0.3 {
				args[i] = Omitted
				continue
			}
		case op.Kind == OpCall && op.Variadic && i == len(inputs)-1:
			if in.g.Rnd.Float64() < 0.5 || in.g.C.Height(typ) > in.g.C.MaxDepth-depth-1 {
				args[i] = Omitted
				continue
			}
		}
		args[i] = in.valueFor(typ, depth+1, op.Use(i))
	}
	in.unfeed(op, args, depth)
	s := Stmt{Op: op, Args: args}
	switch op.Kind {
	case OpPrim:
		s.Value = in.g.literal(op.Type)
	case OpFunc:
		s.Value = in.g.funcLit(op)
	}
	return in.add(s)
}

// maxStreamRetries bounds the new values drawn for an argument that
// would make a call read what it writes (see feedingPair).
const maxStreamRetries = 3

// unfeed builds anew, for a call of op with args that would read what it
// writes (see feedingPair), one of the two arguments (not its receiver),
// a few times at most: a value reusing none of the test's (the test's
// other streams would most often be reused again).
func (in *inserter) unfeed(op *Op, args []Ref, depth int) {
	for try := 0; try < maxStreamRetries; try++ {
		r, w, ok := feedingPair(in.t, op, args)
		if !ok {
			return
		}
		k := w
		if op.Method && k == 0 {
			k = r
		}
		fresh := in.fresh
		in.fresh = true
		args[k] = in.valueFor(op.Inputs()[k], depth+1, op.Use(k))
		in.fresh = fresh
	}
}

// value returns a reference to a value of type typ: an existing one, or a
// newly built one.
func (in *inserter) value(typ types.Type, depth int) Ref {
	return in.valueFor(typ, depth, 0)
}

// valueFor returns a value of type typ for an argument the code under
// test uses as use says: for an empty interface treated as a decode
// target, most often a fresh &v; treated as a function, a function
// literal of the pool.
func (in *inserter) valueFor(typ types.Type, depth int, use ParamUse) Ref {
	if use&UsePath != 0 && in.g.Rnd.Float64() < in.g.Cfg.UseHint {
		paths := in.g.C.TempPaths()
		if op := paths[in.g.Rnd.Intn(len(paths))]; in.g.C.runnable(op) {
			return Ref{Stmt: in.apply(op, depth)}
		}
	}
	if use&(UseTarget|UseFunc) != 0 && isEmptyInterface(typ) {
		if op := in.g.hinted(use, depth); op != nil {
			return Ref{Stmt: in.apply(op, depth)}
		}
	}
	if r, ok := in.reuse(typ); ok {
		return r
	}
	op := in.g.producer(typ, depth)
	if op == nil {
		// Nothing fits the depth bound: reuse anything assignable.
		if r, ok := in.any(typ); ok {
			return r
		}
		op = in.g.shallowest(typ)
	}
	switch op.Kind {
	case OpSlice, OpMap, OpChan:
		return Ref{Stmt: in.collection(op, depth)}
	}
	return Ref{Stmt: in.apply(op, depth), Result: 0}
}

// receiver returns a non-nil value for a method's receiver.
func (in *inserter) receiver(typ types.Type, depth int) Ref {
	if r, ok := in.reuse(typ); ok {
		return r
	}
	op := in.g.producerNonNil(typ, depth)
	if op == nil {
		return in.value(typ, depth)
	}
	return Ref{Stmt: in.apply(op, depth), Result: 0}
}

// invoked returns the value whose call an op that callsHandedOut makes:
// one the test holds, or one a call returns, such as R's middleware
// constructor; a literal of the test's own would run none of R's code.
func (in *inserter) invoked(typ types.Type, depth int) Ref {
	if r, ok := in.reuse(typ); ok && in.t.Stmts[r.Stmt].Op.Kind == OpCall {
		return r
	}
	var calls []*Op
	for _, op := range in.g.C.Producers(typ) {
		if op.Kind == OpCall && in.g.fits(op, depth) {
			calls = append(calls, op)
		}
	}
	if len(calls) == 0 {
		return in.receiver(typ, depth)
	}
	return Ref{Stmt: in.apply(calls[in.g.Rnd.Intn(len(calls))], depth)}
}

// collection inserts a slice or map with a few elements.
func (in *inserter) collection(op *Op, depth int) int {
	key, elem := op.ElemTypes()
	n := 0
	if in.g.C.Height(elem) <= in.g.C.MaxDepth-depth-1 && (key == nil || in.g.C.Height(key) <= in.g.C.MaxDepth-depth-1) {
		n = in.g.Rnd.Intn(in.g.Cfg.MaxCollection + 1)
	}
	if ch, ok := op.Type.Underlying().(*types.Chan); ok && ch.Dir() == types.SendOnly {
		n = 0
	}
	var args []Ref
	for i := 0; i < n; i++ {
		if key != nil {
			args = append(args, in.value(key, depth+1))
		}
		args = append(args, in.value(elem, depth+1))
	}
	return in.add(Stmt{Op: op, Args: args})
}

// reuse picks an existing value of an assignable type, with the reuse
// probability of its kind.
func (in *inserter) reuse(typ types.Type) (Ref, bool) {
	if in.fresh {
		return Ref{}, false
	}
	p := in.g.Cfg.ObjectReuse
	switch typ.Underlying().(type) {
	case *types.Basic, *types.Chan:
		// Channels are consumed: passing one twice makes two receives race.
		p = in.g.Cfg.PrimitiveReuse
	}
	if isEmptyInterface(typ) && len(in.g.C.Pool) > 0 {
		// Any value fits: reusing as often as objects are reused would
		// pass the same value everywhere, where the pool offers others.
		p = in.g.Cfg.PrimitiveReuse
	}
	if in.g.Rnd.Float64() >= p {
		return Ref{}, false
	}
	return in.any(typ)
}

// any picks a random existing value assignable to typ.
func (in *inserter) any(typ types.Type) (Ref, bool) {
	var cands []Ref
	for i := 0; i < in.pos; i++ {
		for r, out := range in.t.Stmts[i].Op.Outputs() {
			if in.g.C.assignable(out, typ) {
				cands = append(cands, Ref{Stmt: i, Result: r})
			}
		}
	}
	if len(cands) == 0 {
		return Ref{}, false
	}
	return cands[in.g.Rnd.Intn(len(cands))], true
}

// producerNonNil chooses a producer of typ that is not nil.
func (g *Generator) producerNonNil(typ types.Type, depth int) *Op {
	for i := 0; i < 8; i++ {
		if op := g.producer(typ, depth); op != nil && op.Kind != OpNil {
			return op
		}
	}
	return nil
}

// fits reports whether the inputs op needs can be built within the
// depth bound, for a value at depth: those of composites, collections
// and variadic parameters may be left out.
func (g *Generator) fits(op *Op, depth int) bool {
	h := 0
	for i, p := range op.Inputs() {
		if op.Kind == OpComposite || op.Kind == OpSlice || op.Kind == OpMap || op.Kind == OpChan || (op.Variadic && i == len(op.Inputs())-1) {
			continue
		}
		h = max(h, g.C.Height(p)+1)
	}
	return h <= g.C.MaxDepth-depth
}

// producer chooses an op that builds a value of typ within the depth
// bound; nil is chosen only with NilProbability when something else fits,
// and constructors are preferred to composite literals.
func (g *Generator) producer(typ types.Type, depth int) *Op {
	if isEmptyInterface(typ) && len(g.C.Pool) > 0 {
		return g.poolProducer(depth)
	}
	var nils, others, calls []*Op
	for _, op := range g.C.Producers(typ) {
		if op.Kind == OpNil {
			nils = append(nils, op)
			continue
		}
		if g.fits(op, depth) {
			others = append(others, op)
			if op.Kind == OpCall {
				calls = append(calls, op)
			}
		}
	}
	if len(others) == 0 || (len(nils) > 0 && g.Rnd.Float64() < g.Cfg.NilProbability) {
		if len(nils) > 0 {
			return nils[0]
		}
		return nil
	}
	if len(calls) > 0 && len(calls) < len(others) && g.Rnd.Float64() < g.Cfg.ConstructorPreference {
		return calls[g.Rnd.Intn(len(calls))]
	}
	return others[g.Rnd.Intn(len(others))]
}

// shallowest is the producer of typ needing the least nesting.
func (g *Generator) shallowest(typ types.Type) *Op {
	var best *Op
	bestH := unbuildable + 1
	for _, op := range g.C.Producers(typ) {
		h := 0
		for _, p := range op.Inputs() {
			h = max(h, g.C.Height(p))
		}
		if op.Kind == OpNil || op.Kind == OpComposite || op.Kind == OpSlice {
			h = 0
		}
		if h < bestH {
			best, bestH = op, h
		}
	}
	return best
}

// literal draws a value for a basic type: from the constant pool or at
// random, within the type's range.
func (g *Generator) literal(t types.Type) any {
	if IsBytes(t) {
		return g.literal(types.Typ[types.String])
	}
	b := t.Underlying().(*types.Basic)
	info := b.Info()
	k := g.C.Constants
	switch {
	case info&types.IsBoolean != 0:
		return g.Rnd.Intn(2) == 1
	case info&types.IsString != 0:
		if len(k.Strings) > 0 && g.Rnd.Float64() < g.Cfg.ConstantPool {
			return k.Strings[g.Rnd.Intn(len(k.Strings))]
		}
		return g.randomString()
	case info&types.IsFloat != 0:
		if len(k.Floats) > 0 && g.Rnd.Float64() < g.Cfg.ConstantPool {
			return k.Floats[g.Rnd.Intn(len(k.Floats))]
		}
		if len(k.Ints) > 0 && g.Rnd.Float64() < g.Cfg.ConstantPool {
			return float64(k.Ints[g.Rnd.Intn(len(k.Ints))])
		}
		return math.Round((g.Rnd.Float64()*2-1)*float64(g.Cfg.MaxInt)*100) / 100
	case info&types.IsUnsigned != 0:
		if len(k.Ints) > 0 && g.Rnd.Float64() < g.Cfg.ConstantPool {
			if v := k.Ints[g.Rnd.Intn(len(k.Ints))]; v >= 0 {
				return clampUint(uint64(v), b.Kind())
			}
		}
		if g.Rnd.Float64() < g.Cfg.ExtremeInts {
			return clampUint(math.MaxUint64, b.Kind())
		}
		return clampUint(uint64(g.randomInt(false)), b.Kind())
	case info&types.IsInteger != 0:
		if len(k.Ints) > 0 && g.Rnd.Float64() < g.Cfg.ConstantPool {
			return clampInt(k.Ints[g.Rnd.Intn(len(k.Ints))], b.Kind())
		}
		if g.Rnd.Float64() < g.Cfg.ExtremeInts {
			return g.intLimit(b.Kind())
		}
		return clampInt(g.randomInt(true), b.Kind())
	}
	return int64(0)
}

// intLimit is the greatest or the least value of a signed integer kind
// (package emit names it by its constant in a written test).
func (g *Generator) intLimit(k types.BasicKind) int64 {
	if g.Rnd.Intn(2) == 0 {
		return clampInt(math.MinInt64, k)
	}
	return clampInt(math.MaxInt64, k)
}

// randomInt favours small numbers: half of the draws lie in [-10, 10].
func (g *Generator) randomInt(signed bool) int64 {
	var v int64
	if g.Rnd.Intn(2) == 0 {
		v = int64(g.Rnd.Intn(21) - 10)
	} else {
		v = int64(g.Rnd.Intn(2*g.Cfg.MaxInt+1) - g.Cfg.MaxInt)
	}
	if !signed && v < 0 {
		v = -v
	}
	return v
}

// stringAlphabet is what random strings are made of: letters, digits,
// punctuation, and the white space and backslash that lexers treat
// specially (escapes, line ends, comments).
const stringAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,:;+*/=()[]{}<>!?\"'#%&@\\\t\n\r"

func (g *Generator) randomString() string {
	if g.Rnd.Float64() < 0.15 {
		// A number in text: many APIs parse them.
		if g.Rnd.Intn(2) == 0 {
			return g.floatText()
		}
		return strconv.FormatInt(g.randomInt(true), 10)
	}
	n := g.Rnd.Intn(g.Cfg.MaxString + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = stringAlphabet[g.Rnd.Intn(len(stringAlphabet))]
	}
	return string(b)
}

// floatText is a floating-point number in text, with up to 4 significant
// digits: half of them of everyday magnitude ("0.0125", "3.5e+06"), half
// anywhere in float64's range ("-7.2e-291", "1.8e+308"), whose exponents
// a parser checks and a string mutation can push past the range.
func (g *Generator) floatText() string {
	exp := g.Rnd.Intn(10) - 3
	if g.Rnd.Intn(2) == 0 {
		exp = g.Rnd.Intn(307+307+1) - 307
	}
	v := (0.1 + 0.9*g.Rnd.Float64()) * math.Pow(10, float64(exp+1))
	if g.Rnd.Intn(2) == 0 {
		v = -v
	}
	return strconv.FormatFloat(v, 'g', 1+g.Rnd.Intn(4), 64)
}

func clampInt(v int64, k types.BasicKind) int64 {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch k {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	}
	return max(lo, min(hi, v))
}

func clampUint(v uint64, k types.BasicKind) uint64 {
	hi := uint64(math.MaxUint64)
	switch k {
	case types.Uint8:
		hi = math.MaxUint8
	case types.Uint16:
		hi = math.MaxUint16
	case types.Uint32:
		hi = math.MaxUint32
	}
	return min(hi, v)
}
