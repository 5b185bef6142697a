package mutate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/probe"
)

// NaiveCheck is the naive evaluation of the mutants a run executed: one
// workspace, one build and one run of the same selected tests per mutant,
// the way mutation tools without schemata work. It is measured on the same
// mutants in the same run, and every status must agree with the schemata.
type NaiveCheck struct {
	// Mutants is the number of mutants evaluated; Time the wall time of
	// the naive evaluation, builds included.
	Mutants int
	Time    time.Duration
	// Mismatches are the mutants whose naive status differs.
	Mismatches []Mismatch
}

// Mismatch is a mutant whose status differs between the schemata and the
// naive evaluation.
type Mismatch struct {
	ID              int
	Schemata, Naive Status
}

// naive re-evaluates every mutant that ran (killed, survived or timed
// out) with a build of its own.
func (r *runner) naive(ctx context.Context) (*NaiveCheck, error) {
	var todo []*Mutant
	for _, m := range r.gen.mutants {
		if m.Status == Killed || m.Status == Survived || m.Status == Timeout {
			todo = append(todo, m)
		}
	}
	table, err := probe.RuntimeSource("table.go")
	if err != nil {
		return nil, err
	}
	start := time.Now()
	chk := &NaiveCheck{Mutants: len(todo)}
	var mu sync.Mutex
	done := 0
	err = r.parallel(ctx, len(todo), func(i int) error {
		m := todo[i]
		ws, err := probe.NewWorkspace(r.cfg.Analysis.Prog)
		if err != nil {
			return err
		}
		defer ws.Close()
		rt, err := ws.RuntimeImport(table)
		if err != nil {
			return err
		}
		files, err := r.gen.mutatedFiles(rt, only(m.ID))
		if err != nil {
			return err
		}
		for _, p := range sortedPaths(files) {
			if err := ws.Set(p, files[p]); err != nil {
				return err
			}
		}
		for p, src := range r.extra {
			if err := ws.Set(p, src); err != nil {
				return err
			}
		}
		overlay, err := ws.OverlayFile()
		if err != nil {
			return err
		}
		bins := map[*suite]string{}
		build := func(ctx context.Context, s *suite) (string, error) {
			if b, ok := bins[s]; ok {
				return b, nil
			}
			b := filepath.Join(ws.Dir, fmt.Sprintf("m%d-%s.test", m.ID, filepath.Base(s.pkg.Dir)))
			if err := r.goTestC(ctx, overlay, s.pkg.Path, b, fmt.Sprintf("mutant %d", m.ID)); err != nil {
				return "", err
			}
			bins[s] = b
			return b, nil
		}
		run := func(ctx context.Context, s *suite, m *Mutant, tests []string) (*gotest.Outcome, error) {
			bin, err := build(ctx, s)
			if err != nil {
				return nil, err
			}
			return r.runMutant(ctx, bin, s, m.ID, tests)
		}
		res, err := r.evalMutant(ctx, m, run)
		if err != nil {
			return err
		}
		for _, b := range bins {
			os.Remove(b)
		}
		mu.Lock()
		defer mu.Unlock()
		if res.status != m.Status {
			chk.Mismatches = append(chk.Mismatches, Mismatch{ID: m.ID, Schemata: m.Status, Naive: res.status})
		}
		done++
		if r.cfg.Progress != nil {
			r.cfg.Progress("naive", done, len(todo))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	chk.Time = time.Since(start)
	sort.Slice(chk.Mismatches, func(i, j int) bool { return chk.Mismatches[i].ID < chk.Mismatches[j].ID })
	return chk, nil
}
