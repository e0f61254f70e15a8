// Package chain is the home of dForge's replicated state machine: the ABCI
// application, its modules and the in-process CometBFT node.
package chain
