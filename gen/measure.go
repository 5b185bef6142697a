package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/probe"
)

// measureCriteria reports the coverage of every criterion by the written
// tests: it runs them once under the probes of every criterion, as `cling
// cbc --criteria all --run` would, but from a test binary that runs in a
// copy of the package directory (as verification does), so that nothing
// the tests do touches the module.
func (j *job) measureCriteria(ctx context.Context) ([]criteria.Coverage, error) {
	all := criteria.All()
	plan := probe.NewPlanWith(j.a, probe.Coverage, j.targets, criteria.MeasuredExtrasOf(all))
	sess, err := probe.NewSessionWith(plan)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	r := j.a.Caller.Pkg
	if _, err := probe.MarkTests(sess.WS, r.Dir, sess.RTImport); err != nil {
		return nil, err
	}
	overlay, err := sess.WS.OverlayFile()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(sess.WS.Dir, "measure.test")
	out, err := gotest.Build(ctx, gotest.BuildOptions{Dir: j.a.Prog.Dir, Package: r.Path, Binary: bin, Overlay: overlay, Tags: j.cfg.Tags})
	j.debug(out)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Msg: "the instrumented build that measures the criteria failed (a cling bug; please report it): " + firstLine(strings.Split(string(out), "\n"))}
	}
	dir := filepath.Join(sess.WS.Dir, "pkg")
	if err := fstree.CopyPackage(r.Dir, dir); err != nil {
		return nil, err
	}
	coverDir, err := sess.CoverDir()
	if err != nil {
		return nil, err
	}
	timeout := max(2*time.Minute, time.Duration(len(j.final))*j.cfg.Timeout)
	ran, err := gotest.Run(ctx, gotest.RunOptions{
		Binary: bin, Dir: dir, Run: gotest.RunPattern(namesOf(j.final)), Count: 1, Timeout: timeout,
		Env: append(os.Environ(), "CLING_COVER_DIR="+coverDir),
	})
	if err != nil {
		return nil, err
	}
	if ran.TimedOut || ran.Err != nil && len(ran.Report.Tests) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("measuring the criteria: the written tests did not run under the probes: %s", ran.TailLines(3))}
	}
	run := &probe.TestRun{}
	if err := sess.Collect(coverDir, run); err != nil {
		return nil, err
	}
	pair := criteria.NewPair(j.a, j.targets, j.cfg.Fitness)
	cov := criteria.Measure(pair, all, run)
	for i := range cov {
		cov[i].Goals = nil // the file's report counts; cling cbc -v lists
	}
	return cov, nil
}
