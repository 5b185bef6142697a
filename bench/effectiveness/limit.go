package main

import (
	"fmt"
	"strconv"
	"time"
)

// evalsTimeCap is the time cap of a run bounded by evaluations: far more
// than any of the benchmark's evaluation budgets needs, so that it only
// stops a run that would not end.
const evalsTimeCap = 30 * time.Minute

// evalsPerSecond is a rough rate of cling gen's search, for the
// benchmark's time estimate when the runs are bounded by evaluations.
const evalsPerSecond = 3000

// searchLimit is what ends a cling gen search: a time budget, or a
// number of evaluations when evals is positive.
type searchLimit struct {
	time  time.Duration
	evals int
}

// limit is the search limit of the measured runs.
func (o *options) limit() searchLimit {
	return searchLimit{time: o.budget, evals: o.maxEvals}
}

// String names the limit as the results file records it ("budget"): a
// Go duration ("1m0s"), or "N evals".
func (l searchLimit) String() string {
	if l.evals > 0 {
		return fmt.Sprintf("%d evals", l.evals)
	}
	return l.time.String()
}

// flags are the cling gen flags that set the limit.
func (l searchLimit) flags() []string {
	if l.evals > 0 {
		return []string{"--max-evals", strconv.Itoa(l.evals), "--budget", evalsTimeCap.String()}
	}
	return []string{"--budget", l.time.String()}
}

// estimate is about how long the search takes.
func (l searchLimit) estimate() time.Duration {
	if l.evals > 0 {
		return time.Duration(l.evals) * time.Second / evalsPerSecond
	}
	return l.time
}

// timeout is when the benchmark kills a cling gen run that did not end:
// the search, then minimisation and verification, with room for a
// loaded machine.
func (l searchLimit) timeout() time.Duration {
	if l.evals > 0 {
		return evalsTimeCap + 10*time.Minute
	}
	return 4*l.time + 10*time.Minute
}
