package harness

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Pieces are the tests left shared among the workers, at most the limit,
// so that they shrink as a batch runs out and cover it exactly once.
func TestPiecesShrinkAsTheBatchRunsOut(t *testing.T) {
	for _, c := range []struct {
		name              string
		n, workers, limit int
		want              [][2]int
	}{
		{"a generation of 50 in pieces of 20", 50, 2, 20, [][2]int{{0, 20}, {20, 35}, {35, 43}, {43, 47}, {47, 49}, {49, 50}}},
		{"shares below the limit", 8, 2, 20, [][2]int{{0, 4}, {4, 6}, {6, 7}, {7, 8}}},
		{"one worker", 5, 1, 2, [][2]int{{0, 2}, {2, 4}, {4, 5}}},
		{"a limit below one", 2, 2, 0, [][2]int{{0, 1}, {1, 2}}},
		{"no tests", 0, 2, 20, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pieces{n: c.n, workers: c.workers, limit: c.limit}
			var got [][2]int
			for {
				lo, hi := p.take()
				if lo >= hi {
					break
				}
				got = append(got, [2]int{lo, hi})
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// A worker that ended without a fatal error's report, because it exited
// through an exit the instrumentation does not intercept, is reported
// with its status; one that was killed, or that reported, keeps the
// report.
func TestCrashOfAProcessThatExited(t *testing.T) {
	state := func(script string) *os.ProcessState {
		cmd := exec.Command("sh", "-c", script)
		_ = cmd.Run()
		return cmd.ProcessState
	}
	assert.Equal(t, "exit status 3", (&crashReport{}).crash(state("exit 3")).line)
	assert.Equal(t, "", (&crashReport{}).crash(state("kill -9 $$")).line)
	assert.Equal(t, "fatal error: concurrent map writes", (&crashReport{line: "fatal error: concurrent map writes"}).crash(state("exit 2")).line)
}
