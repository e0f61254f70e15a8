// Package longtest marks the tests that `make test` runs and `make
// test-short` (go test -short) leaves out: those that start a node, a git
// server, a JavaScript client or a long comparison with git. It is the one
// place such a test is skipped, so the reason reads the same everywhere.
package longtest

import "testing"

// Mark skips t under -short; what says what makes it long ("starts a
// CometBFT node").
func Mark(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what + ": make test runs it, make test-short does not")
	}
}
