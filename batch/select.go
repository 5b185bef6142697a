// Package batch runs cling gen, cbc and mutate over many pairs of a module
// in one process: the pairs of a selection, or one share of a plan
// (package shard).
//
// What the pairs share is done once: the load and the analysis of every
// pair (couple.LoadAllPairs), and the go command's build cache warms up
// for the pairs that follow. What depends on the pair is not shared: the
// probes of a pair are compiled into its code (R reports at each call
// site into E the site's number in the pair's plan, E's branch probes are
// numbered after R's nodes, and the runtime's table of sites and goals is
// the pair's), and the executor links one stub per operation of the
// pair's cluster, so each pair gets its own instrumented build. A build
// shared by a caller and several callees would record all of their probes
// in every execution, and a pair's result would depend on the other
// pairs of the run.
//
// What cling gen does for one pair takes four stages: measuring the
// existing tests, preparing (instrumenting, building the executor),
// searching, finishing (minimising, verifying, writing). The searches run
// one at a time, since each keeps the machine's cores busy with its
// executor's workers; the next two pairs are measured and prepared, and
// earlier pairs are finished, while a pair searches. Under a time budget the
// search then runs beside that work; under an evaluation budget its
// result is the same.
//
// A pair's result does not depend on which other pairs run in the same
// process: it searches with a seed derived from the run's seed and its
// own import paths (Seed), its budget comes from the whole selection, not
// the share (Budgets), the literals of the files the run writes never
// seed a search (gen.Config.Generated), and its existing tests are
// measured without those files. The one thing the pairs of a caller R
// share is R's directory: a pair's file must not clash with the files of
// R's other callees, so it is verified with the files written before it.
// The pairs of one caller therefore run in one process (a plan keeps them
// in one share), one after another in the selection's order, which gives
// every pair the same files wherever it runs.
package batch

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/shard"
)

// Error is a selection that names a pair the module does not have: a
// usage error of the commands.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Select chooses among the pairs of prog (as couple.LoadAllPairs ranks
// them) those of the selection, in that order: the non-trivial pairs with
// at least one coupled branch (and at least sel.MinCoupled) whose caller
// and callee lie in the main module (any module with sel.External), or
// only sel.Pairs, each of which must be a pair with coupled branches;
// then the sel.MaxPairs most coupled. It returns the selection with the
// pairs named by import paths, as a plan records it.
func Select(prog *ccfg.Program, all []couple.Pair, sel shard.Selection) ([]couple.Pair, shard.Selection, error) {
	want := map[string]bool{}
	var named []string
	for _, spec := range sel.Pairs {
		r, e, err := shard.ParsePairName(spec)
		if err != nil {
			return nil, sel, &Error{Msg: "--pair " + err.Error()}
		}
		rp, err := ccfg.ImportPathOf(prog, r)
		if err != nil {
			return nil, sel, &Error{Msg: fmt.Sprintf("--pair %s: %v", spec, err)}
		}
		ep, err := ccfg.ImportPathOf(prog, e)
		if err != nil {
			return nil, sel, &Error{Msg: fmt.Sprintf("--pair %s: %v", spec, err)}
		}
		name := shard.PairName(rp, ep)
		if !want[name] {
			want[name] = true
			named = append(named, name)
		}
	}
	sort.Strings(named)
	sel.Pairs = named
	found := map[string]bool{}
	var out []couple.Pair
	for _, p := range all {
		name := shard.PairName(p.Caller.Pkg.Path, p.Callee.Pkg.Path)
		if len(want) > 0 {
			if want[name] && p.CoupledBranches > 0 {
				found[name] = true
				out = append(out, p)
			}
			continue
		}
		if p.Trivial || p.CoupledBranches == 0 || p.CoupledBranches < sel.MinCoupled {
			continue
		}
		if !sel.External && !(inMain(p.Caller.Pkg) && inMain(p.Callee.Pkg)) {
			continue
		}
		out = append(out, p)
	}
	for _, name := range named {
		if !found[name] {
			return nil, sel, &Error{Msg: fmt.Sprintf("--pair %s: no such pair with coupled branches among the callers of %s", name, strings.Join(sel.Patterns, " "))}
		}
	}
	if sel.MaxPairs > 0 && len(out) > sel.MaxPairs {
		out = out[:sel.MaxPairs]
	}
	return out, sel, nil
}

