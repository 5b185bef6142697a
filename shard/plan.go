// Package shard splits the pairs of a module into shares for the machines
// of a CI matrix and merges what the shares found into one report.
//
// A Plan assigns the selected pairs to N shares of about equal estimated
// cost, keeping the pairs of one caller together (they write files into
// the same directory, each seeing those written before it), and carries
// an id: a hash of the module, its sources, the selection and the
// assignment. Its JSON form is a GitHub Actions matrix. Each share runs
// on a machine of its own and writes Results; Merge checks that the
// results belong to one plan, names the shares that are missing, and
// combines them into a Report, which renders as text, Markdown, HTML or
// JSON.
//
// The package is plain data: it knows pairs by their import paths and
// results by their figures, and imports nothing of the pipeline.
package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
)

// Pair is a selected pair as a plan knows it: the import paths of caller
// R and callee E, and its coupled branches.
type Pair struct {
	Caller, Callee  string
	CoupledBranches int
}

// Name is the pair's name in plans, results and on the command line:
// "R:E".
func (p Pair) Name() string { return PairName(p.Caller, p.Callee) }

// PairName names the pair of caller R and callee E: "R:E".
func PairName(caller, callee string) string { return caller + ":" + callee }

// ParsePairName splits "R:E" into its caller and callee.
func ParsePairName(s string) (caller, callee string, err error) {
	caller, callee, ok := strings.Cut(s, ":")
	if !ok || caller == "" || callee == "" || strings.Contains(callee, ":") {
		return "", "", fmt.Errorf("%q is not a pair: write CALLER:CALLEE", s)
	}
	return caller, callee, nil
}

// Selection says which pairs of a module a run covers, as the commands
// were given them.
type Selection struct {
	// Patterns name the callers' packages (default ./...).
	Patterns []string `json:"patterns"`
	// Tags are build tags.
	Tags []string `json:"tags,omitempty"`
	// MinCoupled leaves out pairs with fewer coupled branches.
	MinCoupled int `json:"minCoupled,omitempty"`
	// MaxPairs keeps the most coupled pairs only (0: all).
	MaxPairs int `json:"maxPairs,omitempty"`
	// Pairs, if any, are the only pairs to run, as "R:E" with import
	// paths.
	Pairs []string `json:"pairs,omitempty"`
	// External also takes pairs whose caller or callee lies outside the
	// main module.
	External bool `json:"external,omitempty"`
}

// Plan is the assignment of a module's selected pairs to shares.
type Plan struct {
	// ID identifies the plan: a hash of everything below but the
	// estimates.
	ID string
	// Module is the main module's path; Source is a digest of its
	// sources (see the command that makes plans), standing for its
	// version.
	Module, Source string
	Selection      Selection
	// Shares are the shares, in order; Shares[i] is shard i+1.
	Shares []Share
	// Estimate is how the cost of a pair was estimated.
	Estimate Estimate
}

// Share is one shard of a plan: its pairs, in the order they run, and
// their estimated cost.
type Share struct {
	Pairs   []Pair
	Seconds float64
}

// Estimate is the cost model of a plan: a pair costs Overhead seconds
// (instrumenting, building, verifying) plus Rate seconds of search per
// coupled branch, the rate at which a total search time of Budget
// seconds, split in proportion to coupled branches, is spent in this
// module.
type Estimate struct {
	BudgetSeconds   float64 `json:"budgetSeconds"`
	Rate            float64 `json:"rate"`
	OverheadSeconds float64 `json:"overheadSeconds"`
}

// Cost is the estimated cost of a pair, in seconds.
func (e Estimate) Cost(p Pair) float64 {
	return e.OverheadSeconds + e.Rate*float64(p.CoupledBranches)
}

// NewPlan splits pairs, in the order the run takes them, into shards
// shares of about equal estimated cost. The pairs of one caller stay in
// one share, in their order. Groups of pairs go, most costly first, to
// the share with the least cost so far (the lowest-numbered on a tie),
// so the same input always gives the same plan. A share may be empty
// when there are fewer callers than shares.
func NewPlan(module, source string, sel Selection, pairs []Pair, shards int, est Estimate) (*Plan, error) {
	if shards < 1 {
		return nil, &Error{Msg: fmt.Sprintf("--shards must be at least 1 (got %d)", shards)}
	}
	type group struct {
		caller string
		pairs  []int // indices into pairs
		cost   float64
	}
	var groups []*group
	byCaller := map[string]*group{}
	for i, p := range pairs {
		g := byCaller[p.Caller]
		if g == nil {
			g = &group{caller: p.Caller}
			byCaller[p.Caller] = g
			groups = append(groups, g)
		}
		g.pairs = append(g.pairs, i)
		g.cost += est.Cost(p)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i].cost != groups[j].cost {
			return groups[i].cost > groups[j].cost
		}
		return groups[i].caller < groups[j].caller
	})
	load := make([]float64, shards)
	member := make([]int, len(pairs)) // pair index -> share index
	for _, g := range groups {
		best := 0
		for s := 1; s < shards; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += g.cost
		for _, i := range g.pairs {
			member[i] = best
		}
	}
	plan := &Plan{Module: module, Source: source, Selection: sel, Shares: make([]Share, shards), Estimate: est}
	for i, p := range pairs {
		s := &plan.Shares[member[i]]
		s.Pairs = append(s.Pairs, p)
		s.Seconds += est.Cost(p)
	}
	plan.ID = plan.id()
	return plan, nil
}

