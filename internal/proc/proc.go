// Package proc starts child processes in their own process group, so that
// cancelling a run (a timeout, SIGINT) kills the process and everything it
// started, such as the test binaries of `go test`.
package proc

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// Command is exec.CommandContext with the process in a new process group
// that is killed as a whole when ctx is done.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return KillGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// KillGroup kills the process group of a started command.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
