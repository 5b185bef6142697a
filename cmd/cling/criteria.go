package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/mosa"
)

// criteriaList formats the registered criteria for a help text, one per
// line: the name, then its doc.
func criteriaList() string {
	var entries []mosa.Entry
	for _, c := range criteria.All() {
		entries = append(entries, mosa.Entry{Name: c.Name, Doc: c.Doc})
	}
	return entryList(entries)
}

// writeCriteria prints the coverage of criteria under a title: covered
// of total goals, or the count found for panics.
func writeCriteria(w io.Writer, title string, cov []criteria.Coverage) {
	if len(cov) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range cov {
		if c.Found {
			fmt.Fprintf(tw, "  %s\t%d found\n", c.Criterion, c.Covered)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%d of %d (%s)\n", c.Criterion, c.Covered, c.Total, percent(c.Covered, c.Total))
	}
	tw.Flush()
}

// writeGoals lists the goals of a criterion: all with their status when
// verbose, else the uncovered ones if there are at most maxListed (the
// panics found, always).
func writeGoals(w io.Writer, cov criteria.Coverage, verbose bool) {
	var shown []criteria.GoalCoverage
	for _, g := range cov.Goals {
		if verbose || !g.Covered || cov.Found {
			shown = append(shown, g)
		}
	}
	switch {
	case len(shown) == 0:
		return
	case !verbose && !cov.Found && len(shown) > maxListed:
		fmt.Fprintf(w, "\n%s: %d goals uncovered (-v lists them)\n", cov.Criterion, len(shown))
		return
	}
	what := "uncovered"
	switch {
	case cov.Found:
		what = "found"
	case verbose:
		what = "goals"
	}
	fmt.Fprintf(w, "\n%s, %s:\n", cov.Criterion, what)
	for _, g := range shown {
		mark := "  "
		if verbose && g.Covered {
			mark = "✓ "
		}
		fmt.Fprintf(w, "  %s%s\n", mark, g.ID)
	}
}
