// Package measure runs commands and reports their wall time and peak
// resident set size, and summarises repeated measurements by their median.
// It is shared by the benchmark programs under bench/cmd.
package measure

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Cmd is a command to measure.
type Cmd struct {
	// Label names the command in reports.
	Label string
	// Args are the program and its arguments.
	Args []string
	// Dir is the working directory ("" for the current one).
	Dir string
	// Env is added to the environment of the benchmark process.
	Env []string
	// Stdout receives the command's standard output; nil discards it
	// (the command writes to the null device, at no cost to the
	// measurement).
	Stdout io.Writer
}

// String returns the command line, for reports.
func (c Cmd) String() string { return strings.Join(c.Args, " ") }

// Sample is one measured run.
type Sample struct {
	Wall time.Duration
	// MaxRSS is the peak resident set size in bytes: that of the command
	// or of the largest of the descendants it waited for (the go command
	// it runs, say), whichever is larger; not their sum. Zero where the
	// platform does not report it.
	MaxRSS int64
	// User and Sys are the CPU times of the command and its waited-for
	// descendants.
	User, Sys time.Duration
	// ExitCode is the command's exit status.
	ExitCode int
}

// Run runs c once and measures it. A command that exits with a non-zero
// status is measured all the same: the status is in the sample and err
// describes it, with the end of the command's standard error.
func Run(ctx context.Context, c Cmd) (Sample, error) {
	if len(c.Args) == 0 {
		return Sample{}, errors.New("empty command")
	}
	cmd := exec.CommandContext(ctx, c.Args[0], c.Args[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout = c.Stdout
	var stderr tailBuffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Start()
	if err != nil {
		return Sample{}, fmt.Errorf("%s: %w", c.Label, err)
	}
	err = cmd.Wait()
	s := Sample{Wall: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		s.ExitCode = ps.ExitCode()
		s.MaxRSS, s.User, s.Sys = usage(ps)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			msg = ": " + msg
		}
		return s, fmt.Errorf("%s: %w%s", c.Label, err, msg)
	}
	return s, nil
}

// tailBuffer keeps the last few kilobytes written to it.
type tailBuffer struct{ b bytes.Buffer }

const tailSize = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b.Write(p)
	if t.b.Len() > 2*tailSize {
		keep := slices.Clone(t.b.Bytes()[t.b.Len()-tailSize:])
		t.b.Reset()
		t.b.Write(keep)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	s := t.b.String()
	if len(s) > tailSize {
		s = s[len(s)-tailSize:]
	}
	return s
}

// Median returns the median of xs (the mean of the two middle values for
// an even count), or 0 for none.
func Median[T int64 | time.Duration | float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Series is the samples of one command.
type Series struct {
	Cmd     Cmd
	Samples []Sample
}

// Walls returns the wall times of the samples.
func (s *Series) Walls() []time.Duration {
	out := make([]time.Duration, len(s.Samples))
	for i, x := range s.Samples {
		out[i] = x.Wall
	}
	return out
}

// RSSes returns the peak RSS values of the samples.
func (s *Series) RSSes() []int64 {
	out := make([]int64, len(s.Samples))
	for i, x := range s.Samples {
		out[i] = x.MaxRSS
	}
	return out
}

// Summary condenses a series.
type Summary struct {
	Label   string    `json:"label"`
	Command string    `json:"command"`
	Dir     string    `json:"dir,omitempty"`
	Runs    int       `json:"runs"`
	WallSec float64   `json:"wallMedianSec"`
	WallMin float64   `json:"wallMinSec"`
	WallMax float64   `json:"wallMaxSec"`
	Walls   []float64 `json:"wallsSec"`
	RSSMiB  float64   `json:"maxRSSMedianMiB"`
	CPUSec  float64   `json:"cpuMedianSec"`
	// Failures counts runs that exited with a non-zero status.
	Failures int `json:"failures"`
}

// Summarize returns the medians (and extremes) of a series.
func (s *Series) Summarize() Summary {
	walls := s.Walls()
	sum := Summary{
		Label:   s.Cmd.Label,
		Command: s.Cmd.String(),
		Dir:     s.Cmd.Dir,
		Runs:    len(s.Samples),
		WallSec: Median(walls).Seconds(),
		RSSMiB:  float64(Median(s.RSSes())) / (1 << 20),
	}
	var cpu []time.Duration
	for i, x := range s.Samples {
		sum.Walls = append(sum.Walls, x.Wall.Seconds())
		if i == 0 || x.Wall.Seconds() < sum.WallMin {
			sum.WallMin = x.Wall.Seconds()
		}
		if x.Wall.Seconds() > sum.WallMax {
			sum.WallMax = x.Wall.Seconds()
		}
		cpu = append(cpu, x.User+x.Sys)
		if x.ExitCode != 0 {
			sum.Failures++
		}
	}
	sum.CPUSec = Median(cpu).Seconds()
	return sum
}

// Alternate measures cmds round-robin: after warmup untimed rounds, runs
// rounds in which each command runs once, in order, so that drifting load
// on a shared machine affects all commands alike. A failing run is kept
// (and counted in the summary); onErr, if not nil, is told about it.
func Alternate(ctx context.Context, cmds []Cmd, warmup, runs int, onErr func(error)) ([]*Series, error) {
	series := make([]*Series, len(cmds))
	for i, c := range cmds {
		series[i] = &Series{Cmd: c}
	}
	for r := 0; r < warmup; r++ {
		for _, c := range cmds {
			if _, err := Run(ctx, c); err != nil && onErr != nil {
				onErr(fmt.Errorf("warm-up: %w", err))
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}
	for r := 0; r < runs; r++ {
		for i, c := range cmds {
			s, err := Run(ctx, c)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				if s.Wall == 0 {
					return nil, err // did not start
				}
				if onErr != nil {
					onErr(err)
				}
			}
			series[i].Samples = append(series[i].Samples, s)
		}
	}
	return series, nil
}

// Ratio returns a/b, or 0 when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
