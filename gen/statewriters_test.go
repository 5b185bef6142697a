package gen

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/testcase"
)

// The tests that change package-level state are the writers, wherever
// they failed; the victims are the others that failed.
func TestStateSuspects(t *testing.T) {
	writer := &testcase.Op{Name: "r.Register", WritesState: true}
	reader := &testcase.Op{Name: "r.Render"}
	test := func(name string, op *testcase.Op) namedTest {
		return namedTest{Test: emit.Test{Name: name, Test: &testcase.Test{Stmts: []testcase.Stmt{{Op: op}}}}}
	}
	tests := []namedTest{test("TestA", reader), test("TestB", reader), test("TestW", writer), test("TestV", writer)}
	writers, victims := stateSuspects(tests, map[string]*failure{"TestB": {}, "TestW": {}})
	assert.Equal(t, []string{"TestW", "TestV"}, writers)
	assert.Equal(t, []string{"TestB"}, victims)
	writers, victims = stateSuspects(tests[:2], map[string]*failure{"TestA": {}})
	assert.Empty(t, writers)
	assert.Equal(t, []string{"TestA"}, victims)
}

// stateProcess simulates go test running tests in one process: the tests
// run in the order given (the writers last, as in the file), n times; a
// writer adds itself to the process's state; a victim fails when its
// condition holds in the state at the time it runs.
type stateProcess struct {
	fails map[string]func(state map[string]bool) bool
	calls [][]string
}

func (p *stateProcess) run(_ context.Context, names []string, n int) (map[string]*testRuns, error) {
	p.calls = append(p.calls, slices.Clone(names))
	state := map[string]bool{}
	runs := map[string]*testRuns{}
	for _, name := range names {
		runs[name] = &testRuns{}
	}
	for range n {
		for _, name := range names {
			r := runs[name]
			fails, isVictim := p.fails[name]
			switch {
			case !isVictim:
				state[name] = true
				r.passes++
			case fails(state):
				r.fails++
			default:
				r.passes++
			}
		}
	}
	return runs, nil
}

