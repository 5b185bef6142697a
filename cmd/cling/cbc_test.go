package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const slowSuite = `package person_test

import (
	"testing"
	"time"

	"example.com/personcar/car"
	"example.com/personcar/person"
)

func TestSlow(t *testing.T) {
	t.Parallel()
	p := &person.Person{Car: &car.Car{FuelAmount: 30}}
	p.DriveToHome()
	time.Sleep(20 * time.Second)
}
`

func TestCBCPersonCar(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "p_test.go"), []byte(strings.Replace(slowSuite, "time.Sleep(20 * time.Second)", "_ = time.Now()", 1)), 0o644))
	rep := cbcRun(t, dir, "--caller", "./person", "--callee", "./car")
	assert.Equal(t, 2, rep.CoupledBranches)
	assert.Equal(t, 1, rep.Covered)
	r := runCling(t, dir, "cbc", "--caller", "./person", "--callee", "./car")
	assert.Contains(t, r.stdout, "coupled branches covered: 1 of 2 (50.0%)")
	assert.Contains(t, r.stdout, "person/person.go:25:9  person/person.go:22:5:false -> car/car.go:14:5:false")
}

func TestCBCBadInput(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	r := runCling(t, dir, "cbc", "--caller", "./person", "--callee", "./car")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "cling: no tests to run in example.com/personcar/person\n", r.stderr)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "p_test.go"), []byte("package person_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { undefined() }\n"), 0o644))
	r = runCling(t, dir, "cbc", "--caller", "./person", "--callee", "./car")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `^cling: the tests do not build: person/p_test.go:5:\d+: undefined: undefined\n$`, r.stderr)
	assert.Len(t, strings.Split(strings.TrimSpace(r.stderr), "\n"), 1)

	r = runCling(t, dir, "cbc", "--caller", "./person", "--callee", "./car", "--frobnicate")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "frobnicate")
}

// A run killed with SIGKILL, or interrupted, leaves the module
// byte-identical; an interrupted run also removes its temporary files.
func TestCBCKilledLeavesTreeIntact(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := fixture.Copy(t, "personcar")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "p_test.go"), []byte(slowSuite), 0o644))
			before := fixture.Snapshot(t, dir)
			tmp := t.TempDir()
			cmd := exec.Command(clingBin, "cbc", "--caller", "./person", "--callee", "./car")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			require.NoError(t, cmd.Start())
			// Wait until the suite runs (the workspace exists), then stop.
			deadline := time.Now().Add(60 * time.Second)
			for time.Now().Before(deadline) {
				if ws, _ := filepath.Glob(filepath.Join(tmp, "cling-*", "cover-*", "cover-*")); len(ws) > 0 {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			require.NoError(t, cmd.Process.Signal(sig))
			_ = cmd.Wait()
			assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
			if sig == syscall.SIGINT {
				left, _ := filepath.Glob(filepath.Join(tmp, "cling-*"))
				assert.Empty(t, left, "the workspace was not removed")
			}
		})
	}
}
