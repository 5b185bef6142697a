package shard

import (
	"fmt"
	"html/template"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// ShortPath names a package of the module relative to the module's path
// (its last element for the module's root package); other packages keep
// their import path.
func ShortPath(module, pkg string) string {
	if pkg == module {
		return path.Base(pkg)
	}
	if rest, ok := strings.CutPrefix(pkg, module+"/"); ok {
		return rest
	}
	return pkg
}

// row is one pair of the report as the renderers show it.
type row struct {
	Pair, Coupled, Gen, Tests, CBC, Mutate, Time string
	Failures                                     []string
}

func (r *Report) rows() []row {
	var out []row
	for _, p := range r.Pairs {
		rw := row{
			Pair:     ShortPath(r.Module, p.Caller) + " → " + ShortPath(r.Module, p.Callee),
			Coupled:  fmt.Sprint(p.CoupledBranches),
			Time:     fmt.Sprintf("%.1fs", p.Seconds),
			Failures: p.Failures,
		}
		if g := p.Gen; g != nil {
			rw.Gen = fmt.Sprintf("%d → %d", g.CoveredBefore, g.CoveredAfter)
			rw.Tests = fmt.Sprint(g.Tests)
		}
		if c := p.CBC; c != nil {
			rw.CBC = fmt.Sprintf("%d (%s)", c.Covered, percent(c.Covered, p.CoupledBranches))
		}
		if m := p.Mutate; m != nil {
			rw.Mutate = fmt.Sprintf("%d/%d (%s)", m.Detected(), m.Viable(), percent(m.Detected(), m.Viable()))
		}
		out = append(out, rw)
	}
	return out
}

// columns are the headers and cells of the commands the report holds.
func (r *Report) columns() ([]string, func(row) []string) {
	heads := []string{"PAIR", "COUPLED"}
	has := map[string]bool{}
	for _, c := range r.Commands {
		has[c] = true
	}
	if has[CommandGen] {
		heads = append(heads, "COVERED BEFORE → AFTER", "TESTS WRITTEN")
	}
	if has[CommandCBC] {
		heads = append(heads, "COVERED")
	}
	if has[CommandMutate] {
		heads = append(heads, "MUTANTS DETECTED")
	}
	heads = append(heads, "TIME", "STATUS")
	return heads, func(rw row) []string {
		cells := []string{rw.Pair, rw.Coupled}
		if has[CommandGen] {
			cells = append(cells, rw.Gen, rw.Tests)
		}
		if has[CommandCBC] {
			cells = append(cells, rw.CBC)
		}
		if has[CommandMutate] {
			cells = append(cells, rw.Mutate)
		}
		status := "ok"
		if len(rw.Failures) > 0 {
			status = "failed"
		}
		return append(cells, rw.Time, status)
	}
}

// headline says what was merged.
func (r *Report) headline() string {
	s := "module " + r.Module
	if r.Plan != "" {
		s += fmt.Sprintf(", plan %s (%d shards)", r.Plan, r.Shards)
	}
	return s + ": " + strings.Join(r.Commands, ", ")
}

// totalLines sums the report up, one line per command.
func (r *Report) totalLines() []string {
	t := r.Total
	lines := []string{fmt.Sprintf("%d pairs, %d coupled branches, %d failed", t.Pairs, t.CoupledBranches, t.Failures)}
	if g := t.Gen; g != nil {
		lines = append(lines, fmt.Sprintf("gen: coupled branches covered %d → %d of %d (%s → %s), %d tests written in %d files",
			g.CoveredBefore, g.CoveredAfter, g.CoupledBranches, percent(g.CoveredBefore, g.CoupledBranches), percent(g.CoveredAfter, g.CoupledBranches), g.Tests, g.Files))
	}
	if c := t.CBC; c != nil {
		lines = append(lines, fmt.Sprintf("cbc: coupled branches covered %d of %d (%s)", c.Covered, c.CoupledBranches, percent(c.Covered, c.CoupledBranches)))
	}
	if m := t.Mutate; m != nil {
		lines = append(lines, fmt.Sprintf("mutate: %d of %d viable mutants detected (%s), %d mutants in all", m.Detected, m.Viable, percent(m.Detected, m.Viable), m.Mutants))
	}
	return lines
}

// WriteText writes the report as a table, the totals, the failures and
// the missing shards.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintln(w, r.headline())
	heads, cells := r.columns()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(heads, "\t"))
	for _, rw := range r.rows() {
		fmt.Fprintln(tw, strings.Join(cells(rw), "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, l := range r.totalLines() {
		fmt.Fprintln(w, l)
	}
	if f := r.failureLines(); len(f) > 0 {
		fmt.Fprintf(w, "\nfailures:\n")
		for _, l := range f {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if m := r.MissingText(); m != "" {
		fmt.Fprintf(w, "\nmissing results: %s\n", m)
	}
}

func (r *Report) failureLines() []string {
	var out []string
	for _, p := range r.Pairs {
		for _, f := range p.Failures {
			out = append(out, p.Pair+": "+f)
		}
	}
	return out
}

// WriteMarkdown writes the report as Markdown, for a CI job summary or a
// pull request.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## cling: %s\n\n", mdEscape(r.headline()))
	for _, l := range r.totalLines() {
		fmt.Fprintf(w, "- %s\n", mdEscape(l))
	}
	if m := r.MissingText(); m != "" {
		fmt.Fprintf(w, "- **missing results**: %s\n", mdEscape(m))
	}
	heads, cells := r.columns()
	fmt.Fprintf(w, "\n| %s |\n|", strings.Join(heads, " | "))
	for i := range heads {
		if i < 2 {
			fmt.Fprint(w, "---|")
		} else {
			fmt.Fprint(w, "---:|")
		}
	}
	fmt.Fprintln(w)
	for _, rw := range r.rows() {
		cs := cells(rw)
		for i := range cs {
			cs[i] = mdEscape(cs[i])
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cs, " | "))
	}
	if f := r.failureLines(); len(f) > 0 {
		fmt.Fprintf(w, "\n### Failures\n\n")
		for _, l := range f {
			fmt.Fprintf(w, "- %s\n", mdEscape(l))
		}
	}
}

// mdEscape keeps a table cell a cell.
func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

var htmlPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cling: {{.Headline}}</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.failed td { background: #fdd; }
</style>
</head>
<body>
<h1>cling: {{.Headline}}</h1>
<ul>{{range .Totals}}<li>{{.}}</li>{{end}}{{if .Missing}}<li><strong>missing results</strong>: {{.Missing}}</li>{{end}}</ul>
<table>
<tr>{{range .Heads}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Failed}} class="failed"{{end}}>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Failures}}<h2>Failures</h2>
<ul>{{range .Failures}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))

// WriteHTML writes the report as dir/index.html.
func (r *Report) WriteHTML(dir string) error {
	heads, cells := r.columns()
	type htmlRow struct {
		Cells  []string
		Failed bool
	}
	data := struct {
		Headline, Missing string
		Totals, Heads     []string
		Rows              []htmlRow
		Failures          []string
	}{Headline: r.headline(), Missing: r.MissingText(), Totals: r.totalLines(), Heads: heads, Failures: r.failureLines()}
	for _, rw := range r.rows() {
		data.Rows = append(data.Rows, htmlRow{Cells: cells(rw), Failed: len(rw.Failures) > 0})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	var b strings.Builder
	if err := htmlPage.Execute(&b, data); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	return nil
}

func percent(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}
