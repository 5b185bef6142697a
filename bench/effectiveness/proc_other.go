//go:build !unix

package main

import "os/exec"

// ownGroup is a no-op where process groups are not available: cancelling
// a command kills only that process.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {}
