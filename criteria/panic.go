package criteria

import (
	"strings"

	"github.com/cling-go/cling/probe"
)

func init() {
	register(panicCriterion("panic", "each distinct panic out of a call the test makes: the function of R or E that raised it and the type of its value", 1, 70, "panic "))
	register(panicCriterion("panic+error", "as panic, and each distinct non-nil error R's exported functions return: the function and the error's type", 0, 80, "panic ", "error "))
}

// panicCriterion is the criterion of the panics (and, with the prefix
// "error ", of the errors) the probes record, which join the goals as
// tests meet them.
func panicCriterion(name, doc string, rank, order int, kinds ...string) *Criterion {
	x := probe.Extras{API: true, Errors: len(kinds) > 1}
	keep := func(keys []string) []string {
		var out []string
		for _, k := range keys {
			for _, kind := range kinds {
				if strings.HasPrefix(k, kind) {
					out = append(out, k)
				}
			}
		}
		return out
	}
	return &Criterion{
		Name: name, Doc: doc,
		Group: "panic", Rank: rank, Order: order,
		Extras:  x,
		Dynamic: true,
		objective: func(x *Exec, g *Goal) float64 {
			if x.panics[g.Key] {
				return 0
			}
			return 1
		},
		found:      func(x *Exec) []string { return keep(x.Trace.Panics) },
		foundInRun: func(r *probe.TestRun) []string { return keep(r.Extras.Panics) },
		inRun: func(_ *Pair, r *probe.TestRun, g *Goal) bool {
			for _, k := range r.Extras.Panics {
				if k == g.Key {
					return true
				}
			}
			return false
		},
	}
}

// panicGoal is the goal of a panic or error key ("panic pkg.F type").
func panicGoal(c *Criterion, key string) Goal {
	kind, rest, _ := strings.Cut(key, " ")
	fn, typ, _ := strings.Cut(rest, " ")
	verb := "makes " + fn + " panic with a " + typ
	if kind == "error" {
		verb = "gets a " + typ + " error from " + fn
	}
	return Goal{Criterion: c, Key: key, ID: rest, Test: ident(kind, shortName(fn), typ), About: verb}
}
