// Package crash lets the crash tests kill a node at a chosen step of its
// work, as a power cut or the kernel's OOM killer would: Point(step) does
// nothing unless the environment variable DFORGE_TEST_CRASH_AT names that
// step, and then the process dies at once by SIGKILL. A node that leads its
// process group (the tests start it so) takes the group down with it, so
// the git processes it started die too and leave what a crash leaves.
package crash

import (
	"os"
	"syscall"
)

// Env is the variable naming the step to die at.
const Env = "DFORGE_TEST_CRASH_AT"

// The steps of a push, in order.
const (
	BeforeHooks    = "before-hooks"    // the pack is in git's quarantine; the node has done nothing
	PreReceive     = "pre-receive"     // the objects are staged; the chain has not committed
	ChainCommitted = "chain-committed" // the ref updates are on chain; git has not moved the refs
	BlockStorage   = "block-storage"   // the refs moved; the first objects are being stored as blocks
)

var step = os.Getenv(Env)

// Point kills the process if the crash test asked for this step.
func Point(name string) {
	if step == "" || step != name {
		return
	}
	pid := os.Getpid()
	if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	select {} // the signal is on its way
}
