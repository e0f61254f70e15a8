package app

import (
	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// BountyEscrowAddress holds open bounties (internal/chain/bounty).
var BountyEscrowAddress = bounty.EscrowAddress

// EventBounty is the bounty module's event, which the index projects.
const EventBounty = bounty.EventType

// Reasons of the Move events bounties make.
const (
	ReasonBountyFund   = "bounty fund"
	ReasonBountyRefund = "bounty refund"
	ReasonBountyPaid   = "bounty paid"
)

func applyBountyFund(_ *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	b, err := bounty.Fund(kv, t.From, t.Repo, t.Issue, t.Amount, t.Expiry, uint64(height))
	if err != nil {
		return nil, bounty.TxError(err)
	}
	return []abci.Event{
		ledger.MoveEvent(t.From, bounty.EscrowAddress, t.Amount, ReasonBountyFund),
		bounty.Event(b, bounty.CauseFund, t.From, t.Amount),
	}, nil
}

func applyBountyRefund(_ *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	b, s, err := bounty.Refund(kv, t.From, t.Repo, t.Issue, uint64(height))
	if err != nil {
		return nil, bounty.TxError(err)
	}
	return []abci.Event{
		ledger.MoveEvent(bounty.EscrowAddress, t.From, s.Amount, ReasonBountyRefund),
		bounty.Event(b, bounty.CauseRefund, t.From, s.Amount),
	}, nil
}

// payBounties pays the bounty of each issue a merge closed ("fixes #N") to
// the merged pull request's author. Issues closed any other way are not in
// ClosedIssues, so they pay nothing; an issue without a bounty writes
// nothing, so a chain with no bounties keeps its state and events.
func payBounties(kv state.KV, ch forge.Change, height uint64) ([]abci.Event, error) {
	if len(ch.ClosedIssues) == 0 || ch.Issue == nil || !ch.Issue.IsPull {
		return nil, nil
	}
	author := ch.Issue.Author
	var events []abci.Event
	for _, is := range ch.ClosedIssues {
		b, ok, err := bounty.Payout(kv, is.Repo, is.Number, author, height)
		if err != nil {
			return nil, err
		}
		if ok {
			events = append(events,
				ledger.MoveEvent(bounty.EscrowAddress, author, b.PaidAmount, ReasonBountyPaid),
				bounty.Event(b, bounty.CausePaid, author, b.PaidAmount))
		}
	}
	return events, nil
}