// Only the writers whose state breaks a test that passes alone are
// blamed; a test broken for itself blames none, nor does one that fails
// in the file for another reason; tests broken only by writers together
// blame all of them, unless the writers are more than the tests they
// break; a writer whose harm another writer's state hid is found once
// that one is gone.
func TestStateCulprits(t *testing.T) {
	many := make([]string, maxWritersProbed+1)
	for i := range many {
		many[i] = fmt.Sprintf("TestW%d", i)
	}
	never := func(map[string]bool) bool { return false }
	after := func(w string) func(map[string]bool) bool {
		return func(state map[string]bool) bool { return state[w] }
	}
	both := func(s map[string]bool) bool { return s["TestW1"] && s["TestW2"] }
	for _, tc := range []struct {
		name    string
		names   []string
		writers []string
		victims []string
		fails   map[string]func(map[string]bool) bool
		want    []string
		runs    int
	}{
		{
			name:  "one of two writers",
			names: []string{"TestA", "TestB", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA", "TestB"},
			fails: map[string]func(map[string]bool) bool{"TestA": never, "TestB": after("TestW2")},
			want:  []string{"TestW2"}, runs: 4,
		},
		{
			name:  "two culprits",
			names: []string{"TestA", "TestB", "TestW1", "TestW2", "TestW3"}, writers: []string{"TestW1", "TestW2", "TestW3"}, victims: []string{"TestA", "TestB"},
			fails: map[string]func(map[string]bool) bool{"TestA": after("TestW3"), "TestB": after("TestW1")},
			want:  []string{"TestW1", "TestW3"}, runs: 5,
		},
		{
			name:  "a victim broken for itself",
			names: []string{"TestA", "TestW1"}, writers: []string{"TestW1"}, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": func(map[string]bool) bool { return true }},
			want:  nil, runs: 1,
		},
		{
			name:  "only writers together",
			names: []string{"TestA", "TestB", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA", "TestB"},
			fails: map[string]func(map[string]bool) bool{"TestA": both, "TestB": both},
			want:  []string{"TestW1", "TestW2"}, runs: 4,
		},
		{
			name:  "more writers together than tests they break",
			names: []string{"TestA", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": both},
			want:  nil, runs: 4,
		},
		{
			name:  "more single culprits than tests they break",
			names: []string{"TestA", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": func(s map[string]bool) bool { return s["TestW1"] || s["TestW2"] }},
			want:  nil, runs: 3,
		},
		{
			name:  "a failure that is not the state's",
			names: []string{"TestA", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": never},
			want:  nil, runs: 4,
		},
		{
			name:  "a harm hidden by another writer",
			names: []string{"TestA", "TestC", "TestW1", "TestW2"}, writers: []string{"TestW1", "TestW2"}, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": after("TestW1"), "TestC": func(s map[string]bool) bool { return s["TestW2"] && !s["TestW1"] }},
			want:  []string{"TestW1", "TestW2"}, runs: 6,
		},
		{
			name:  "no writer",
			names: []string{"TestA"}, victims: []string{"TestA"},
			want: nil, runs: 0,
		},
		{
			name:  "too many writers to try",
			names: append([]string{"TestA"}, many...), writers: many, victims: []string{"TestA"},
			fails: map[string]func(map[string]bool) bool{"TestA": after("TestW3")},
			want:  nil, runs: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &stateProcess{fails: tc.fails}
			got, err := stateCulprits(context.Background(), p.run, tc.names, tc.writers, tc.victims)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Len(t, p.calls, tc.runs)
			if len(p.calls) > 0 {
				assert.Equal(t, tc.victims, p.calls[0], "the victims run alone first")
			}
		})
	}
}

// withoutNames keeps the order of the tests it keeps.
func TestWithoutNames(t *testing.T) {
	tests := []namedTest{{Test: emit.Test{Name: "A"}}, {Test: emit.Test{Name: "B"}}, {Test: emit.Test{Name: "C"}}}
	assert.Equal(t, []string{"A", "C"}, namesOf(withoutNames(tests, []string{"B"})))
	assert.Equal(t, []string{"A", "B", "C"}, namesOf(withoutNames(tests, nil)))
}

// Tests that fail in the file but pass alone are victims of state the
// static analysis missed; the tests beside which they fail go: here TestC,
// whose state TestB trips on in the second run of the process. TestD fails
// alone too, and blames no one.
func TestInterferers(t *testing.T) {
	always := func(map[string]bool) bool { return true }
	after := func(w string) func(map[string]bool) bool {
		return func(state map[string]bool) bool { return state[w] }
	}
	names := []string{"TestA", "TestB", "TestC", "TestD"}
	p := &stateProcess{fails: map[string]func(map[string]bool) bool{"TestB": after("TestC"), "TestD": always}}
	culprits, err := interferers(context.Background(), p.run, names, map[string]*failure{"TestB": {}, "TestD": {}})
	require.NoError(t, err)
	assert.Equal(t, []string{"TestC"}, culprits)

	p = &stateProcess{fails: map[string]func(map[string]bool) bool{"TestB": func(s map[string]bool) bool { return s["TestA"] && s["TestC"] }}}
	culprits, err = interferers(context.Background(), p.run, names, map[string]*failure{"TestB": {}})
	require.NoError(t, err)
	assert.Empty(t, culprits, "two culprits for one victim stay, and the victim answers for its failure")

	p = &stateProcess{fails: map[string]func(map[string]bool) bool{"TestD": always}}
	culprits, err = interferers(context.Background(), p.run, names, map[string]*failure{"TestD": {}})
	require.NoError(t, err)
	assert.Empty(t, culprits, "a test that fails alone blames no one")
	assert.Equal(t, [][]string{{"TestD"}}, p.calls, "and no search follows")
}
