package hrt

import (
	"testing"
	"time"
)

// At its timeout, a test waits on only while its steps grow at a pace
// that reaches the step bound within MaxOvertime timeouts: a loop of R or
// E slowed down by the machine's load, not one that spends its rounds
// elsewhere, nor one that stopped stepping.
func TestSteppingTowardsTheBound(t *testing.T) {
	bound := stepBound(time.Second) // 8,388,608 outcomes
	cases := []struct {
		name    string
		seen    uint64
		taken   uint64
		elapsed time.Duration
		want    bool
	}{
		{"a quarter of the bound in one timeout", 0, bound / 4, time.Second, true},
		{"an eighth of it, just in time", 0, bound / 8, time.Second, true},
		{"a tenth: too slow to get there", 0, bound / 10, time.Second, false},
		{"a quarter in two timeouts, no step since", bound / 4, bound / 4, 2 * time.Second, false},
		{"half of it in two timeouts", bound / 4, bound / 2, 2 * time.Second, true},
		{"nothing taken", 0, 0, time.Second, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &server{boundFor: time.Second, cfg: Config{
				BoundSteps: func(uint64, func() bool) {},
				StepsTaken: func() uint64 { return tc.taken },
			}}
			seen := tc.seen
			if got := s.stepping(&seen, tc.elapsed); got != tc.want {
				t.Errorf("stepping = %v, want %v", got, tc.want)
			}
			if seen != tc.taken {
				t.Errorf("seen = %d, want the count looked at, %d", seen, tc.taken)
			}
		})
	}
	unbounded := &server{boundFor: time.Second, cfg: Config{StepsTaken: func() uint64 { return bound }}}
	if seen := uint64(0); unbounded.stepping(&seen, time.Second) {
		t.Error("stepping without a step bound: got true")
	}
}
