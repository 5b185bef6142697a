package hrt

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// leakingHelper blocks until release is closed: a goroutine a test left.
func leakingHelper(release chan struct{}) { <-release }

// A goroutine the test left is found by its label even when another
// goroutine's end brings the count back to where it was: the count alone
// misses it. Another test's label finds none.
func TestLeakedStackSeesPastAnEndingGoroutine(t *testing.T) {
	s := &server{cfg: Config{Packages: []string{"github.com/cling-go/cling/harness/hrt"}}}
	earlier := make(chan struct{})
	go func() { <-earlier }() // an earlier test's goroutine, about to end
	want := runtime.NumGoroutine()
	release := make(chan struct{})
	defer close(release)
	pprof.Do(context.Background(), pprof.Labels(testLabel, "t1"), func(context.Context) {
		go leakingHelper(release)
	})
	close(earlier)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the earlier goroutine ends
	}
	if n := runtime.NumGoroutine(); n > want {
		t.Fatalf("%d goroutines, want %d: the count should hide the leak", n, want)
	}
	if got := s.leakedStack(want, "t1", false); got != "" {
		t.Errorf("by the count alone: got a leak %q", got)
	}
	got := s.leakedStack(want, "t1", true)
	if !strings.Contains(got, "hrt.leakingHelper") {
		t.Errorf("by the labels: got %q, want the stack of leakingHelper", got)
	}
	if got := s.leakedStack(want, "t2", true); got != "" {
		t.Errorf("another test's label: got a leak %q", got)
	}
}
