package hrt

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// silencedChildEnv makes the test binary, run again as a child, silence
// its output as a worker does and then write to file descriptor 2 after
// collections, where a fatal error's report goes.
const silencedChildEnv = "CLING_HRT_SILENCED_CHILD"

// After silenceOutput and collections, file descriptor 2 still reaches
// the standard error the worker started with: the report of a fatal error
// is not lost. The os.File values replaced must stay referenced, or their
// finalizers close descriptors 1 and 2.
func TestSilencedOutputKeepsDescriptorTwo(t *testing.T) {
	if os.Getenv(silencedChildEnv) != "" {
		silenceOutput()
		os.Stderr.WriteString("silenced\n")
		for i := 0; i < 5; i++ {
			runtime.GC()
			time.Sleep(10 * time.Millisecond) // finalizers run on their own goroutine
		}
		if _, err := syscall.Write(2, []byte("fatal error: reached\n")); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSilencedOutputKeepsDescriptorTwo$")
	cmd.Env = append(os.Environ(), silencedChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "output: %s", out)
	assert.Equal(t, "fatal error: reached\n", string(out))
}
