package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The governance and rewards projection: a Proposal event carries the
// proposal in full (with its tally), a vote's also the vote; a Reward
// event carries a contribution's outcome; an Epoch event marks the block a
// reward epoch begins in. Like the forge's, they are written as they are,
// in block order, with the block's height and time.

// govTables hold the governance and rewards projection.
var govTables = []string{"gov_proposals", "gov_votes", "chain_rewards", "chain_epochs"}

// govRows is what one block adds to the governance projection, in the
// order the application emitted it.
type govRows struct {
	proposals []gov.Proposal
	votes     []gov.Vote
	rewards   []rewards.Outcome
	epochs    []uint64
	grants    []grantChange // grant proposals and Grant events, in order (grants.go)
}

// apply reads one event of the block into rows; events of other kinds
// are left alone.
func (g *govRows) apply(ev abci.Event) error {
	switch ev.Type {
	case app.EventProposal:
		attrs := attributes(ev)
		var p gov.Proposal
		if err := json.Unmarshal([]byte(attrs["data"]), &p); err != nil || p.ID == 0 {
			return fmt.Errorf("%s event: data is not a proposal (%v)", ev.Type, err)
		}
		g.proposals = append(g.proposals, p)
		if p.Type == gov.TypeGrant {
			g.grants = append(g.grants, grantChange{proposal: &p})
		}
		if raw, ok := attrs["vote"]; ok {
			var v gov.Vote
			if err := json.Unmarshal([]byte(raw), &v); err != nil || v.Proposal != p.ID {
				return fmt.Errorf("%s event: vote is not a vote on #%d (%v)", ev.Type, p.ID, err)
			}
			g.votes = append(g.votes, v)
		}
	case app.EventGrant:
		return g.applyGrant(ev)
	case app.EventReward:
		var o rewards.Outcome
		if err := json.Unmarshal([]byte(attributes(ev)["data"]), &o); err != nil {
			return fmt.Errorf("%s event: data is not a reward outcome: %w", ev.Type, err)
		}
		g.rewards = append(g.rewards, o)
	case app.EventEpoch:
		n, err := strconv.ParseUint(attributes(ev)["epoch"], 10, 64)
		if err != nil {
			return fmt.Errorf("%s event: epoch %q is not a number", ev.Type, attributes(ev)["epoch"])
		}
		g.epochs = append(g.epochs, n)
	}
	return nil
}

func attributes(ev abci.Event) map[string]string {
	attrs := make(map[string]string, len(ev.Attributes))
	for _, a := range ev.Attributes {
		attrs[a.Key] = a.Value
	}
	return attrs
}

// sqlInts converts each value, failing on the first that does not fit.
func sqlInts(vs ...uint64) ([]any, error) {
	out := make([]any, len(vs))
	for i, v := range vs {
		n, err := sqlInt(v)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// writeGov writes the block's governance rows. Proposals are upserted in
// event order, so the latest event of the block wins; a proposal keeps
// the time of the block it was created in.
func writeGov(ctx context.Context, tx *readdb.WriteTx, b blockRow, g govRows) error {
	for _, p := range g.proposals {
		if err := writeProposal(ctx, tx, b, p); err != nil {
			return err
		}
	}
	for _, v := range g.votes {
		nums, err := sqlInts(v.Proposal, v.Power, v.Height)
		if err != nil {
			return fmt.Errorf("write vote on #%d: %w", v.Proposal, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO gov_votes (proposal, voter, option, power, height, time_ns)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (proposal, voter) DO UPDATE SET option = excluded.option, power = excluded.power,
			height = excluded.height, time_ns = excluded.time_ns`,
			nums[0], v.Voter.Hex(), v.Option, nums[1], nums[2], b.timeNS); err != nil {
			return fmt.Errorf("write vote of %s on #%d: %w", v.Voter.Hex(), v.Proposal, err)
		}
	}
	for seq, o := range g.rewards {
		nums, err := sqlInts(o.Repo, o.Number, o.Base, o.MultiplierBps, o.Minted, o.Treasury, o.Withheld, o.Epoch, o.Reputation)
		if err != nil {
			return fmt.Errorf("write reward %d: %w", seq, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO chain_rewards (height, seq, account, kind, repo_id, number, sha,
			base, multiplier_bps, minted, treasury, withheld, reason, epoch, reputation, time_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			b.height, seq, o.Account.Hex(), o.Kind, nums[0], nums[1], o.SHA,
			nums[2], nums[3], nums[4], nums[5], nums[6], o.Reason, nums[7], nums[8], b.timeNS); err != nil {
			return fmt.Errorf("write reward %d: %w", seq, err)
		}
	}
	if err := writeGrants(ctx, tx, b, g.grants); err != nil {
		return err
	}
	for _, e := range g.epochs {
		n, err := sqlInt(e)
		if err != nil {
			return fmt.Errorf("write epoch: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO chain_epochs (epoch, height, time_ns) VALUES ($1, $2, $3)`, n, b.height, b.timeNS); err != nil {
			return fmt.Errorf("write epoch %d: %w", e, err)
		}
	}
	return nil
}

func writeProposal(ctx context.Context, tx *readdb.WriteTx, b blockRow, p gov.Proposal) error {
	payload, err := json.Marshal(p.Payload)
	if err != nil {
		return fmt.Errorf("write proposal #%d: %w", p.ID, err)
	}
	if p.Payload == nil {
		payload = []byte("{}")
	}
	nums, err := sqlInts(p.ID, p.Deposit, p.CreatedHeight, p.VotingEndHeight, p.ExecuteHeight,
		p.QuorumBps, p.ThresholdBps, p.TotalPower, p.Yes, p.No, p.Abstain, p.Voters, p.EndedHeight)
	if err != nil {
		return fmt.Errorf("write proposal #%d: %w", p.ID, err)
	}
	ended := sql.NullInt64{Int64: int64(p.EndedHeight), Valid: p.EndedHeight != 0} // checked by sqlInts
	_, err = tx.ExecContext(ctx, `INSERT INTO gov_proposals (id, proposer, type, title, description, payload, deposit,
		status, failure, created_height, created_time_ns, voting_end_height, execute_height, ended_height,
		quorum_bps, threshold_bps, total_power, yes_power, no_power, abstain_power, voters, updated_height)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
		ON CONFLICT (id) DO UPDATE SET status = excluded.status, failure = excluded.failure,
		execute_height = excluded.execute_height, ended_height = excluded.ended_height,
		total_power = excluded.total_power, yes_power = excluded.yes_power, no_power = excluded.no_power,
		abstain_power = excluded.abstain_power, voters = excluded.voters, updated_height = excluded.updated_height`,
		nums[0], p.Proposer.Hex(), p.Type, p.Title, p.Description, string(payload), nums[1],
		p.Status, p.Failure, nums[2], b.timeNS, nums[3], nums[4], ended,
		nums[5], nums[6], nums[7], nums[8], nums[9], nums[10], nums[11], b.height)
	if err != nil {
		return fmt.Errorf("write proposal #%d: %w", p.ID, err)
	}
	return nil
}
