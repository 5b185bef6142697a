package mutate

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Report is the JSON form of a mutation run.
type Report struct {
	Caller    string         `json:"caller"`
	Callee    string         `json:"callee"`
	Operators []Operator     `json:"operators"`
	Tests     int            `json:"tests"`
	Mutants   []MutantReport `json:"mutants"`
	Counts    map[Status]int `json:"counts"`
	Score     float64        `json:"score"`
	Compare   *CompareReport `json:"compare,omitempty"`
	Timing    *TimingReport  `json:"timing,omitempty"`
	Naive     *NaiveReport   `json:"naive,omitempty"`
}

// MutantReport is one mutant in the JSON report.
type MutantReport struct {
	ID          int      `json:"id"`
	Operator    Operator `json:"operator"`
	Pos         string   `json:"pos"`
	Description string   `json:"description"`
	Status      Status   `json:"status"`
	KilledBy    []string `json:"killedBy"`
	// Tests is the number of tests that reach the mutant.
	Tests  int    `json:"tests"`
	Reason string `json:"reason,omitempty"`
}

// CompareReport is the --compare part of the JSON report.
type CompareReport struct {
	File           string   `json:"file"`
	Tests          []string `json:"tests"`
	OnlyGenerated  []int    `json:"onlyGenerated"`
	OnlyExisting   []int    `json:"onlyExisting"`
	Both           []int    `json:"both"`
	ScoreExisting  float64  `json:"scoreExisting"`
	ScoreGenerated float64  `json:"scoreGenerated"`
	ScoreCombined  float64  `json:"scoreCombined"`
}

// TimingReport gives the phases of a run in seconds.
type TimingReport struct {
	Generate float64 `json:"generate"`
	Build    float64 `json:"build"`
	Baseline float64 `json:"baseline"`
	Evaluate float64 `json:"evaluate"`
	Total    float64 `json:"total"`
}

// NaiveReport is the naive re-evaluation in the JSON report.
type NaiveReport struct {
	Mutants    int        `json:"mutants"`
	Seconds    float64    `json:"seconds"`
	Mismatches []Mismatch `json:"mismatches"`
}

// NewReport builds the JSON report of a run. Timings are left out unless
// withTiming, so that the same input gives the same report.
func NewReport(res *Result, withTiming bool) *Report {
	rep := &Report{
		Caller: res.Caller, Callee: res.Callee, Operators: res.Operators,
		Tests: len(res.Tests), Mutants: []MutantReport{}, Counts: map[Status]int{}, Score: res.Score(),
	}
	for _, s := range Statuses {
		rep.Counts[s] = 0
	}
	for _, m := range res.Mutants {
		rep.Counts[m.Status]++
		kb := m.KilledBy
		if kb == nil {
			kb = []string{}
		}
		rep.Mutants = append(rep.Mutants, MutantReport{
			ID: m.ID, Operator: m.Operator, Pos: m.Pos(), Description: m.Description,
			Status: m.Status, KilledBy: kb, Tests: len(m.Tests), Reason: m.Reason,
		})
	}
	if c := res.Compare; c != nil {
		tests := c.Tests
		if tests == nil {
			tests = []string{}
		}
		rep.Compare = &CompareReport{File: c.File, Tests: tests, OnlyGenerated: c.OnlyGenerated, OnlyExisting: c.OnlyExisting,
			Both: c.Both, ScoreExisting: c.ScoreExisting, ScoreGenerated: c.ScoreGenerated, ScoreCombined: c.ScoreCombined}
	}
	if withTiming {
		t := res.Timing
		rep.Timing = &TimingReport{Generate: t.Generate.Seconds(), Build: t.Build.Seconds(), Baseline: t.Baseline.Seconds(),
			Evaluate: t.Evaluate.Seconds(), Total: t.Total.Seconds()}
	}
	if n := res.Naive; n != nil {
		mm := n.Mismatches
		if mm == nil {
			mm = []Mismatch{}
		}
		rep.Naive = &NaiveReport{Mutants: n.Mutants, Seconds: n.Time.Seconds(), Mismatches: mm}
	}
	return rep
}

// WriteText writes the text report: a table of operators by status, the
// score, the surviving mutants with their source line, and the comparison.
func WriteText(w io.Writer, res *Result) {
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
	for _, s := range Statuses {
		fmt.Fprintf(tw, "%s\t", strings.ToUpper(string(s)))
	}
	fmt.Fprintln(tw, "TOTAL\tSCORE\t")
	byOp := map[Operator][]*Mutant{}
	for _, m := range res.Mutants {
		byOp[m.Operator] = append(byOp[m.Operator], m)
	}
	row := func(name string, ms []*Mutant) {
		c := map[Status]int{}
		for _, m := range ms {
			c[m.Status]++
		}
		fmt.Fprintf(tw, "%s\t", pad(name))
		for _, s := range Statuses {
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
		if m.Status != NotViable {
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
	var survivors []*Mutant
	for _, m := range res.Mutants {
		if m.Status == Survived {
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

func scoreText(ms []*Mutant) string {
	viable := 0
	for _, m := range ms {
		if m.Status != NotViable {
			viable++
		}
	}
	return pct(Score(ms), viable)
}

func pct(x float64, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
