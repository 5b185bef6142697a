package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// A measure is an optional step after a cling gen run (-measure NAME):
// it measures the written file and stores figures with the run, so that
// the report compares the variants on them as on coverage. Each measure
// is registered by a file of its own (measure_*.go).
type measure struct {
	Name string
	// Doc says in one line what the measure does, for -h and the report
	// (a sentence without its full stop).
	Doc string
	// Figures are the numbers the measure records, in the report's order;
	// a measure without any has no table of its own (its numbers feed
	// another, as the criteria measure's do).
	Figures []figure
	// Run measures the written file of rec, whose saved contents are
	// file, and returns a value for every figure.
	Run func(ctx context.Context, b *bench, p *pair, rec *runRecord, file []byte) (map[string]float64, error)
}

// figure is one number a measure records for a run.
type figure struct {
	// Key names it in the results file; Label in the report.
	Key, Label string
	// Format renders a value (a mean over runs) in the report.
	Format func(float64) string
	// Compared figures are tested against the baseline's in the report:
	// Â12 and the Mann-Whitney p.
	Compared bool
}

// measurement is what one measure recorded for one run.
type measurement struct {
	Figures map[string]float64 `json:"figures,omitempty"`
	// Error says why the measure failed; a failed measure is a result,
	// not measured again.
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
}

// measures are the registered measures, by name.
var measures = map[string]*measure{}

// registerMeasure adds a measure; measure files call it from init.
func registerMeasure(m *measure) {
	if measures[m.Name] != nil {
		panic("measure " + m.Name + " registered twice")
	}
	measures[m.Name] = m
}

// measureNames lists the registered measures for -h.
func measureNames() string {
	var out []string
	for _, name := range sortedMeasures() {
		out = append(out, name+" ("+strings.ToLower(measures[name].Doc[:1])+measures[name].Doc[1:]+")")
	}
	return strings.Join(out, "; ")
}

func sortedMeasures() []string {
	names := make([]string, 0, len(measures))
	for name := range measures {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// parseMeasures parses -measure: comma-separated names of registered
// measures.
func parseMeasures(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name == "" || seen[name] {
			continue
		}
		if measures[name] == nil {
			return nil, fmt.Errorf("-measure %s: no such measure (%s)", name, strings.Join(sortedMeasures(), ", "))
		}
		seen[name] = true
		out = append(out, name)
	}
	return out, nil
}

// measureRun runs the -measure steps a successful run lacks or that
// failed before, if its saved file is still there, and says whether it
// recorded any. A step cut short by an interrupt records nothing.
func (b *bench) measureRun(ctx context.Context, p *pair, rec *runRecord) bool {
	changed := false
	for _, name := range b.opt.measures {
		if m := rec.Measures[name]; (m != nil && m.Error == "") || ctx.Err() != nil {
			continue
		}
		file := b.readSaved(rec)
		if file == nil {
			b.logf("%s: %s seed %d: its file is no longer in %s, so it is not measured with %s", p.name(), rec.Variant, rec.Seed, b.opt.results, name)
			continue
		}
		b.logf("%s: %s seed %d: %s", p.name(), rec.Variant, rec.Seed, name)
		start := time.Now()
		figures, err := measures[name].Run(ctx, b, p, rec, file)
		if ctx.Err() != nil {
			return changed
		}
		m := &measurement{Figures: figures, Seconds: time.Since(start).Seconds()}
		if err != nil {
			m.Figures, m.Error = nil, err.Error()
			b.problem("%s: measure %s of %s seed %d (%s): %v", p.name(), name, rec.Variant, rec.Seed, rec.TestFile, err)
		}
		if rec.Measures == nil {
			rec.Measures = map[string]*measurement{}
		}
		rec.Measures[name] = m
		changed = true
	}
	return changed
}

// clingOnTests runs cling with args and --run naming the tests of a run's
// file, with the file put back into R's directory, and returns what it
// printed; a file without tests, or a run that exits non-zero, is an
// error.
func (b *bench) clingOnTests(ctx context.Context, p *pair, rec *runRecord, file []byte, timeout time.Duration, args ...string) ([]byte, error) {
	names := testNames(file)
	if len(names) == 0 {
		return nil, errors.New("the file has no tests")
	}
	args = append(args, "--run", runRegex(names))
	r, err := b.withFile(p, rec, func() cmdResult {
		return b.run(ctx, p.Mod.Dir, p.Mod.Short, timeout, b.opt.cling, args...)
	})
	if err != nil {
		return nil, err
	}
	if r.Code != 0 {
		return nil, fmt.Errorf("%s: exit status %d: %s", r.Display, r.Code, r.message())
	}
	return r.Stdout, nil
}
