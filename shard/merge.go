package shard

import (
	"fmt"
	"sort"
	"strings"
)

// Report is the merge of the results of a plan's shares, or of one run
// outside a plan: per pair what each command found, and the totals.
type Report struct {
	// Plan is the plan's id ("" outside a plan), Shards its number of
	// shards.
	Plan   string `json:"plan,omitempty"`
	Shards int    `json:"shards,omitempty"`
	Module string `json:"module"`
	// Commands are the commands whose results were merged, in the order
	// gen, cbc, mutate.
	Commands []string `json:"commands"`
	// Missing are, per command, the shards whose results were not given.
	Missing map[string][]int `json:"missing,omitempty"`
	// Pairs are the pairs, most coupled first.
	Pairs []MergedPair `json:"pairs"`
	Total Total        `json:"total"`
}

// MergedPair is what the merged commands found for one pair.
type MergedPair struct {
	PairOutcome
	// Failures are the errors of the commands, as "command: error".
	Failures []string `json:"failures,omitempty"`
	// Seconds is the time the commands spent on the pair.
	Seconds float64 `json:"seconds"`
}

// Total sums the pairs up, per command over the pairs it has results
// for.
type Total struct {
	Pairs           int `json:"pairs"`
	CoupledBranches int `json:"coupledBranches"`
	// Failures counts the pairs with a failure.
	Failures int          `json:"failures"`
	Gen      *GenTotal    `json:"gen,omitempty"`
	CBC      *CBCTotal    `json:"cbc,omitempty"`
	Mutate   *MutateTotal `json:"mutate,omitempty"`
}

// GenTotal sums up the gen results.
type GenTotal struct {
	Pairs           int `json:"pairs"`
	CoupledBranches int `json:"coupledBranches"`
	CoveredBefore   int `json:"coveredBefore"`
	CoveredAfter    int `json:"coveredAfter"`
	Tests           int `json:"tests"`
	Files           int `json:"files"`
}

// CBCTotal sums up the cbc results.
type CBCTotal struct {
	Pairs           int `json:"pairs"`
	CoupledBranches int `json:"coupledBranches"`
	Covered         int `json:"covered"`
}

// MutateTotal sums up the mutate results; Score is detected over viable
// mutants.
type MutateTotal struct {
	Pairs    int     `json:"pairs"`
	Mutants  int     `json:"mutants"`
	Detected int     `json:"detected"`
	Viable   int     `json:"viable"`
	Score    float64 `json:"score"`
}

// Named is a results file and the name it was given by.
type Named struct {
	Name    string
	Results *Results
}

// Merge combines results files. They must come from one plan (or be one
// run outside a plan per command) and one module, and hold each shard of
// a command at most once; otherwise Merge returns an Error. Shards that
// are missing are listed in the report, not an error.
func Merge(files []Named) (*Report, error) {
	if len(files) == 0 {
		return nil, &Error{Msg: "no results to merge"}
	}
	first := files[0]
	rep := &Report{Plan: first.Results.Plan, Shards: first.Results.Shards, Module: first.Results.Module, Missing: map[string][]int{}}
	seen := map[string]map[int]string{} // command -> shard -> file
	for _, f := range files {
		r := f.Results
		switch {
		case r.Plan != rep.Plan:
			return nil, &Error{Msg: fmt.Sprintf("%s and %s are results of different plans (%s and %s)", first.Name, f.Name, planName(rep.Plan), planName(r.Plan))}
		case r.Module != rep.Module:
			return nil, &Error{Msg: fmt.Sprintf("%s and %s are results for different modules (%s and %s)", first.Name, f.Name, rep.Module, r.Module)}
		case r.Plan != "" && (r.Shards != rep.Shards || r.Shard < 1 || r.Shard > r.Shards):
			return nil, &Error{Msg: fmt.Sprintf("%s claims shard %d of %d of plan %s, which has %d", f.Name, r.Shard, r.Shards, r.Plan, rep.Shards)}
		}
		if seen[r.Command] == nil {
			seen[r.Command] = map[int]string{}
		}
		if other, ok := seen[r.Command][r.Shard]; ok {
			if r.Plan == "" {
				return nil, &Error{Msg: fmt.Sprintf("%s and %s are two %s runs outside a plan: merge the shares of one plan", other, f.Name, r.Command)}
			}
			return nil, &Error{Msg: fmt.Sprintf("%s and %s both hold shard %d of the %s results", other, f.Name, r.Shard, r.Command)}
		}
		seen[r.Command][r.Shard] = f.Name
	}
	for _, cmd := range []string{CommandGen, CommandCBC, CommandMutate} {
		shards, ok := seen[cmd]
		if !ok {
			continue
		}
		rep.Commands = append(rep.Commands, cmd)
		for s := 1; s <= rep.Shards; s++ {
			if _, ok := shards[s]; !ok {
				rep.Missing[cmd] = append(rep.Missing[cmd], s)
			}
		}
	}
	pairs := map[string]*MergedPair{}
	for _, f := range files {
		r := f.Results
		for _, pr := range r.Pairs {
			mp := pairs[pr.Pair]
			if mp == nil {
				mp = &MergedPair{PairOutcome: PairOutcome{Pair: pr.Pair, Caller: pr.Caller, Callee: pr.Callee, CoupledBranches: pr.CoupledBranches}}
				pairs[pr.Pair] = mp
			}
			if mp.has(r.Command) {
				return nil, &Error{Msg: fmt.Sprintf("pair %s appears twice in the %s results (again in %s)", pr.Pair, r.Command, f.Name)}
			}
			switch r.Command {
			case CommandGen:
				mp.Gen = orEmpty(pr.Gen)
			case CommandCBC:
				mp.CBC = orEmpty(pr.CBC)
			case CommandMutate:
				mp.Mutate = orEmpty(pr.Mutate)
			}
			mp.Seconds += pr.Seconds
			if pr.Error != "" {
				mp.Failures = append(mp.Failures, r.Command+": "+pr.Error)
			}
		}
	}
	for _, mp := range pairs {
		sort.Strings(mp.Failures)
		rep.Pairs = append(rep.Pairs, *mp)
	}
	sort.Slice(rep.Pairs, func(i, j int) bool {
		a, b := rep.Pairs[i], rep.Pairs[j]
		if a.CoupledBranches != b.CoupledBranches {
			return a.CoupledBranches > b.CoupledBranches
		}
		if a.Caller != b.Caller {
			return a.Caller < b.Caller
		}
		return a.Callee < b.Callee
	})
	rep.Total = total(rep.Pairs)
	return rep, nil
}

