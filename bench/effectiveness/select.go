package main

import (
	"fmt"
	"sort"
	"strings"
)

// Pair selection. The rule, applied to the output of `cling pairs --json
// ./...` in each module:
//
//  1. The pair is not trivial (R and E both have branches).
//  2. R and E both belong to the module under test (a callee in another
//     module is a dependency, not the module's own interface).
//  3. Neither R nor E is a copy of a third-party library kept inside the
//     module (expr carries copies of testify, spew and difflib under
//     internal/) or a test-support package (a path element such as test,
//     testutil, testhelper, fuzz, mock, examples): their "tests" are not
//     the module's hand-written tests of that interface.
//  4. The number of coupled branches is within [min, max] (default
//     50..3000): below, the pair is too small to separate two algorithms;
//     above, a 60 s search covers a small, noisy fraction of it.
//  5. R has tests of its own (_test.go files in its directory), so that the
//     coupled-branch coverage of the hand-written suite means something.
//
// The eligible pairs of a module are ranked by coupled branches, largest
// first, and taken in that order, preferring pairs whose R and E are both
// not yet chosen in that module (so the module contributes different
// interfaces rather than one package seen twice); pairs sharing R or E are
// used only if there are not enough others. Each pair taken is probed
// before it is accepted: a short `cling gen` (MOSA, seed 1000, which is not
// one of the measured seeds) must succeed and cover at least a small share
// of the coupled branches (-probe-min, 5%: where cling's test cluster cannot
// reach the interface at all, as for goldmark/extension, whose API is
// methods of unexported types behind interfaces, a pair measures that
// limitation and not the search), and `cling cbc` of R's own tests must
// produce a report. A pair
// that fails its probe is reported with the message and the next one is
// tried, until perModule pairs are accepted.

// pairInfo is one row of `cling pairs --json`.
type pairInfo struct {
	Caller           string `json:"caller"`
	Callee           string `json:"callee"`
	CallSites        int    `json:"callSites"`
	CallerComplexity int    `json:"callerComplexity"`
	CalleeComplexity int    `json:"calleeComplexity"`
	CoupledBranches  int    `json:"coupledBranches"`
	Trivial          bool   `json:"trivial"`
}

// goPackage is the part of `go list -json` the selection needs.
type goPackage struct {
	ImportPath   string
	Dir          string
	Name         string
	TestGoFiles  []string
	XTestGoFiles []string
}

func (p goPackage) testFiles() int { return len(p.TestGoFiles) + len(p.XTestGoFiles) }

// selectRules are the parameters of the selection rule.
type selectRules struct {
	MinCoupled, MaxCoupled int
	PerModule              int
}

// copiedLibs are module-internal copies of third-party libraries.
var copiedLibs = []string{"internal/testify", "internal/spew", "internal/difflib"}

// helperElems are path elements that mark test-support packages.
var helperElems = []string{"test", "tests", "testutil", "testhelper", "testdata", "fuzz", "mock", "examples"}

// staticReason returns why a pair of module modPath is not eligible, or ""
// if it is (rules 1 to 5).
func staticReason(p pairInfo, modPath string, pkgs map[string]goPackage, r selectRules) string {
	if p.Trivial {
		return "trivial: R or E has no branches"
	}
	for _, path := range []string{p.Caller, p.Callee} {
		if !inModule(path, modPath) {
			return fmt.Sprintf("%s is not in module %s", path, modPath)
		}
	}
	for _, path := range []string{p.Caller, p.Callee} {
		rel := relPath(path, modPath)
		for _, lib := range copiedLibs {
			if rel == lib || strings.HasPrefix(rel, lib+"/") {
				return fmt.Sprintf("%s is a copy of a third-party library", rel)
			}
		}
		for _, e := range strings.Split(rel, "/") {
			for _, h := range helperElems {
				if e == h {
					return fmt.Sprintf("%s is a test-support package", rel)
				}
			}
		}
	}
	if p.CoupledBranches < r.MinCoupled {
		return fmt.Sprintf("%d coupled branches, fewer than %d", p.CoupledBranches, r.MinCoupled)
	}
	if p.CoupledBranches > r.MaxCoupled {
		return fmt.Sprintf("%d coupled branches, more than %d", p.CoupledBranches, r.MaxCoupled)
	}
	if pkg, ok := pkgs[p.Caller]; !ok || pkg.testFiles() == 0 {
		return "R has no tests of its own"
	}
	return ""
}

