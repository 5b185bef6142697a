// Package report renders the result of a mutation run (a mutate.Result)
// for people and for programs: a text summary with the surviving mutants
// and their source lines, a JSON document, and a self-contained HTML page
// of R's and E's source with every mutant marked by its status. Rendering
// only reads the result: the same result gives the same bytes.
package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cling-go/cling/mutate"
)

// WriteText writes the text report: a table of operators by status, the
// score, the surviving mutants with their source line, and the comparison.
func WriteText(w io.Writer, res *mutate.Result) {
	fmt.Fprintf(w, "caller %s\ncallee %s\n", res.Caller, res.Callee)
	pkgs := map[string]bool{}
	for _, t := range res.Tests {
		pkgs[t[:strings.LastIndexByte(t, '.')]] = true
	}
	fmt.Fprintf(w, "%s, %s in %s\n\n", plural(len(res.Mutants), "mutant"), plural(len(res.Tests), "test"), plural(len(pkgs), "package"))

	// Names padded to one width come out left-aligned in right-aligned
	// columns.
	width := len("OPERATOR")
	for _, o := range res.Operators {
		width = max(width, len(o))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len(s)) }
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, pad("OPERATOR")+"\t")
	for _, s := range mutate.Statuses() {
		fmt.Fprintf(tw, "%s\t", strings.ToUpper(string(s)))
	}
	fmt.Fprintln(tw, "TOTAL\tSCORE\t")
	byOp := map[mutate.Operator][]*mutate.Mutant{}
	for _, m := range res.Mutants {
		byOp[m.Operator] = append(byOp[m.Operator], m)
	}
	row := func(name string, ms []*mutate.Mutant) {
		c := map[mutate.Status]int{}
		for _, m := range ms {
			c[m.Status]++
		}
		fmt.Fprintf(tw, "%s\t", pad(name))
		for _, s := range mutate.Statuses() {
			fmt.Fprintf(tw, "%d\t", c[s])
		}
		fmt.Fprintf(tw, "%d\t%s\t\n", len(ms), scoreText(ms))
	}
	for _, o := range res.Operators {
		row(string(o), byOp[o])
	}
	row("total", res.Mutants)
	tw.Flush()

	det, viable := 0, 0
	for _, m := range res.Mutants {
		if m.Status != mutate.NotViable {
			viable++
			if m.Detected() {
				det++
			}
		}
	}
	fmt.Fprintf(w, "\nmutation score: %s (%d of %d viable mutants killed or timed out)\n", pct(res.Score(), viable), det, viable)

	src := map[string][]string{}
	for _, s := range res.Sources {
		src[s.Rel] = strings.Split(s.Text, "\n")
	}
	var survivors []*mutate.Mutant
	for _, m := range res.Mutants {
		if m.Status == mutate.Survived {
			survivors = append(survivors, m)
		}
	}
	if len(survivors) > 0 {
		fmt.Fprintf(w, "\n%s survived:\n", plural(len(survivors), "mutant"))
		for _, m := range survivors {
			fmt.Fprintf(w, "\n#%d %s %s: %s\n", m.ID, m.Operator, m.Pos(), m.Description)
			if lines := src[m.Rel]; m.Line-1 < len(lines) {
				line, col := expandTabs(lines[m.Line-1], m.Col)
				prefix := fmt.Sprintf("  %5d | ", m.Line)
				fmt.Fprintf(w, "%s%s\n%s^\n", prefix, line, strings.Repeat(" ", len(prefix)+col-1))
			}
		}
	}
	if c := res.Compare; c != nil {
		fmt.Fprintf(w, "\ncompared with %s (%s):\n", c.File, plural(len(c.Tests), "test"))
		fmt.Fprintf(w, "  detected only by the generated tests: %d%s\n", len(c.OnlyGenerated), idList(c.OnlyGenerated))
		fmt.Fprintf(w, "  detected only by the existing tests:  %d%s\n", len(c.OnlyExisting), idList(c.OnlyExisting))
		fmt.Fprintf(w, "  detected by both:                     %d\n", len(c.Both))
		fmt.Fprintf(w, "  score: existing %s, generated %s, together %s (%+.1f points)\n",
			pct(c.ScoreExisting, viable), pct(c.ScoreGenerated, viable), pct(c.ScoreCombined, viable), 100*(c.ScoreCombined-c.ScoreExisting))
	}
}

// expandTabs replaces tabs by four spaces and maps a 1-based byte column.
func expandTabs(line string, col int) (string, int) {
	var b strings.Builder
	newCol := 1
	for i, r := range line {
		if i == col-1 {
			newCol = b.Len() + 1
		}
		if r == '\t' {
			b.WriteString("    ")
		} else {
			b.WriteRune(r)
		}
	}
	if col-1 >= len(line) {
		newCol = b.Len() + 1
	}
	return b.String(), newCol
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func idList(ids []int) string {
	if len(ids) == 0 {
		return ""
	}
	const max = 20
	var parts []string
	for i, id := range ids {
		if i == max {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("#%d", id))
	}
	return " (" + strings.Join(parts, " ") + ")"
}

func scoreText(ms []*mutate.Mutant) string {
	viable := 0
	for _, m := range ms {
		if m.Status != mutate.NotViable {
			viable++
		}
	}
	return pct(mutate.Score(ms), viable)
}

func pct(x float64, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