// has reports whether the pair already holds results of the command.
func (mp *MergedPair) has(command string) bool {
	switch command {
	case CommandGen:
		return mp.Gen != nil
	case CommandCBC:
		return mp.CBC != nil
	default:
		return mp.Mutate != nil
	}
}

// orEmpty is r, or the zero result when the pair failed before having
// one, so that the pair still counts as run by the command.
func orEmpty[T any](r *T) *T {
	if r == nil {
		return new(T)
	}
	return r
}

func planName(id string) string {
	if id == "" {
		return "no plan"
	}
	return "plan " + id
}

// total sums the pairs up.
func total(pairs []MergedPair) Total {
	var t Total
	for _, p := range pairs {
		t.Pairs++
		t.CoupledBranches += p.CoupledBranches
		if len(p.Failures) > 0 {
			t.Failures++
		}
		if g := p.Gen; g != nil {
			if t.Gen == nil {
				t.Gen = &GenTotal{}
			}
			t.Gen.Pairs++
			t.Gen.CoupledBranches += p.CoupledBranches
			t.Gen.CoveredBefore += g.CoveredBefore
			t.Gen.CoveredAfter += g.CoveredAfter
			t.Gen.Tests += g.Tests
			if g.File != "" {
				t.Gen.Files++
			}
		}
		if c := p.CBC; c != nil {
			if t.CBC == nil {
				t.CBC = &CBCTotal{}
			}
			t.CBC.Pairs++
			t.CBC.CoupledBranches += p.CoupledBranches
			t.CBC.Covered += c.Covered
		}
		if m := p.Mutate; m != nil {
			if t.Mutate == nil {
				t.Mutate = &MutateTotal{}
			}
			t.Mutate.Pairs++
			t.Mutate.Mutants += m.Mutants
			t.Mutate.Detected += m.Detected()
			t.Mutate.Viable += m.Viable()
		}
	}
	if m := t.Mutate; m != nil && m.Viable > 0 {
		m.Score = float64(m.Detected) / float64(m.Viable)
	}
	return t
}

// MissingText names the missing shards, per command: "gen: shards 2, 3;
// mutate: shard 1"; "" when none is missing.
func (r *Report) MissingText() string {
	var parts []string
	for _, cmd := range r.Commands {
		m := r.Missing[cmd]
		if len(m) == 0 {
			continue
		}
		var nums []string
		for _, s := range m {
			nums = append(nums, fmt.Sprint(s))
		}
		word := "shard"
		if len(m) > 1 {
			word = "shards"
		}
		parts = append(parts, fmt.Sprintf("%s: %s %s of %d", cmd, word, strings.Join(nums, ", "), r.Shards))
	}
	return strings.Join(parts, "; ")
}
