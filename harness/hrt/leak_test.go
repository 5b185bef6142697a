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
	if got, _ := s.leakedStack(want, "t1", false, leakGrace); got != "" {
		t.Errorf("by the count alone: got a leak %q", got)
	}
	got, _ := s.leakedStack(want, "t1", true, leakGrace)
	if !strings.Contains(got, "hrt.leakingHelper") {
		t.Errorf("by the labels: got %q, want the stack of leakingHelper", got)
	}
	if got, _ := s.leakedStack(want, "t2", true, leakGrace); got != "" {
		t.Errorf("another test's label: got a leak %q", got)
	}
}

// At a grace shorter than the goroutine takes, a goroutine still blocked
// is a leak; once it has ended, there is none, and leakedStack says how
// long the goroutines took to end.
func TestLeakedStackAtAShorterGrace(t *testing.T) {
	s := &server{cfg: Config{Packages: []string{"github.com/cling-go/cling/harness/hrt"}}}
	want := runtime.NumGoroutine()
	release := make(chan struct{})
	ended := make(chan struct{})
	pprof.Do(context.Background(), pprof.Labels(testLabel, "t3"), func(context.Context) {
		go func() {
			leakingHelper(release)
			close(ended)
		}()
	})
	got, settle := s.leakedStack(want, "t3", true, time.Millisecond)
	if !strings.Contains(got, "leak_test.go") || settle != 0 {
		t.Errorf("blocked at a 1 ms grace: got %q and %v, want the goroutine's stack and 0", got, settle)
	}
	close(release)
	<-ended
	got, settle = s.leakedStack(want, "t3", true, leakGrace)
	if got != "" || settle <= 0 {
		t.Errorf("ended: got %q and %v, want no leak and a positive time", got, settle)
	}
}

// A goroutine that reported its panic or exit blocks for ever and ends
// the test: no leak, and no time for goroutines to end in, which would
// otherwise teach the search's grace how long a report took.
func TestLeakedStackAfterAReport(t *testing.T) {
	s := &server{cfg: Config{Packages: []string{"github.com/cling-go/cling/harness/hrt"}}, exits: make(chan exitRequest, 1)}
	want := runtime.NumGoroutine()
	release := make(chan struct{})
	defer close(release)
	pprof.Do(context.Background(), pprof.Labels(testLabel, "t4"), func(context.Context) {
		go func() {
			s.exits <- exitRequest{goPanic: true, message: "panic: boom"}
			leakingHelper(release)
		}()
	})
	for len(s.exits) == 0 {
		runtime.Gosched()
	}
	got, settle := s.leakedStack(want, "t4", true, leakGrace)
	if got != "" || settle != 0 {
		t.Errorf("got %q and %v, want no leak and 0", got, settle)
	}
}

// A goroutine of the test that has not run yet shows in the profile with
// its label and no frame: it is still there (notStarted), not absent, and
// a goroutine with a frame of the packages is found first.
func TestLabelledStackNotStarted(t *testing.T) {
	const pkg = "example.com/p"
	started := "1 @ 0x1 0x2\n# labels: {\"cling_test\":\"t1\"}\n#\t0x1\texample.com/p.f+0x25\t/src/p/f.go:10\n#\t0x2\truntime.goexit+0x1\t/go/src/runtime/asm.s:1\n"
	unstarted := "1 @ 0x4963e1\n# labels: {\"cling_test\":\"t1\"}\n"
	other := "1 @ 0x4963e1\n# labels: {\"cling_test\":\"t2\"}\n"
	cases := []struct {
		name, profile, want string
	}{
		{"not started", "goroutine profile: total 1\n" + unstarted, notStarted},
		{"started after one not started", "goroutine profile: total 2\n" + unstarted + "\n" + started, "example.com/p.f"},
		{"another test's", "goroutine profile: total 1\n" + other, ""},
	}
	for _, tc := range cases {
		got := labelledStack(tc.profile, "t1", []string{pkg})
		if tc.want == notStarted || tc.want == "" {
			if got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
			}
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want a stack with %s", tc.name, got, tc.want)
		}
	}
}
