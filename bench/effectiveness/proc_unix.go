//go:build unix

package main

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup puts the command in a process group of its own. Cancelling it
// (interrupt, time limit) sends SIGTERM to the whole group, so that cling
// can clean up and what it started (go test, its workers) stops too; after
// a grace period the process is killed.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = 20 * time.Second
}

// killGroup kills what is left of a cancelled command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
