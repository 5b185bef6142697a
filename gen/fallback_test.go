package gen

import (
	"testing"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/mosa"
	"github.com/stretchr/testify/assert"
)

func named(name string, covers ...int32) namedTest {
	return namedTest{Test: emit.Test{Name: name}, goals: covers[:1], covers: covers}
}

// A verdict with a file replaces the file; one without leaves it and
// reports the new tests dropped under the names the name pass gave them.
// The file's names are taken either way, and lost lists the wanted goals
// the file does not cover.
func TestAdmitAndLost(t *testing.T) {
	j := &job{taken: map[string]bool{}}
	wanted := goalsOf([]mosa.ArchivedTest{{Goals: []int32{0, 3}}, {Goals: []int32{1}}, {Goals: []int32{2}}})
	assert.Equal(t, []int32{0, 3, 1, 2}, wanted)
	assert.Equal(t, wanted, j.lost(wanted))

	// Level 0: TestB fails; TestA passes, renamed around a declared name.
	j.admit([]namedTest{named("TestA", 0, 3), named("TestB", 1)}, verdict{
		src:     []byte("level 0"),
		passed:  []namedTest{named("TestA_2", 0, 3)},
		dropped: []string{"TestB"},
	})
	assert.Equal(t, "level 0", string(j.src))
	assert.Equal(t, []string{"TestA_2"}, namesOf(j.final))
	assert.Equal(t, []string{"TestB"}, j.dropped)
	assert.Equal(t, map[string]bool{"TestA_2": true}, j.taken)
	assert.Equal(t, []int32{1, 2}, j.lost(wanted))

	// Level 1: no set of the file's tests and the fallback passed.
	j.admit([]namedTest{named("TestB_2", 1)}, verdict{dropped: []string{"TestB_3"}})
	assert.Equal(t, "level 0", string(j.src))
	assert.Equal(t, []string{"TestA_2"}, namesOf(j.final))
	assert.Equal(t, []string{"TestB", "TestB_2"}, j.dropped)
	assert.Equal(t, []int32{1, 2}, j.lost(wanted))

	// Level 2: the fallback for goal 1 passes and covers goal 2 by the way.
	j.admit([]namedTest{named("TestB_2", 1, 2)}, verdict{
		src:    []byte("level 2"),
		passed: []namedTest{named("TestA_2", 0, 3), named("TestB_2", 1, 2)},
	})
	assert.Equal(t, "level 2", string(j.src))
	assert.Equal(t, []string{"TestB", "TestB_2"}, j.dropped)
	assert.Equal(t, map[string]bool{"TestA_2": true, "TestB_2": true}, j.taken)
	assert.Empty(t, j.lost(wanted))
}
