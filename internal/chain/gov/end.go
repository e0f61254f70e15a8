package gov

import (
	"fmt"

	"github.com/dforge/dforge/internal/chain/state"
)

// Effects is what the app does for governance: move a deposit and apply a
// passed proposal. Execute must leave kv untouched when it fails (apply
// on an overlay), and says why in its error.
type Effects interface {
	SettleDeposit(kv state.KV, p *Proposal, refund bool) error
	Execute(kv state.KV, p *Proposal) error
}

// BeginBlock runs at the start of block height, before its transactions:
// it tallies the proposals whose voting ends now, then executes the passed
// ones due now (those of this very block too when timelock is 0). It
// returns the proposals it changed, in order.
func BeginBlock(kv state.KV, height, timelock uint64, fx Effects) ([]*Proposal, error) {
	ending, err := idList(kv, endsKey(height))
	if err != nil {
		return nil, err
	}
	var changed []*Proposal
	for _, id := range ending {
		pr, err := end(kv, id, height, timelock, fx)
		if err != nil {
			return nil, fmt.Errorf("end proposal %d: %w", id, err)
		}
		changed = append(changed, pr)
	}
	due, err := idList(kv, execKey(height))
	if err != nil {
		return nil, err
	}
	for _, id := range due {
		pr, err := execute(kv, id, height, fx)
		if err != nil {
			return nil, fmt.Errorf("execute proposal %d: %w", id, err)
		}
		changed = append(changed, pr)
	}
	return changed, nil
}

func end(kv state.KV, id, height, timelock uint64, fx Effects) (*Proposal, error) {
	pr, err := GetProposal(kv, id)
	if err != nil {
		return nil, err
	}
	pr.EndedHeight = height
	quorum := pr.QuorumReached()
	if err := fx.SettleDeposit(kv, pr, quorum); err != nil {
		return nil, err
	}
	switch {
	case !quorum || !pr.ThresholdReached():
		pr.Status = StatusRejected
	case pr.Type == TypeText:
		pr.Status = StatusPassed // nothing to execute
	default:
		pr.Status = StatusPassed
		pr.ExecuteHeight = height + timelock
		if err := appendID(kv, execKey(pr.ExecuteHeight), id); err != nil {
			return nil, err
		}
	}
	return pr, saveProposal(kv, pr)
}

func execute(kv state.KV, id, height uint64, fx Effects) (*Proposal, error) {
	pr, err := GetProposal(kv, id)
	if err != nil {
		return nil, err
	}
	if err := fx.Execute(kv, pr); err != nil {
		pr.Status, pr.Failure = StatusFailed, err.Error()
	} else {
		pr.Status = StatusExecuted
	}
	return pr, saveProposal(kv, pr)
}
