package fault

import (
	"fmt"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"golang.org/x/tools/go/ssa"
)

// Frame is one frame of a stack.
type Frame struct {
	// Func is the function as the runtime names it
	// (example.com/m/p.(*T).M, example.com/m/p.F.func1).
	Func string
	File string
	Line int
}

// Pos is the frame's file:line.
func (f Frame) Pos() string { return f.File + ":" + strconv.Itoa(f.Line) }

// ParseStack reads a stack as the executor reports it
// (harness.Result.Stack): one "function file:line" per line, innermost
// first.
func ParseStack(stack string) []Frame {
	var out []Frame
	for _, line := range strings.Split(stack, "\n") {
		fn, loc, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		colon := strings.LastIndexByte(loc, ':')
		if colon < 0 {
			continue
		}
		n, err := strconv.Atoi(loc[colon+1:])
		if err != nil {
			continue
		}
		out = append(out, Frame{Func: fn, File: loc[:colon], Line: n})
	}
	return out
}

// Locator places stacks in the code of one analysed pair: which frames
// are the module's code, and which call site of R a stack went through.
type Locator struct {
	a *couple.Analysis
	// modules are the paths of the modules of R and E.
	modules []string
	// sitesAt maps a call site's file:line to the sites on that line;
	// sitesTo maps a function of E, by its runtime name, to the sites that
	// call it.
	sitesAt map[string][]*couple.CallSite
	sitesTo map[string][]*couple.CallSite
}

// NewLocator prepares a locator for a pair.
func NewLocator(a *couple.Analysis) *Locator {
	l := &Locator{a: a, sitesAt: map[string][]*couple.CallSite{}, sitesTo: map[string][]*couple.CallSite{}}
	for _, p := range []*ccfg.Package{a.Caller.Pkg, a.Callee.Pkg} {
		l.modules = append(l.modules, p.Path)
		if p.Module != nil && p.Module.Path != "" {
			l.modules = append(l.modules, p.Module.Path)
		}
	}
	for _, s := range a.Sites {
		pos := a.Prog.Fset.Position(s.Pos)
		key := pos.Filename + ":" + strconv.Itoa(pos.Line)
		l.sitesAt[key] = append(l.sitesAt[key], s)
		for _, t := range s.Targets {
			name := RuntimeName(t.SSA)
			l.sitesTo[name] = append(l.sitesTo[name], s)
		}
	}
	return l
}

// InModule reports whether a function, by its runtime name, belongs to
// the code of R's or E's module (the probes' runtime excluded).
func (l *Locator) InModule(fn string) bool {
	pkg := packageOf(fn)
	if strings.HasPrefix(pkg[strings.LastIndexByte(pkg, '/')+1:], "clingprobe_rt") {
		return false
	}
	for _, m := range l.modules {
		if pkg == m || strings.HasPrefix(pkg, m+"/") {
			return true
		}
	}
	return false
}

// Innermost returns the innermost frame of the module's code, and false
// if the stack has none.
func (l *Locator) Innermost(frames []Frame) (Frame, bool) {
	for _, f := range frames {
		if l.InModule(f.Func) {
			return f, true
		}
	}
	return Frame{}, false
}

// Recursion returns, for the stack of a goroutine that ran out of stack,
// the innermost frame of the function of the module's code that recurs
// most often in it (closures counted as the function they belong to;
// ties to the one whose innermost frame is outermost, the entry of the
// cycle), and the index of its outermost frame: where the stack ran out
// within the cycle varies from run to run, so that the innermost frame
// (a function the cycle calls, at any of its lines) would make one
// runaway recursion many faults. With no function of the module's code
// recurring it is Innermost, and the index -1.
func (l *Locator) Recursion(frames []Frame) (fr Frame, outer int, ok bool) {
	// frames of a function: how many, the innermost and the outermost.
	type seen struct{ n, first, last int }
	byFunc := map[string]*seen{}
	for i, f := range frames {
		if !l.InModule(f.Func) {
			continue
		}
		fn := enclosing(f.Func)
		if byFunc[fn] == nil {
			byFunc[fn] = &seen{first: i}
		}
		byFunc[fn].n++
		byFunc[fn].last = i
	}
	var best *seen
	for _, s := range byFunc {
		if s.n >= 2 && (best == nil || s.n > best.n || s.n == best.n && s.first > best.first) {
			best = s
		}
	}
	if best == nil {
		fr, ok = l.Innermost(frames)
		return fr, -1, ok
	}
	return frames[best.first], best.last, true
}

