package measure

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	in := []time.Duration{3, 1, 2}
	Median(in)
	if in[0] != 3 || in[1] != 1 {
		t.Errorf("Median sorted its argument: %v", in)
	}
}

func TestRunReportsFailure(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	s, err := Run(context.Background(), Cmd{Label: "fail", Args: []string{sh, "-c", "echo oops >&2; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("Run: error %v, want one quoting stderr", err)
	}
	if s.ExitCode != 3 || s.Wall <= 0 {
		t.Errorf("Run: sample %+v, want exit code 3 and a wall time", s)
	}
}

func TestAlternateOrderAndSummary(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmds := []Cmd{
		{Label: "a", Args: []string{sh, "-c", "true"}},
		{Label: "b", Args: []string{sh, "-c", "exit 1"}},
	}
	var errs int
	series, err := Alternate(context.Background(), cmds, 1, 3, func(error) { errs++ })
	if err != nil {
		t.Fatal(err)
	}
	if errs != 4 { // one warm-up and three timed failures of b
		t.Errorf("onErr called %d times, want 4", errs)
	}
	a, b := series[0].Summarize(), series[1].Summarize()
	if a.Runs != 3 || b.Runs != 3 || a.Failures != 0 || b.Failures != 3 {
		t.Errorf("summaries %+v %+v", a, b)
	}
}
