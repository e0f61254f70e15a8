package app

import (
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/grants"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// GrantEscrowAddress holds the unreleased totals of every active grant.
// No key controls it, as with the treasury; package grants keeps what
// each grant still holds.
var GrantEscrowAddress = common.BytesToAddress(crypto.Keccak256([]byte("dforge/grant-escrow"))[12:])

// EventGrant is the grants module's event (a grant after a change).
const EventGrant = grants.EventGrant

// openGrant applies an executed grant proposal: the total moves from the
// treasury to the grant escrow and the grant opens. It fails, recorded on
// the proposal, when the treasury lacks the total or the expiry is not
// above the execution height.
func (g *govEffects) openGrant(kv state.KV, p *gov.Proposal) error {
	terms, err := grants.ParseTerms(p.Payload)
	if err != nil {
		return err
	}
	if terms.Expiry <= p.ExecuteHeight {
		return fmt.Errorf("the grant expires at block %d, which is not after its execution at block %d", terms.Expiry, p.ExecuteHeight)
	}
	have, err := ledger.Balance(kv, TreasuryAddress)
	if err != nil {
		return err
	}
	if have < terms.Total {
		return fmt.Errorf("the treasury holds %d micro-units; the grant asks for %d", have, terms.Total)
	}
	if err := ledger.Transfer(kv, TreasuryAddress, GrantEscrowAddress, terms.Total); err != nil {
		return err
	}
	gr, err := grants.Open(kv, p.ID, p.Proposer, p.Title, terms, p.ExecuteHeight)
	if err != nil {
		return err
	}
	g.events = append(g.events, ledger.MoveEvent(TreasuryAddress, GrantEscrowAddress, terms.Total, "grant escrow"),
		grants.Event(gr, grants.CauseOpen))
	return nil
}

// applyGrantApprove applies a GrantApprove: the reviewer's approval, and
// the milestone's payment when it made a majority.
func applyGrantApprove(_ *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	gr, released, err := grants.Approve(kv, uint64(height), t.From, t.Grant, t.Milestone)
	if err != nil {
		return nil, err
	}
	approval := []abci.EventAttribute{
		{Key: "reviewer", Value: t.From.Hex(), Index: true},
		{Key: "milestone", Value: strconv.FormatUint(t.Milestone, 10)},
	}
	if !released {
		return []abci.Event{grants.Event(gr, grants.CauseApprove, approval...)}, nil
	}
	m := gr.Milestones[t.Milestone]
	if err := ledger.Transfer(kv, GrantEscrowAddress, m.Recipient, m.Amount); err != nil {
		return nil, fmt.Errorf("pay milestone %d of grant #%d: %w", t.Milestone, gr.ID, err)
	}
	return []abci.Event{
		ledger.MoveEvent(GrantEscrowAddress, m.Recipient, m.Amount, "grant milestone"),
		grants.Event(gr, grants.CauseRelease, approval...),
	}, nil
}

// expireGrants closes the grants expiring at height and returns what they
// did not release to the treasury.
func (a *App) expireGrants(height uint64) ([]abci.Event, error) {
	o := state.NewOverlay(a.state)
	expired, err := grants.Expire(o, height)
	if err != nil {
		return nil, fmt.Errorf("expire grants at height %d: %w", height, err)
	}
	var events []abci.Event
	for _, gr := range expired {
		if gr.Refunded > 0 {
			if err := ledger.Transfer(o, GrantEscrowAddress, TreasuryAddress, gr.Refunded); err != nil {
				return nil, fmt.Errorf("return grant #%d to the treasury: %w", gr.ID, err)
			}
			events = append(events, ledger.MoveEvent(GrantEscrowAddress, TreasuryAddress, gr.Refunded, "grant expired"))
		}
		events = append(events, grants.Event(gr, grants.CauseExpire))
	}
	if err := o.Flush(a.state); err != nil {
		return nil, fmt.Errorf("expire grants at height %d: %w", height, err)
	}
	return events, nil
}
