package gate

import (
	"fmt"
	"io"
	"strings"
)

// annotationTitles are the titles of the GitHub annotations of each rule.
var annotationTitles = map[string]string{
	RuleUncoveredBranch:  "cling: uncovered coupled branch",
	RuleUndetectedMutant: "cling: undetected mutant",
}

// WriteAnnotations writes the report as GitHub Actions workflow commands:
// an error for each failure, and a warning at each line that holds
// findings (findings of one rule on one line make one annotation), at most
// max of them; one more warning counts those left out.
func WriteAnnotations(w io.Writer, rep *Report, max int) {
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "::error title=%s::%s\n", escapeProperty("cling ci"), escapeData(f))
	}
	type key struct {
		rule, file string
		line       int
	}
	var order []key
	groups := map[key][]Finding{}
	for _, f := range rep.Findings {
		k := key{f.Rule, f.File, f.Line}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	left := 0
	for i, k := range order {
		fs := groups[k]
		if i >= max {
			left += len(fs)
			continue
		}
		msg := fs[0].Message
		if len(fs) > 1 {
			const listed = 3
			var parts []string
			for j, f := range fs {
				if j == listed {
					parts = append(parts, fmt.Sprintf("and %d more", len(fs)-listed))
					break
				}
				parts = append(parts, f.Message)
			}
			msg = fmt.Sprintf("%d findings on this line: %s", len(fs), strings.Join(parts, "; "))
		}
		fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(k.file), k.line, fs[0].Col, escapeProperty(annotationTitles[k.rule]), escapeData(msg))
	}
	if left > 0 {
		fmt.Fprintf(w, "::warning title=%s::%s\n", escapeProperty("cling ci"),
			escapeData(fmt.Sprintf("%s not annotated (--max-annotations %d); the job summary and the JSON report list them all", plural(left, "more finding"), max)))
	}
}

// escapeData escapes the message of a workflow command.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// WriteMarkdown writes the report as Markdown for a GitHub job summary:
// the verdict, a table of the affected pairs, the failures, and per pair
// what its tests miss.
func WriteMarkdown(w io.Writer, rep *Report) {
	verdict := "passed"
	if !rep.Passed {
		verdict = "**failed**"
	}
	fmt.Fprintf(w, "## cling ci: %s\n\n%s\n\n", verdict, mdEscape(changeLine(rep)))
	if len(rep.Pairs) == 0 {
		fmt.Fprint(w, "No affected pairs.\n")
		return
	}
	fmt.Fprint(w, "| Caller | Callee | Changed | CBC | Diff CBC | Diff mutants | Diff score |\n")
	fmt.Fprint(w, "|---|---|---|---|---|---|---|\n")
	for _, p := range rep.Pairs {
		cells := pairCells(p)
		for i := range cells {
			cells[i] = mdEscape(cells[i])
		}
		fmt.Fprintf(w, "| `%s` | `%s` | %s | %s |\n", p.Caller, p.Callee, strings.Join(p.Changed, ", "), strings.Join(cells, " | "))
	}
	if len(rep.Failures) > 0 {
		fmt.Fprint(w, "\n### Failures\n\n")
		for _, f := range rep.Failures {
			fmt.Fprintf(w, "- %s\n", mdEscape(f))
		}
	}
	heading := false
	for _, p := range rep.Pairs {
		if p.Skipped == "" {
			continue
		}
		if !heading {
			fmt.Fprint(w, "\n### Skipped, not judged\n\n")
			heading = true
		}
		fmt.Fprintf(w, "- `%s` → `%s`: %s\n", p.Caller, p.Callee, mdEscape(p.Skipped))
	}
	for _, p := range rep.Pairs {
		writePairMarkdown(w, p)
	}
}

// writePairMarkdown lists, in a collapsed section, what a pair misses.
func writePairMarkdown(w io.Writer, p *PairReport) {
	if p.Skipped != "" {
		return
	}
	uncovered, undetected := p.Uncovered(), p.Undetected()
	if len(uncovered) == 0 && len(undetected) == 0 && p.Gen == nil {
		return
	}
	fmt.Fprintf(w, "\n<details><summary><code>%s</code> → <code>%s</code>: %s not covered, %s not detected</summary>\n\n",
		p.Caller, p.Callee, plural(len(uncovered), "diff coupled branch"), plural(len(undetected), "mutant"))
	for _, d := range uncovered {
		gen := ""
		if d.Generated {
			gen = " (covered by the generated tests)"
		}
		fmt.Fprintf(w, "- `%s` `%s` → `%s`%s\n", d.CallSite, d.CallerTarget, d.CalleeTarget, gen)
	}
	for _, m := range undetected {
		fmt.Fprintf(w, "- #%d %s `%s` %s: %s\n", m.ID, m.Operator, m.Pos, m.Status, mdEscape(m.Description))
	}
	if p.Gen != nil {
		fmt.Fprintf(w, "\ncling gen: %s\n", mdEscape(genText(p.Gen)))
	}
	fmt.Fprint(w, "\n</details>\n")
}

// mdEscape keeps text from being read as Markdown or HTML.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`").Replace(s)
}
