package gate

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cling-go/cling/mutate"
)

// maxListed is how many uncovered diff coupled branches and undetected
// mutants the text report lists per pair.
const maxListed = 20

// WriteText writes the report as text: the change, one table row per
// affected pair, what each pair misses, and the verdict.
func WriteText(w io.Writer, rep *Report) {
	fmt.Fprintln(w, changeLine(rep))
	if len(rep.Pairs) == 0 {
		fmt.Fprintln(w, "no affected pairs")
	} else {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CALLER\tCALLEE\tCHANGED\tCBC\tDIFF CBC\tDIFF MUTANTS\tDIFF SCORE")
		for _, p := range rep.Pairs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Caller, p.Callee, strings.Join(p.Changed, ", "), strings.Join(pairCells(p), "\t"))
		}
		tw.Flush()
		for _, p := range rep.Pairs {
			writePairText(w, p)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, verdictLine(rep))
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "  %s\n", f)
	}
}

// changeLine says what the change is.
func changeLine(rep *Report) string {
	goFiles, goLines, other := 0, 0, 0
	for _, f := range rep.Changed {
		if strings.HasSuffix(f.File, ".go") {
			goFiles++
			goLines += len(f.Lines)
		} else {
			other++
		}
	}
	to := "HEAD"
	if rep.Worktree {
		to = "the work tree at HEAD"
	}
	return fmt.Sprintf("change from %s (merge base %s) to %s %s: %s (%s), %s",
		rep.Base, short(rep.MergeBase), to, short(rep.Head),
		plural(goFiles, "Go file"), plural(goLines, "line"), plural(other, "other file"))
}

// verdictLine is the gate's verdict.
func verdictLine(rep *Report) string {
	skipped := 0
	for _, p := range rep.Pairs {
		if p.Skipped != "" {
			skipped++
		}
	}
	var v string
	switch {
	case !rep.Passed:
		v = "gate failed:"
	case rep.Thresholds == (Thresholds{}):
		v = "gate passed (no threshold set)"
	default:
		v = "gate passed"
	}
	if skipped > 0 {
		v = strings.TrimSuffix(v, ":") + fmt.Sprintf("; %s skipped, not judged", plural(skipped, "pair"))
		if !rep.Passed {
			v += ":"
		}
	}
	return v
}

// pairCells are a pair's measures as table cells: CBC, diff CBC, diff
// mutants (detected of viable), diff score.
func pairCells(p *PairReport) []string {
	if p.Skipped != "" {
		return []string{"skipped", "-", "-", "-"}
	}
	cells := []string{fraction(p.Covered, p.CoupledBranches), fraction(p.DiffCovered, p.DiffCoupledBranches)}
	viable := len(p.Mutants) - p.MutantCounts[mutate.NotViable]
	detected := p.MutantCounts[mutate.Killed] + p.MutantCounts[mutate.Timeout]
	switch {
	case p.MutantsError != "":
		cells = append(cells, "not evaluated", "n/a")
	case viable == 0:
		cells = append(cells, "none", "n/a")
	default:
		cells = append(cells, fmt.Sprintf("%d/%d detected", detected, viable), percentOrNA(p.DiffScore))
	}
	return cells
}

// writePairText lists what a pair misses and what cling gen added.
func writePairText(w io.Writer, p *PairReport) {
	if p.Skipped != "" {
		fmt.Fprintf(w, "\n%s -> %s\n  skipped: %s\n", p.Caller, p.Callee, p.Skipped)
		return
	}
	uncovered, undetected := p.Uncovered(), p.Undetected()
	if len(uncovered) == 0 && len(undetected) == 0 && len(p.FailedTests) == 0 && p.MutantsError == "" && len(p.Notes) == 0 && p.Gen == nil {
		return
	}
	fmt.Fprintf(w, "\n%s -> %s\n", p.Caller, p.Callee)
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	if len(p.FailedTests) > 0 {
		fmt.Fprintf(w, "  failing tests: %s\n", strings.Join(p.FailedTests, ", "))
	}
	if p.MutantsError != "" {
		fmt.Fprintf(w, "  mutants on changed lines %s\n", p.MutantsError)
	}
	if len(uncovered) > 0 {
		fmt.Fprintf(w, "  %s not covered (call site, caller target -> callee target):\n", plural(len(uncovered), "diff coupled branch"))
		writeList(w, len(uncovered), func(i int) string {
			d := uncovered[i]
			gen := ""
			if d.Generated {
				gen = "  (covered by the generated tests)"
			}
			return fmt.Sprintf("%s  %s -> %s%s", d.CallSite, d.CallerTarget, d.CalleeTarget, gen)
		})
	}
	if len(undetected) > 0 {
		fmt.Fprintf(w, "  %s on changed lines not detected:\n", plural(len(undetected), "mutant"))
		writeList(w, len(undetected), func(i int) string {
			m := undetected[i]
			return fmt.Sprintf("#%d %s %s %s: %s", m.ID, m.Operator, m.Pos, m.Status, m.Description)
		})
	}
	if g := p.Gen; g != nil {
		fmt.Fprintf(w, "  cling gen: %s\n", genText(g))
	}
}

// writeList writes the items 0..n-1, indented, up to maxListed of them.
func writeList(w io.Writer, n int, item func(i int) string) {
	for i := 0; i < n; i++ {
		if i == maxListed {
			fmt.Fprintf(w, "    ... and %d more (--json lists them all)\n", n-maxListed)
			return
		}
		fmt.Fprintf(w, "    %s\n", item(i))
	}
}

// genText says what cling gen did for a pair.
func genText(g *GenReport) string {
	switch {
	case g.Skipped != "":
		return "skipped, " + g.Skipped
	case g.Error != "" && g.TestFile == "":
		return "no tests written: " + g.Error
	}
	s := fmt.Sprintf("wrote %s (%s): +%d diff coupled branches covered (diff CBC %s), +%d mutants detected",
		g.TestFile, plural(g.Tests, "test"), g.AddedCoupledBranches, percentOrNA(g.DiffCBC), len(g.AddedMutants))
	if len(g.AddedMutants) > 0 {
		ids := make([]string, len(g.AddedMutants))
		for i, id := range g.AddedMutants {
			ids[i] = fmt.Sprintf("#%d", id)
		}
		s += " (" + strings.Join(ids, ", ") + ")"
	}
	s += fmt.Sprintf(" (diff score %s)", percentOrNA(g.DiffScore))
	if g.Error != "" {
		s += "; " + g.Error
	}
	return s
}

// fraction is "k/n (p%)", or "0/0" when n is 0.
func fraction(k, n int) string {
	if n == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%s)", k, n, Percent(float64(k)/float64(n)))
}

func percentOrNA(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return Percent(*v)
}

// plural is "1 noun" or "n nouns" (a noun ending in "ch" takes "es").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// short abbreviates a commit hash.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}
