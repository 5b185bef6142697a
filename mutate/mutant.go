// Package mutate is cling's interface mutation evaluator. It judges a test
// suite by the faults it detects at the interface between a caller package
// R and a callee package E:
//
//   - RetStaRep replaces what a function of E reachable from R's call sites
//     returns (per return position: zero value, negated bool, 0 -> 1 and
//     x -> 0 for numbers, nil <-> non-nil error, "" for strings, nil for
//     pointers, slices and maps);
//   - FunCalDel deletes a call of R into E, or replaces its result by the
//     zero value or by an argument of the result's type;
//   - optionally, the conventional operators of other mutation tools
//     (NegateConditionals, ConditionalsBoundary, Math, RemoveConditionals,
//     Increments, InlineConstant, named as in PIT), on all of R and E.
//
// Operators are registered, each by a file of its own (op_*.go; the two
// that share the comparison guard share one): name, one-line doc, group,
// order, and the function that finds its mutants. --operators and its
// help come from that registry.
//
// All mutants of a run are compiled once, as mutant schemata: every mutated
// expression calls the probe runtime's guard with its mutant ID, and the
// environment variable CLING_MUTANT selects the active mutant when a test
// binary starts. Mutants that would not type-check are found with go/types
// before the build and reported as not-viable. One baseline run records
// which tests reach which mutants; each covered mutant then runs only the
// tests that reach it, in parallel workers, with a timeout derived from the
// baseline. The mutated sources live in a private workspace and reach the
// go command through -overlay: the user's tree is never written.
package mutate

import "fmt"

// Status is the outcome of evaluating one mutant.
type Status string

// The statuses. Killed and timed-out mutants are detected; not-viable
// mutants do not count in the score.
const (
	Killed     Status = "killed"
	Survived   Status = "survived"
	NotCovered Status = "not-covered"
	Timeout    Status = "timeout"
	NotViable  Status = "not-viable"
)

// Statuses lists the statuses in report order, in a new slice the caller
// may keep or change.
func Statuses() []Status { return []Status{Killed, Survived, NotCovered, Timeout, NotViable} }

// Mutant is one mutant: a single change of R's or E's source, guarded by
// its ID in the schemata.
type Mutant struct {
	// ID is the mutant's number, from 1, in source order (file, offset,
	// operator, variant): the same input gives the same IDs.
	ID       int
	Operator Operator
	// Package is the import path of the mutated package.
	Package string
	// File is the absolute path of the mutated file; Rel its name
	// relative to the module root.
	File string
	Rel  string
	// Line and Col locate the mutated construct; Offset is its byte offset.
	Line, Col, Offset int
	// Description says what the mutant changes.
	Description string
	Status      Status
	// KilledBy lists the tests (import path.TestName) that failed with
	// the mutant active.
	KilledBy []string
	// Tests are the selected tests: those whose baseline run reached the
	// mutant.
	Tests []string
	// Reason is the type error of a not-viable mutant.
	Reason string

	site    *site
	variant int
	// left is set for a mutant that Config.Select left out of the run.
	left bool
	// detectedBy tells which test groups detect the mutant (--compare).
	detectedBy map[string]bool
}

// Pos is the mutant's position, file:line:col relative to the module root.
func (m *Mutant) Pos() string { return fmt.Sprintf("%s:%d:%d", m.Rel, m.Line, m.Col) }

// Detected reports whether the suite detects the mutant (killed or timed
// out).
func (m *Mutant) Detected() bool { return m.Status == Killed || m.Status == Timeout }

// Score is the mutation score of a set of mutants: (killed + timeout) /
// (all - not-viable), and 0 when no mutant is viable.
func Score(ms []*Mutant) float64 {
	det, viable := 0, 0
	for _, m := range ms {
		if m.Status == NotViable {
			continue
		}
		viable++
		if m.Detected() {
			det++
		}
	}
	if viable == 0 {
		return 0
	}
	return float64(det) / float64(viable)
}
