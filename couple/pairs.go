package couple

import (
	"sort"

	"github.com/cling-go/cling/ccfg"
)

// Pair summarises one ordered (R, E) package pair for pair selection.
type Pair struct {
	Caller, Callee *ccfg.CCFG
	Sites          int
	// CallerComplexity and CalleeComplexity are cyclomatic complexities
	// (see Complexity); CallerFuncs and CalleeFuncs are function counts.
	CallerComplexity, CalleeComplexity int
	CallerFuncs, CalleeFuncs           int
	CoupledBranches                    int
	// Trivial is true when R or E has no branches at all (complexity equal
	// to its function count): such pairs have nothing to integrate.
	Trivial bool
	// Analysis is the pair's full analysis, from which the counts come.
	Analysis *Analysis
}

// LoadAllPairs loads the packages cfg names (with their direct imports,
// cfg.WithImports is set) and analyses every pair whose caller is one of
// the matched packages, as AllPairs ranks them: what cling pairs lists,
// and what the commands that run over several pairs choose from. With
// cfg.SkipBroken, packages that do not type-check are left out and listed
// in the program's Skipped.
func LoadAllPairs(cfg ccfg.LoadConfig) (*ccfg.Program, []Pair, error) {
	cfg.WithImports = true
	prog, err := ccfg.Load(cfg)
	if err != nil {
		return nil, nil, err
	}
	var callers []*ccfg.Package
	for _, p := range prog.Packages {
		if p.Matched {
			callers = append(callers, p)
		}
	}
	return prog, AllPairs(prog, callers), nil
}

// AllPairs analyses every ordered pair (R, E) where R is one of callers and
// E is any package of prog loaded from source that R calls into. The result
// is sorted by coupled branches, largest first, then by import paths.
func AllPairs(prog *ccfg.Program, callers []*ccfg.Package) []Pair {
	res := ccfg.NewResolver(prog)
	ccfgs := map[*ccfg.Package]*ccfg.CCFG{}
	var all []*ccfg.CCFG
	for _, p := range prog.Packages {
		c := ccfg.BuildCCFG(prog, p, res)
		ccfgs[p] = c
		all = append(all, c)
	}
	var out []Pair
	for _, rp := range callers {
		r := ccfgs[rp]
		ctl := newControlCache()
		for e, sites := range FindAllCallSites(r, all, res) {
			a := newAnalysis(prog, r, e, sites, ctl)
			p := Pair{
				Caller: r, Callee: e, Sites: len(sites),
				CallerComplexity: Complexity(r), CalleeComplexity: Complexity(e),
				CallerFuncs: len(r.Funcs), CalleeFuncs: len(e.Funcs),
				CoupledBranches: len(a.Goals),
				Analysis:        a,
			}
			p.Trivial = p.CallerComplexity == p.CallerFuncs || p.CalleeComplexity == p.CalleeFuncs
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.CoupledBranches != b.CoupledBranches {
			return a.CoupledBranches > b.CoupledBranches
		}
		if a.Caller.Pkg.Path != b.Caller.Pkg.Path {
			return a.Caller.Pkg.Path < b.Caller.Pkg.Path
		}
		return a.Callee.Pkg.Path < b.Callee.Pkg.Path
	})
	return out
}
