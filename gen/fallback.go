package gen

import (
	"context"

	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// maxFallbackLevels bounds how far back finish reaches into the tests the
// archive replaced.
const maxFallbackLevels = 2

// finish turns the archive into the verified file: the archive's tests,
// reduced to a subset that covers the same goals (reduce), go through
// the passes minimise, observe, name and verify, and the survivors make
// the file. A goal whose test is dropped on the way, because it behaved
// differently from run to run or failed under go test, gets the test the
// archive holds for it when reduce left that one out, then the test the
// archive held for it before that one, through the same passes and
// verified together with the tests that survived; then the one before
// that, up to maxFallbackLevels. The file ends in j.src, j.final and
// j.dropped.
func (j *job) finish(ctx context.Context, archive *mosa.Archive) error {
	all := archive.Tests()
	wanted := goalsOf(all)
	candidates, err := j.reduce(ctx, archive, all)
	if err != nil {
		return err
	}
	tried := map[*testcase.Test]bool{}
	for level := -1; level <= maxFallbackLevels; level++ {
		switch {
		case level == 0:
			// The holders reduce left out.
			candidates = untried(archive.Holders(j.lost(wanted)), tried)
		case level > 0:
			candidates = archive.Fallbacks(j.lost(wanted), level-1)
		}
		if len(candidates) == 0 {
			continue
		}
		for _, c := range candidates {
			tried[c.Test] = true
		}
		minimised, err := j.minimise(ctx, candidates, archive.KeepsCheaper())
		if err != nil {
			return err
		}
		if candidates, minimised, err = j.reduceAgain(ctx, archive, candidates, minimised); err != nil {
			return err
		}
		observed, err := j.observe(ctx, candidates, minimised)
		if err != nil {
			return err
		}
		if named := j.name(observed); len(named) > 0 {
			v, err := j.verify(ctx, append(append([]namedTest(nil), j.final...), named...))
			if err != nil {
				return err
			}
			j.admit(named, v)
		}
	}
	return nil
}

// reduceAgain reduces the minimised tests once more: a test shrunk to
// its own goals can still cover those of another, which the other's
// minimised version then makes redundant. It returns the originals and
// the minimised tests that stay, in their order, the minimised ones
// with the goals they now answer for.
func (j *job) reduceAgain(ctx context.Context, archive *mosa.Archive, originals, minimised []mosa.ArchivedTest) ([]mosa.ArchivedTest, []mosa.ArchivedTest, error) {
	kept, err := j.reduce(ctx, archive, minimised)
	if err != nil || len(kept) == len(minimised) {
		return originals, minimised, err
	}
	goals := map[*testcase.Test][]int32{}
	for _, k := range kept {
		goals[k.Test] = k.Goals
	}
	var outOriginals, outMinimised []mosa.ArchivedTest
	for i, m := range minimised {
		if g, ok := goals[m.Test]; ok {
			outOriginals = append(outOriginals, originals[i])
			outMinimised = append(outMinimised, mosa.ArchivedTest{Test: m.Test, Goals: g})
		}
	}
	return outOriginals, outMinimised, nil
}

// untried returns the tests of tests not in tried.
func untried(tests []mosa.ArchivedTest, tried map[*testcase.Test]bool) []mosa.ArchivedTest {
	var out []mosa.ArchivedTest
	for _, t := range tests {
		if !tried[t.Test] {
			out = append(out, t)
		}
	}
	return out
}

// goalsOf lists the goals the tests are kept for, in order.
func goalsOf(tests []mosa.ArchivedTest) []int32 {
	var goals []int32
	for _, t := range tests {
		goals = append(goals, t.Goals...)
	}
	return goals
}

// admit takes the verdict on the file's tests plus the new ones, named:
// when a set of them passed, it is the file, and the tests verify dropped
// are reported; when none did, the file stays as it was and the new tests
// are reported dropped under the names they were given. Either way, the
// names of the file's tests are taken.
func (j *job) admit(named []namedTest, v verdict) {
	if v.src != nil {
		j.src, j.final = v.src, v.passed
		j.dropped = append(j.dropped, v.dropped...)
	} else {
		j.dropped = append(j.dropped, namesOf(named)...)
	}
	for _, t := range j.final {
		j.taken[t.Name] = true
	}
}

// lost returns the goals of wanted that no test of the file covers, in
// the order of wanted.
func (j *job) lost(wanted []int32) []int32 {
	covered := map[int32]bool{}
	for _, t := range j.final {
		for _, g := range t.covers {
			covered[g] = true
		}
	}
	var lost []int32
	for _, g := range wanted {
		if !covered[g] {
			lost = append(lost, g)
		}
	}
	return lost
}