func inModule(path, modPath string) bool {
	return path == modPath || strings.HasPrefix(path, modPath+"/")
}

// relPath is path relative to the module root ("." for the root package).
func relPath(path, modPath string) string {
	if path == modPath {
		return "."
	}
	return strings.TrimPrefix(path, modPath+"/")
}

// candidate is a pair considered by the selection.
type candidate struct {
	pairInfo
	// CallerTests is the number of _test.go files in R's directory.
	CallerTests int
	// Rank is the 1-based position among the module's eligible pairs.
	Rank int
	// Status is "chosen", "probe failed", "not needed" or "ineligible";
	// Reason says why.
	Status, Reason string
}

// probeFunc tries a candidate pair; it returns "" if the pair works, or
// why it does not, and a note on what the probe saw.
type probeFunc func(c *candidate) (failure, note string)

// choose applies the selection rule to the pairs of one module. It returns
// every pair with its status, chosen ones first in the order chosen.
func choose(pairs []pairInfo, modPath string, pkgs map[string]goPackage, r selectRules, probe probeFunc) []candidate {
	var eligible, out []candidate
	for _, p := range pairs {
		c := candidate{pairInfo: p, CallerTests: pkgs[p.Caller].testFiles()}
		if why := staticReason(p, modPath, pkgs, r); why != "" {
			c.Status, c.Reason = "ineligible", why
			out = append(out, c)
			continue
		}
		eligible = append(eligible, c)
	}
	sort.SliceStable(eligible, func(i, j int) bool {
		a, b := eligible[i], eligible[j]
		if a.CoupledBranches != b.CoupledBranches {
			return a.CoupledBranches > b.CoupledBranches
		}
		if a.Caller != b.Caller {
			return a.Caller < b.Caller
		}
		return a.Callee < b.Callee
	})
	for i := range eligible {
		eligible[i].Rank = i + 1
	}
	used := map[string]bool{}
	chosen := 0
	try := func(c *candidate) {
		failure, note := probe(c)
		if failure != "" {
			c.Status, c.Reason = "probe failed", failure
			return
		}
		c.Status = "chosen"
		c.Reason = fmt.Sprintf("rank %d of %d eligible pairs by coupled branches; R has %d test files; %s",
			c.Rank, len(eligible), c.CallerTests, note)
		used[c.Caller], used[c.Callee] = true, true
		chosen++
	}
	// First pass: pairs that share neither R nor E with a chosen pair.
	for i := range eligible {
		c := &eligible[i]
		if chosen >= r.PerModule {
			break
		}
		if used[c.Caller] || used[c.Callee] {
			continue
		}
		try(c)
	}
	// Second pass: the rest, if there are not enough pairs yet.
	for i := range eligible {
		c := &eligible[i]
		if chosen >= r.PerModule {
			break
		}
		if c.Status == "" {
			try(c)
		}
	}
	var picked []candidate
	for _, c := range eligible {
		switch c.Status {
		case "chosen":
			picked = append(picked, c)
		case "":
			c.Status = "not needed"
			if used[c.Caller] || used[c.Callee] {
				c.Reason = "shares R or E with a chosen pair"
			} else {
				c.Reason = "enough pairs chosen before it"
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return append(picked, out...)
}

// pairSpec is a pair given on the command line: module:R:E.
type pairSpec struct {
	Module, Caller, Callee string
}

// parsePairSpecs parses "-pairs module:R:E,module:R:E".
func parsePairSpecs(s string) ([]pairSpec, error) {
	var out []pairSpec
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		parts := strings.Split(f, ":")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
			return nil, fmt.Errorf("pair %q: want module:R:E (for example expr:./parser:./parser/lexer)", f)
		}
		out = append(out, pairSpec{Module: parts[0], Caller: parts[1], Callee: parts[2]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-pairs %q names no pair", s)
	}
	return out, nil
}

// resolvePkg turns a package as written on the command line (".",
// "./parser", "parser" or a full import path) into an import path of
// module modPath.
func resolvePkg(s, modPath string) string {
	switch {
	case s == "." || s == "./":
		return modPath
	case strings.HasPrefix(s, "./"):
		return modPath + "/" + strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
	case inModule(s, modPath):
		return s
	case !strings.Contains(strings.SplitN(s, "/", 2)[0], "."):
		// no domain in the first element: relative to the module
		return modPath + "/" + strings.TrimSuffix(s, "/")
	default:
		return s
	}
}