func inMain(p *ccfg.Package) bool { return p.Module != nil && p.Module.Main }

// ShardPairs are the pairs as a plan knows them.
func ShardPairs(pairs []couple.Pair) []shard.Pair {
	out := make([]shard.Pair, len(pairs))
	for i, p := range pairs {
		out[i] = shard.Pair{Caller: p.Caller.Pkg.Path, Callee: p.Callee.Pkg.Path, CoupledBranches: p.CoupledBranches}
	}
	return out
}

// Seed derives a pair's seed from the run's: the first eight bytes of
// SHA-256("<seed> <R> <E>") (R and E are import paths), read big-endian
// and shifted right by one, so that it is not negative. A pair gets the
// same seed whichever pairs run with it.
func Seed(seed int64, caller, callee string) int64 {
	sum := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + " " + caller + " " + callee))
	return int64(binary.BigEndian.Uint64(sum[:8]) >> 1)
}

// MinPairBudget is the least search time Budgets gives a pair, when the
// total allows it.
const MinPairBudget = time.Second

// Budgets splits a total search time over pairs in proportion to their
// coupled branches, after giving each MinPairBudget (or, when the total
// is less than that per pair, an equal share of it). The budgets of a
// selection are computed over all its pairs, so that a pair gets the same
// time in any share of a plan.
func Budgets(total time.Duration, pairs []shard.Pair) []time.Duration {
	out := make([]time.Duration, len(pairs))
	if len(pairs) == 0 {
		return out
	}
	n := time.Duration(len(pairs))
	floor := min(MinPairBudget, total/n)
	rest := total - n*floor
	sum := 0
	for _, p := range pairs {
		sum += p.CoupledBranches
	}
	for i, p := range pairs {
		out[i] = floor
		if sum > 0 {
			out[i] += time.Duration(float64(rest) * float64(p.CoupledBranches) / float64(sum))
		}
	}
	return out
}

// Outputs returns the file gen writes for each pair: gen.DefaultOut,
// cling_<E name>_test.go in R's directory, unless an earlier pair of the
// same caller takes that name (two callees of one name in different
// directories); then cling_<E's path in its module, with underscores>_test.go.
func Outputs(pairs []couple.Pair) []string {
	out := make([]string, len(pairs))
	taken := map[string]bool{}
	for i, p := range pairs {
		f := gen.DefaultOut(p.Analysis)
		if taken[f] {
			rel := p.Callee.Pkg.Path
			if m := p.Callee.Pkg.Module; m != nil {
				rel = strings.TrimPrefix(strings.TrimPrefix(rel, m.Path), "/")
			}
			f = filepath.Join(p.Caller.Pkg.Dir, "cling_"+strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(rel)+"_test.go")
		}
		taken[f] = true
		out[i] = f
	}
	return out
}

// SourceDigest stands for the version of the main module a plan is made
// for: a hash of its go.mod and go.sum and of the Go files of its
// packages prog loaded from source, named relative to the module root.
func SourceDigest(prog *ccfg.Program) (string, error) {
	m := prog.MainModule
	if m == nil || m.Dir == "" {
		return "", &ccfg.LoadError{Msg: "cling needs a Go module: no go.mod found for " + prog.Dir}
	}
	files := []string{filepath.Join(m.Dir, "go.mod"), filepath.Join(m.Dir, "go.sum")}
	for _, p := range prog.Packages {
		if inMain(p) {
			files = append(files, p.GoFiles...)
		}
	}
	var rels []string
	abs := map[string]string{}
	for _, f := range files {
		rel, err := filepath.Rel(m.Dir, f)
		if err != nil {
			return "", err
		}
		rel = filepath.ToSlash(rel)
		rels = append(rels, rel)
		abs[rel] = f
	}
	sort.Strings(rels)
	h := sha256.New()
	for _, rel := range rels {
		b, err := os.ReadFile(abs[rel])
		if os.IsNotExist(err) && strings.HasSuffix(rel, "go.sum") {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("hashing the module's sources: %w", err)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(h, "%s %x\n", rel, sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