// id hashes the module, its source digest, the selection and which
// pairs each share holds, in order.
func (p *Plan) id() string {
	shares := make([][]string, len(p.Shares))
	for i, s := range p.Shares {
		shares[i] = []string{}
		for _, pr := range s.Pairs {
			shares[i] = append(shares[i], pr.Name())
		}
	}
	b, _ := json.Marshal(struct {
		Module, Source string
		Selection      Selection
		Shares         [][]string
	}{p.Module, p.Source, p.Selection, shares})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Pairs returns every pair of the plan, share by share.
func (p *Plan) Pairs() []Pair {
	var out []Pair
	for _, s := range p.Shares {
		out = append(out, s.Pairs...)
	}
	return out
}

// Share returns shard i (1-based) of the plan; an index out of range is
// an Error.
func (p *Plan) Share(i int) (Share, error) {
	if i < 1 || i > len(p.Shares) {
		return Share{}, &Error{Msg: fmt.Sprintf("--shard %d is out of range: the plan has shards 1 to %d", i, len(p.Shares))}
	}
	return p.Shares[i-1], nil
}

// Error is a plan or results file that cannot be used as asked: a usage
// error of the commands.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// matrix is the JSON form of a plan: a GitHub Actions matrix whose
// entries each carry, besides the shard and its pairs, the plan itself
// (a matrix may hold nothing but include at its top level).
type matrix struct {
	Include []matrixEntry `json:"include"`
}

type matrixEntry struct {
	Shard    int      `json:"shard"`
	Pairs    []string `json:"pairs"`
	Estimate float64  `json:"estimateSeconds"`
	// CoupledBranches are those of each pair, in the order of Pairs.
	CoupledBranches []int    `json:"coupledBranches"`
	Plan            planMeta `json:"plan"`
}

type planMeta struct {
	ID        string    `json:"id"`
	Shards    int       `json:"shards"`
	Module    string    `json:"module"`
	Source    string    `json:"source"`
	Selection Selection `json:"selection"`
	Estimate  Estimate  `json:"estimate"`
}

// MarshalJSON writes the plan as a GitHub Actions matrix:
// {"include":[{"shard":1,"pairs":["R:E",...],...,"plan":{"id":...}},...]}.
func (p *Plan) MarshalJSON() ([]byte, error) {
	meta := planMeta{ID: p.ID, Shards: len(p.Shares), Module: p.Module, Source: p.Source, Selection: p.Selection, Estimate: p.Estimate}
	m := matrix{Include: []matrixEntry{}}
	for i, s := range p.Shares {
		e := matrixEntry{Shard: i + 1, Pairs: []string{}, CoupledBranches: []int{}, Estimate: round(s.Seconds, 1), Plan: meta}
		for _, pr := range s.Pairs {
			e.Pairs = append(e.Pairs, pr.Name())
			e.CoupledBranches = append(e.CoupledBranches, pr.CoupledBranches)
		}
		m.Include = append(m.Include, e)
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a plan from its matrix form and checks that it is
// whole and consistent: every shard once, one plan, and an id that
// matches the contents.
func (p *Plan) UnmarshalJSON(b []byte) error {
	var m matrix
	if err := json.Unmarshal(b, &m); err != nil {
		return &Error{Msg: fmt.Sprintf("not a plan of cling plan: %v", err)}
	}
	if len(m.Include) == 0 {
		return &Error{Msg: "not a plan of cling plan: no shards"}
	}
	meta := m.Include[0].Plan
	if meta.ID == "" || meta.Shards != len(m.Include) {
		return &Error{Msg: fmt.Sprintf("not a whole plan of cling plan: %d of %d shards", len(m.Include), meta.Shards)}
	}
	*p = Plan{ID: meta.ID, Module: meta.Module, Source: meta.Source, Selection: meta.Selection, Shares: make([]Share, meta.Shards), Estimate: meta.Estimate}
	seen := make([]bool, meta.Shards)
	for _, e := range m.Include {
		if !sameMeta(e.Plan, meta) {
			return &Error{Msg: fmt.Sprintf("not a plan of cling plan: shard %d belongs to plan %s, not %s", e.Shard, e.Plan.ID, meta.ID)}
		}
		if e.Shard < 1 || e.Shard > meta.Shards || seen[e.Shard-1] {
			return &Error{Msg: fmt.Sprintf("not a plan of cling plan: shard %d is out of range or repeated", e.Shard)}
		}
		if len(e.CoupledBranches) != len(e.Pairs) {
			return &Error{Msg: fmt.Sprintf("not a plan of cling plan: shard %d has %d pairs and %d counts of coupled branches", e.Shard, len(e.Pairs), len(e.CoupledBranches))}
		}
		seen[e.Shard-1] = true
		s := &p.Shares[e.Shard-1]
		s.Seconds = e.Estimate
		for i, name := range e.Pairs {
			r, callee, err := ParsePairName(name)
			if err != nil {
				return &Error{Msg: "not a plan of cling plan: " + err.Error()}
			}
			s.Pairs = append(s.Pairs, Pair{Caller: r, Callee: callee, CoupledBranches: e.CoupledBranches[i]})
		}
	}
	if id := p.id(); id != p.ID {
		return &Error{Msg: fmt.Sprintf("the plan's contents do not match its id %s (edited by hand?): make it again with cling plan", p.ID)}
	}
	return nil
}

func sameMeta(a, b planMeta) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// ReadPlan reads a plan file written by cling plan --json.
func ReadPlan(path string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("reading the plan: %v", err)}
	}
	var p Plan
	if err := json.Unmarshal(b, &p); err != nil {
		var se *Error
		if errors.As(err, &se) {
			return nil, &Error{Msg: fmt.Sprintf("%s: %s", path, se.Msg)}
		}
		return nil, &Error{Msg: fmt.Sprintf("%s: not a plan of cling plan: %v", path, err)}
	}
	return &p, nil
}

// round rounds x to the given number of decimals.
func round(x float64, decimals int) float64 {
	f := math.Pow(10, float64(decimals))
	return math.Round(x*f) / f
}
