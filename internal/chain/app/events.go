package app

import (
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/rewards"
)

// The event types the modules give, under the names readers of the
// chain's events (the index, tools) have always used. Each module owns
// its events: see its events.go. A transaction's own event takes the
// transaction's type (tx.Kind), the forge's is forge.EventType and a node
// registration's nodes.EventType.
const (
	EventUnbondingMatured = ledger.EventUnbondingMatured
	EventMove             = ledger.EventMove
	EventMint             = ledger.EventMint
	EventProposal         = gov.EventProposal
	EventVote             = gov.EventVote
	EventReward           = rewards.EventReward
	EventEpoch            = reputation.EventEpoch
)
