package chain

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// NotCommitting says the network cannot commit blocks now, as far as this
// node can tell: a transaction sent now would wait in the mempool until
// enough validators are back, with no answer to give its sender.
type NotCommitting struct {
	Reason string
	// Stalled: blocks stopped coming (rule 2 below), rather than no peer
	// being connected, which a node that has just started may yet be.
	Stalled bool
}

func (e *NotCommitting) Error() string { return "the network cannot commit now: " + e.Reason }

// stallGrace is how much longer than an idle chain's interval a height may
// last before the chain counts as stalled: a busy host (or a round led by
// a missing proposer) makes blocks late, but not this late.
const stallGrace = 5 * time.Second

// Committing returns a *NotCommitting when the network cannot commit blocks
// now, nil when it may. It answers at once, from what the node knows:
//   - A node with no peer commits only if it holds more than 2/3 of the
//     voting power itself (a validator whose peers are all down knows at
//     once).
//   - A height that has lasted longer than the idle chain's interval plus
//     stallGrace means the validators online cannot agree (fewer than 2/3
//     of the power answers).
//
// A node still syncing blocks is not judged: relaying waits for the sync.
func (c *Chain) Committing(ctx context.Context) error {
	client := c.node.Client()
	st, err := client.Status(ctx)
	if err != nil {
		return fmt.Errorf("node status: %w", err)
	}
	if st.SyncInfo.CatchingUp {
		return nil
	}
	// 1. Alone.
	if c.node.Comet().Switch().Peers().Size() == 0 {
		total, err := c.totalPower(ctx)
		if err != nil {
			return err
		}
		if own := st.ValidatorInfo.VotingPower; 3*own <= 2*total {
			return &NotCommitting{Reason: fmt.Sprintf(
				"this node reaches no other node of the network, and blocks need more than 2/3 of the validators' voting power (it holds %d of %d)", own, total)}
		}
		return nil
	}
	// 2. Stalled. The block store's height, not CometBFT's round state:
	// reading that waits for the block being executed (a flood's block
	// takes a while), and a user's action would miss the next block.
	height := c.node.Comet().BlockStore().Height()
	limit := c.node.Comet().Config().Consensus.CreateEmptyBlocksInterval + stallGrace
	if age := c.seen.age(height, time.Now()); age > limit {
		return &NotCommitting{Stalled: true, Reason: fmt.Sprintf(
			"no block for %s (height %d); blocks need more than 2/3 of the validators' voting power online, and fewer answer",
			age.Round(time.Second), height+1)}
	}
	return nil
}

// progress remembers the chain's height and when this node first saw it.
type progress struct {
	mu     sync.Mutex
	height int64
	at     time.Time
}

// age is how long height has been the chain's height, as far as the
// calls so far saw: a node that was not asked while blocks came counts
// from its first look at the new height, which errs towards not stalled.
func (p *progress) age(height int64, now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if height != p.height || p.at.IsZero() {
		p.height, p.at = height, now
	}
	return now.Sub(p.at)
}

// totalPower sums the voting power of the current validator set.
func (c *Chain) totalPower(ctx context.Context) (int64, error) {
	var total int64
	perPage := 100
	for page := 1; ; page++ {
		res, err := c.node.Client().Validators(ctx, nil, &page, &perPage)
		if err != nil {
			return 0, fmt.Errorf("validators: %w", err)
		}
		for _, v := range res.Validators {
			total += v.VotingPower
		}
		if page*perPage >= res.Total {
			return total, nil
		}
	}
}
