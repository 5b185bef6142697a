package hrt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// joiner stands for an unexported builder type whose methods return it.
type joiner struct{ parts []string }

func (j *joiner) Add(parts ...string) *joiner { j.parts = append(j.parts, parts...); return j }

func (j *joiner) Sep(sep string, fail bool) (string, error) {
	if fail {
		return "", errors.New("no")
	}
	return strings.Join(j.parts, sep), nil
}

func (j *joiner) Map(fn mapper) *joiner {
	for i, p := range j.parts {
		j.parts[i] = fn(p)
	}
	return j
}

// mapper stands for an unexported named function type.
type mapper func(string) string

func TestCallMethod(t *testing.T) {
	j := &joiner{}
	out := CallMethod(j, "Add", true, []string{"a", "b"})
	require.Len(t, out, 1)
	assert.Same(t, j, out[0])
	CallMethod(j, "Add", true, nil) // the variadic slice left out
	assert.Equal(t, []string{"a", "b"}, j.parts)

	CallMethod(j, "Map", false, func(s string) string { return s + s })
	assert.Equal(t, []string{"aa", "bb"}, j.parts, "an unnamed function converts to the named parameter type")

	assert.Equal(t, []any{"aa-bb", nil}, CallMethod(j, "Sep", false, "-", nil), "nil gives the zero value")
	out = CallMethod(j, "Sep", false, "-", true)
	assert.EqualError(t, out[1].(error), "no")

	assert.PanicsWithError(t, "runtime error: invalid memory address or nil pointer dereference", func() {
		CallMethod(nil, "Add", true, nil)
	})
	assert.Panics(t, func() { CallMethod((*joiner)(nil), "Add", true, []string{"x"}) }, "the method's own nil dereference")
}

func TestAsConvertsFunctionsOfTheSameKind(t *testing.T) {
	var named mapper = func(s string) string { return "<" + s + ">" }
	fn := As[func(string) string](named)
	require.NotNil(t, fn, "a value of the named type serves where its signature is written")
	assert.Equal(t, "<x>", fn("x"))
	assert.Equal(t, 0, As[int](int64(3)), "only the same kind converts")
	assert.Nil(t, As[func(string) string](nil))
}

// A test's directories exist while it runs and are gone when it ends.
func TestTempPath(t *testing.T) {
	res := &result{}
	current.Lock()
	current.res = res
	current.Unlock()
	dir, file := TempPath(false), TempPath(true)
	current.Lock()
	current.res = nil
	current.Unlock()
	assert.DirExists(t, dir)
	assert.Equal(t, "file", filepath.Base(file))
	assert.NoFileExists(t, file, "the file is not made")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	res.removeDirs()
	assert.NoDirExists(t, dir)
	assert.NoDirExists(t, filepath.Dir(file))
}
