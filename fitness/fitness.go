// Package fitness is the search's objective: it turns the execution trace
// of a test (what the probes recorded, in the numbering of couple.Index)
// into one objective value per goal, a coupled branch (s, r, e): 0 when
// the test covers it, larger the farther the test is from covering it.
//
// The distance D(b,t) of a test t to a branch b is the approach level on
// the coupled control-flow graph — the number of control dependences,
// counted across functions (couple.Analysis.Controlling), between b and
// the nearest branching node t evaluated — plus the normalised branch
// distance at that node. Two forms combine the distances to r and e:
// Layered (the default), which is monotone in the progress of a test
// along r, s and e, and Paper, the form of the criterion as first
// published (Derakhshanfar et al. 2022, section 3.2.1; see the README's
// References).
package fitness

import (
	"fmt"
	"math"
	"strings"
)

// Form selects how the distances to r and e make one objective.
type Form int

const (
	// Layered is cling's default, monotone objective:
	//
	//	d(c,t) = 2 + ν(D(r,t))   if r is not covered
	//	       = 1               if r is covered but s is not reached after r
	//	       = ν(D(e,t | s))   otherwise, over evaluations inside calls from s
	//
	// so a test that takes r always scores better than one that does not.
	Layered Form = iota
	// Paper is the form of the criterion as first published: D(r,t)+1 if
	// r is not covered, else D(e,t | s). It is not monotone: an uncovered
	// r with a near branch distance can score better than a covered r with
	// a far e.
	Paper
)

// formNames are the names of the forms, as --fitness takes them.
var formNames = [...]string{Layered: "layered", Paper: "paper"}

// String returns the form's name: "layered" or "paper".
func (f Form) String() string {
	if f < 0 || int(f) >= len(formNames) {
		return fmt.Sprintf("Form(%d)", int(f))
	}
	return formNames[f]
}

// ParseForm returns the form named name ("layered" or "paper").
func ParseForm(name string) (Form, error) {
	for f, n := range formNames {
		if n == name {
			return Form(f), nil
		}
	}
	return 0, fmt.Errorf("unknown fitness %q: use %s", name, strings.Join(formNames[:], " or "))
}

// Worst is the objective of a goal for a test that did not run (it timed
// out or crashed), or was not evaluated for that goal: the largest value
// of the layered form (the Paper form can exceed it).
const Worst = 3

// nu normalises a distance into [0, 1): ν(x) = x/(x+1).
func nu(x float64) float64 {
	if math.IsInf(x, 1) || x >= math.MaxFloat64 {
		return 1
	}
	return x / (x + 1)
}

// minCalleeDistance is the objective of a goal whose callee branch was
// taken inside a call from s, but only in a call that began before r: the
// test is very close, yet not covering.
const minCalleeDistance = 0.001