// Site returns the call site of R a stack went through: the innermost
// frame of R on the line of one of its call sites (the one whose callee
// the next frame inward runs, if several share the line). For the stack
// of a goroutine started inside E (spawned: not the test's own
// goroutine), which went through none, it is the one site that calls the
// function the stack's outermost frame of E belongs to, if just one does.
// It returns nil if there is none: the test's own goroutine reached E
// without R when it called E itself.
func (l *Locator) Site(frames []Frame, spawned bool) *couple.CallSite {
	for i, f := range frames {
		sites := l.sitesAt[f.Pos()]
		if len(sites) == 0 || packageOf(f.Func) != l.a.Caller.Pkg.Path {
			continue
		}
		if i > 0 && len(sites) > 1 {
			inner := enclosing(frames[i-1].Func)
			for _, s := range sites {
				for _, t := range s.Targets {
					if RuntimeName(t.SSA) == inner {
						return s
					}
				}
			}
		}
		return sites[0]
	}
	if !spawned {
		return nil
	}
	for i := len(frames) - 1; i >= 0; i-- {
		if packageOf(frames[i].Func) != l.a.Callee.Pkg.Path {
			continue
		}
		if sites := l.sitesTo[enclosing(frames[i].Func)]; len(sites) == 1 {
			return sites[0]
		}
		break
	}
	return nil
}

// SiteName names a call site in reports: its position relative to the
// module, as cling analyze shows it.
func (l *Locator) SiteName(s *couple.CallSite) string {
	if s == nil {
		return ""
	}
	return l.a.Prog.Pos(s.Pos)
}

// RelPos is a frame's position relative to the module, as reports show
// positions.
func (l *Locator) RelPos(f Frame) string {
	return fmt.Sprintf("%s:%d", filepath.ToSlash(l.a.Prog.RelFile(f.File)), f.Line)
}

// RuntimeName is the name the runtime gives an SSA function in stacks:
// example.com/m/p.F, example.com/m/p.(*T).M, example.com/m/p.T.M.
func RuntimeName(f *ssa.Function) string {
	if f == nil || f.Pkg == nil {
		return ""
	}
	path := f.Pkg.Pkg.Path()
	recv := f.Signature.Recv()
	if recv == nil {
		return path + "." + f.Name()
	}
	t := recv.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	name := types.TypeString(t, func(*types.Package) string { return "" })
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] + "[...]"
	}
	if ptr {
		return fmt.Sprintf("%s.(*%s).%s", path, name, f.Name())
	}
	return fmt.Sprintf("%s.%s.%s", path, name, f.Name())
}

// enclosing is the function a closure (F.func1, F.func1.2, F.gowrap1)
// or the body of a range over a function (F-range1, F-range1-range2)
// belongs to, by runtime names; other functions are their own.
func enclosing(fn string) string {
	for {
		fn = trimRangeBodies(fn)
		dot := strings.LastIndexByte(fn, '.')
		if dot < 0 || dot < strings.LastIndexByte(fn, '/') {
			return fn
		}
		last := fn[dot+1:]
		if !isClosureName(last) {
			return fn
		}
		fn = fn[:dot]
	}
}

// trimRangeBodies strips the suffixes -rangeN that the compiler gives
// the bodies of loops that range over functions.
func trimRangeBodies(fn string) string {
	for {
		i := strings.LastIndex(fn, "-range")
		if i < 0 || i < strings.LastIndexByte(fn, '.') {
			return fn
		}
		if _, err := strconv.Atoi(fn[i+len("-range"):]); err != nil {
			return fn
		}
		fn = fn[:i]
	}
}

// isClosureName reports whether the last element of a runtime name is
// that of a closure: func1, gowrap2, deferwrap1, or a number.
func isClosureName(s string) bool {
	for _, p := range []string{"func", "gowrap", "deferwrap"} {
		s = strings.TrimPrefix(s, p)
	}
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// packageOf returns the import path of a function's package, from its
// runtime name.
func packageOf(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

// ParseRaceReport reads the frames of a report of the race detector, in
// the order it prints them: the access that raced, innermost first, the
// earlier access, then where the goroutines were created.
func ParseRaceReport(report string) []Frame {
	var out []Frame
	lines := strings.Split(report, "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := strings.TrimSpace(lines[i])
		loc := strings.TrimSpace(lines[i+1])
		if !strings.HasSuffix(fn, ")") || !strings.HasPrefix(lines[i+1], "      ") {
			continue
		}
		if p := strings.LastIndexByte(fn, '('); p > 0 {
			fn = fn[:p]
		}
		if sp := strings.IndexByte(loc, ' '); sp > 0 {
			loc = loc[:sp]
		}
		colon := strings.LastIndexByte(loc, ':')
		n, err := strconv.Atoi(loc[colon+1:])
		if colon < 0 || err != nil {
			continue
		}
		out = append(out, Frame{Func: fn, File: loc[:colon], Line: n})
		i++
	}
	return out
}

// ShortName is a function's runtime name without the path of its
// package: store.(*Ring).Get.
func ShortName(fn string) string { return fn[strings.LastIndexByte(fn, '/')+1:] }

// BareName is the name of the function a runtime name is, or of the one a
// closure belongs to, without package or receiver: Get, Publish.
func BareName(fn string) string {
	e := enclosing(fn)
	return e[strings.LastIndexByte(e, '.')+1:]
}
