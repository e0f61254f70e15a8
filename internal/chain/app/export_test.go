package app

// AcceptForgedActions makes a accept any signer's forge action, as a
// dishonest node's modified binary would: the test-only path by which a
// forged action gets into a block, for the audit to find.
func AcceptForgedActions(a *App) { a.forgeAll = true }

// HoldConsensus takes the lock a block's execution holds, as a long block
// would, and returns the function that lets it go.
func HoldConsensus(a *App) func() {
	a.mu.Lock()
	return a.mu.Unlock
}
