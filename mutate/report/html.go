package report

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cling-go/cling/mutate"
)

// WriteHTML writes a static HTML report of a run to dir/index.html: the
// source of R and E with each mutant marked by its status, filterable by
// status and operator, in one self-contained file.
func WriteHTML(dir string, res *mutate.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, newHTMLData(res)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), buf.Bytes(), 0o644)
}

type htmlData struct {
	Caller, Callee string
	Score          string
	Detected       int
	Viable         int
	Tests          int
	Statuses       []htmlCount
	Operators      []htmlOpRow
	StatusNames    []mutate.Status
	Files          []htmlFile
	Compare        *mutate.Comparison
	CompareScores  []string
}

type htmlCount struct {
	Status mutate.Status
	N      int
}

type htmlOpRow struct {
	Operator mutate.Operator
	Counts   []int
	Total    int
	Score    string
}

type htmlFile struct {
	Rel, Package string
	ID           string
	Counts       []htmlCount
	Lines        []htmlLine
}

type htmlLine struct {
	N       int
	Code    string
	Mutants []htmlMutant
}

type htmlMutant struct {
	ID          int
	Operator    mutate.Operator
	Status      mutate.Status
	Col         int
	Description string
	KilledBy    string
	Tests       int
	Reason      string
}

func newHTMLData(res *mutate.Result) *htmlData {
	d := &htmlData{Caller: res.Caller, Callee: res.Callee, Tests: len(res.Tests), StatusNames: mutate.Statuses(), Compare: res.Compare}
	counts := res.Counts()
	for _, s := range mutate.Statuses() {
		d.Statuses = append(d.Statuses, htmlCount{s, counts[s]})
	}
	for _, m := range res.Mutants {
		if m.Status != mutate.NotViable {
			d.Viable++
			if m.Detected() {
				d.Detected++
			}
		}
	}
	d.Score = pct(res.Score(), d.Viable)
	byOp := map[mutate.Operator][]*mutate.Mutant{}
	byFile := map[string][]*mutate.Mutant{}
	for _, m := range res.Mutants {
		byOp[m.Operator] = append(byOp[m.Operator], m)
		byFile[m.Rel] = append(byFile[m.Rel], m)
	}
	for _, o := range res.Operators {
		row := htmlOpRow{Operator: o, Total: len(byOp[o]), Score: scoreText(byOp[o])}
		c := map[mutate.Status]int{}
		for _, m := range byOp[o] {
			c[m.Status]++
		}
		for _, s := range mutate.Statuses() {
			row.Counts = append(row.Counts, c[s])
		}
		d.Operators = append(d.Operators, row)
	}
	for i, src := range res.Sources {
		f := htmlFile{Rel: src.Rel, Package: src.Package, ID: fmt.Sprintf("f%d", i)}
		ms := byFile[src.Rel]
		c := map[mutate.Status]int{}
		byLine := map[int][]*mutate.Mutant{}
		for _, m := range ms {
			c[m.Status]++
			byLine[m.Line] = append(byLine[m.Line], m)
		}
		for _, s := range mutate.Statuses() {
			if c[s] > 0 {
				f.Counts = append(f.Counts, htmlCount{s, c[s]})
			}
		}
		lines := strings.Split(strings.TrimSuffix(src.Text, "\n"), "\n")
		for n, code := range lines {
			l := htmlLine{N: n + 1, Code: strings.ReplaceAll(code, "\t", "    ")}
			lm := byLine[n+1]
			sort.SliceStable(lm, func(i, j int) bool { return lm[i].ID < lm[j].ID })
			for _, m := range lm {
				l.Mutants = append(l.Mutants, htmlMutant{ID: m.ID, Operator: m.Operator, Status: m.Status, Col: m.Col,
					Description: m.Description, KilledBy: strings.Join(m.KilledBy, ", "), Tests: len(m.Tests), Reason: m.Reason})
			}
			f.Lines = append(f.Lines, l)
		}
		d.Files = append(d.Files, f)
	}
	if c := res.Compare; c != nil {
		d.CompareScores = []string{pct(c.ScoreExisting, d.Viable), pct(c.ScoreGenerated, d.Viable), pct(c.ScoreCombined, d.Viable)}
	}
	return d
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": func(ids []int) string {
		if len(ids) == 0 {
			return "none"
		}
		return strings.TrimSuffix(strings.TrimPrefix(idList(ids), " ("), ")")
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cling mutate: {{.Caller}} → {{.Callee}}</title>
<style>
:root { --killed:#2e7d32; --survived:#c62828; --not-covered:#b26a00; --timeout:#6a1b9a; --not-viable:#757575; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #263238; color: #fff; padding: 14px 24px; }
header h1 { margin: 0 0 4px; font-size: 20px; font-weight: 600; }
header .sub { color: #b0bec5; font-size: 13px; }
main { padding: 16px 24px; }
.summary { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
.score { font-size: 40px; font-weight: 700; }
.score small { display: block; font-size: 13px; font-weight: 400; color: #555; }
table.ops { border-collapse: collapse; font-size: 13px; background: #fff; }
table.ops th, table.ops td { border: 1px solid #ddd; padding: 4px 10px; text-align: right; }
table.ops th:first-child, table.ops td:first-child { text-align: left; }
.pill { display: inline-block; border-radius: 10px; padding: 1px 8px; color: #fff; font-size: 12px; margin: 1px 2px; cursor: pointer; white-space: nowrap; }
.s-killed { background: var(--killed); } .s-survived { background: var(--survived); } .s-not-covered { background: var(--not-covered); }
.s-timeout { background: var(--timeout); } .s-not-viable { background: var(--not-viable); }
.filters { margin: 16px 0; padding: 10px 12px; background: #fff; border: 1px solid #ddd; font-size: 13px; display: flex; gap: 18px; flex-wrap: wrap; }
.filters fieldset { border: none; margin: 0; padding: 0; }
.filters legend { font-weight: 600; padding: 0; margin-bottom: 4px; }
.filters label { margin-right: 10px; white-space: nowrap; }
details.file { background: #fff; border: 1px solid #ddd; margin: 10px 0; }
details.file > summary { padding: 8px 12px; cursor: pointer; font-family: ui-monospace, monospace; font-size: 13px; background: #eceff1; }
details.file > summary .pkg { color: #607d8b; margin-left: 8px; font-family: system-ui, sans-serif; }
table.src { border-collapse: collapse; width: 100%; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12.5px; }
table.src td { padding: 0 8px; vertical-align: top; white-space: pre; }
table.src td.n { color: #90a4ae; text-align: right; user-select: none; width: 1%; }
table.src td.m { width: 96px; min-width: 96px; padding: 0 4px; white-space: normal; }
tr.l-killed td.c { background: #e8f5e9; } tr.l-survived td.c { background: #ffebee; } tr.l-not-covered td.c { background: #fff3e0; }
tr.l-timeout td.c { background: #f3e5f5; } tr.l-not-viable td.c { background: #f5f5f5; }
tr.detail td { white-space: normal; font-family: system-ui, sans-serif; font-size: 12.5px; background: #fffde7; padding: 4px 10px 6px 40px; }
tr.detail ul { margin: 0; padding-left: 16px; }
tr.detail .why { color: #666; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 2px; }
.compare { background: #fff; border: 1px solid #ddd; padding: 8px 12px; font-size: 13px; margin-top: 12px; }
.hidden { display: none !important; }
</style>
</head>
<body>
<header>
<h1>cling mutate</h1>
<div class="sub">caller <b>{{.Caller}}</b> → callee <b>{{.Callee}}</b> · {{.Tests}} tests</div>
</header>
<main>
<div class="summary">
<div class="score">{{.Score}}<small>mutation score: {{.Detected}} of {{.Viable}} viable mutants killed or timed out</small></div>
<table class="ops">
<tr><th>operator</th>{{range .StatusNames}}<th><span class="dot s-{{.}}"></span>{{.}}</th>{{end}}<th>total</th><th>score</th></tr>
{{range .Operators}}<tr><td>{{.Operator}}</td>{{range .Counts}}<td>{{.}}</td>{{end}}<td>{{.Total}}</td><td>{{.Score}}</td></tr>
{{end}}</table>
</div>
{{with .Compare}}<div class="compare"><b>compared with {{.File}}</b> ({{len .Tests}} tests):
detected only by the generated tests: {{len .OnlyGenerated}} ({{join .OnlyGenerated}});
only by the existing tests: {{len .OnlyExisting}} ({{join .OnlyExisting}}); by both: {{len .Both}}.
{{end}}{{with .CompareScores}} Scores: existing {{index . 0}}, generated {{index . 1}}, together {{index . 2}}.</div>{{end}}
<div class="filters">
<fieldset><legend>status</legend>
{{range .Statuses}}<label><input type="checkbox" class="fs" value="{{.Status}}" checked> <span class="dot s-{{.Status}}"></span>{{.Status}} ({{.N}})</label>{{end}}
</fieldset>
<fieldset><legend>operator</legend>
{{range .Operators}}<label><input type="checkbox" class="fo" value="{{.Operator}}" checked> {{.Operator}}</label>{{end}}
</fieldset>
<fieldset><legend>view</legend>
<label><input type="checkbox" id="only" > only lines with mutants</label>
<label><input type="checkbox" id="details"> expand all mutants</label>
</fieldset>
</div>
{{range .Files}}<details class="file" open id="{{.ID}}">
<summary>{{.Rel}}<span class="pkg">{{.Package}}</span> {{range .Counts}}<span class="pill s-{{.Status}}">{{.N}} {{.Status}}</span>{{end}}</summary>
<table class="src">
{{range .Lines}}<tr class="code{{if .Mutants}} has{{end}}"><td class="n">{{.N}}</td><td class="m">{{range .Mutants}}<span class="pill s-{{.Status}} mut" data-s="{{.Status}}" data-o="{{.Operator}}" title="#{{.ID}} {{.Operator}}: {{.Description}} ({{.Status}})">{{.ID}}</span>{{end}}</td><td class="c">{{.Code}}</td></tr>
{{if .Mutants}}<tr class="detail hidden"><td></td><td colspan="2"><ul>{{range .Mutants}}<li class="mi" data-s="{{.Status}}" data-o="{{.Operator}}"><span class="pill s-{{.Status}}">{{.Status}}</span> <b>#{{.ID}} {{.Operator}}</b> col {{.Col}}: {{.Description}}{{if .KilledBy}} <span class="why">— killed by {{.KilledBy}}</span>{{else if eq .Status "survived"}} <span class="why">— {{if eq .Tests 1}}1 test reaches it and passes{{else}}{{.Tests}} tests reach it, none fails{{end}}</span>{{end}}{{if .Reason}} <span class="why">— {{.Reason}}</span>{{end}}</li>{{end}}</ul></td></tr>{{end}}
{{end}}</table>
</details>
{{end}}
</main>
<script>
(function () {
  var order = ["survived", "timeout", "not-covered", "killed", "not-viable"];
  function checked(cls) {
    var set = {};
    document.querySelectorAll("input." + cls).forEach(function (c) { if (c.checked) set[c.value] = true; });
    return set;
  }
  function apply() {
    var st = checked("fs"), op = checked("fo");
    var only = document.getElementById("only").checked;
    var all = document.getElementById("details").checked;
    document.querySelectorAll("tr.code").forEach(function (tr) {
      var worst = null, any = false;
      tr.querySelectorAll(".mut").forEach(function (p) {
        var vis = st[p.dataset.s] && op[p.dataset.o];
        p.classList.toggle("hidden", !vis);
        if (vis) {
          any = true;
          if (worst === null || order.indexOf(p.dataset.s) < order.indexOf(worst)) worst = p.dataset.s;
        }
      });
      order.forEach(function (s) { tr.classList.remove("l-" + s); });
      if (worst) tr.classList.add("l-" + worst);
      tr.classList.toggle("hidden", only && !any);
      var d = tr.nextElementSibling;
      if (d && d.classList.contains("detail")) {
        d.querySelectorAll(".mi").forEach(function (li) { li.classList.toggle("hidden", !(st[li.dataset.s] && op[li.dataset.o])); });
        if (all) d.classList.toggle("hidden", !any);
        else if (!any) d.classList.add("hidden");
      }
    });
  }
  function files() {
    var only = document.getElementById("only").checked;
    document.querySelectorAll("details.file").forEach(function (f) {
      var any = f.querySelector("tr.code.has:not(.hidden) .mut:not(.hidden)") !== null;
      f.classList.toggle("hidden", only && !any);
    });
  }
  var inner = apply;
  apply = function () { inner(); files(); };
  document.querySelectorAll("input").forEach(function (c) { c.addEventListener("change", apply); });
  document.querySelectorAll("tr.code.has td.m, tr.code.has td.c").forEach(function (td) {
    td.addEventListener("click", function () {
      var d = td.parentElement.nextElementSibling;
      if (d && d.classList.contains("detail")) d.classList.toggle("hidden");
    });
  });
  apply();
})();
</script>
</body>
</html>
`))
