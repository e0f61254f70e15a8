package app

// AcceptForgedActions makes a accept any signer's forge action, as a
// dishonest node's modified binary would: the test-only path by which a
// forged action gets into a block, for the audit to find.
func AcceptForgedActions(a *App) {
	a.forgeAll = true
	if a.checks.handlers != nil {
		a.checks.handlers.forgeAll = true
	}
}
