package index

import (
	"context"
	"fmt"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/grants"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The grants projection: a grant proposal's Proposal events make its row
// (proposed while voted on, rejected if the vote or the execution failed);
// the Grant events, which carry the grant in full, move it (active,
// completed, expired) and add each approval. Both are applied in the
// order the chain emitted them.

// grantTables hold the grants projection; reindex empties them with the
// governance tables.
var grantTables = []string{"grants", "grant_milestones", "grant_approvals"}

// Grant statuses the projection adds to the chain's.
const (
	GrantProposed = "proposed"
	GrantRejected = "rejected"
)

// GrantStatuses are the statuses a grant list may be narrowed to.
var GrantStatuses = []string{GrantProposed, grants.StatusActive, grants.StatusCompleted, grants.StatusExpired, GrantRejected}

// grantChange is one grant proposal change or one Grant event.
type grantChange struct {
	proposal *gov.Proposal
	grant    *grants.Grant
}

// applyGrant reads a Grant event into rows.
func (g *govRows) applyGrant(ev abci.Event) error {
	gr, err := grants.ParseEvent(ev)
	if err != nil || gr.ID == 0 {
		return fmt.Errorf("%s event: data is not a grant (%v)", ev.Type, err)
	}
	g.grants = append(g.grants, grantChange{grant: &gr})
	return nil
}

// writeGrants writes the block's grant changes in order.
func writeGrants(ctx context.Context, tx *readdb.WriteTx, b blockRow, changes []grantChange) error {
	for _, c := range changes {
		var err error
		if c.proposal != nil {
			err = writeGrantProposal(ctx, tx, b, c.proposal)
		} else {
			err = writeGrant(ctx, tx, b, c.grant)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeGrantProposal makes a grant's row when its proposal is made and
// marks it rejected when the vote or the execution failed; the Grant
// event of an execution does the rest.
func writeGrantProposal(ctx context.Context, tx *readdb.WriteTx, b blockRow, p *gov.Proposal) error {
	switch p.Status {
	case gov.StatusRejected, gov.StatusFailed:
		if _, err := tx.ExecContext(ctx, `UPDATE grants SET status = $1, failure = $2, updated_height = $3 WHERE id = $4`,
			GrantRejected, p.Failure, b.height, int64(p.ID)); err != nil {
			return fmt.Errorf("reject grant #%d: %w", p.ID, err)
		}
		return nil
	case gov.StatusExecuted:
		return nil
	}
	terms, err := grants.ParseTerms(p.Payload)
	if err != nil {
		return fmt.Errorf("grant proposal #%d: %w", p.ID, err)
	}
	nums, err := sqlInts(p.ID, terms.Total, terms.Expiry, p.CreatedHeight)
	if err != nil {
		return fmt.Errorf("write grant #%d: %w", p.ID, err)
	}
	reviewers := make([]string, len(terms.Reviewers))
	for i, r := range terms.Reviewers {
		reviewers[i] = r.Hex()
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO grants (id, title, proposer, status, failure, total, released, refunded,
		expiry, reviewers, created_height, created_time_ns, updated_height)
		VALUES ($1, $2, $3, $4, '', $5, 0, 0, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
		nums[0], p.Title, p.Proposer.Hex(), GrantProposed, nums[1], nums[2], strings.Join(reviewers, ","), nums[3], b.timeNS, b.height); err != nil {
		return fmt.Errorf("write grant #%d: %w", p.ID, err)
	}
	for i, m := range terms.Milestones {
		if _, err := tx.ExecContext(ctx, `INSERT INTO grant_milestones (grant_id, milestone, description, amount, recipient, released, released_height)
			VALUES ($1, $2, $3, $4, $5, FALSE, 0) ON CONFLICT (grant_id, milestone) DO NOTHING`,
			nums[0], i, m.Description, int64(m.Amount), m.Recipient.Hex()); err != nil { // amounts fit: their total does
			return fmt.Errorf("write milestone %d of grant #%d: %w", i, p.ID, err)
		}
	}
	return nil
}

// writeGrant applies a Grant event: the grant's status and sums, each
// milestone's release and every approval not yet written.
func writeGrant(ctx context.Context, tx *readdb.WriteTx, b blockRow, g *grants.Grant) error {
	nums, err := sqlInts(g.ID, g.Released, g.Refunded)
	if err != nil {
		return fmt.Errorf("write grant #%d: %w", g.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE grants SET status = $1, released = $2, refunded = $3, updated_height = $4 WHERE id = $5`,
		g.Status, nums[1], nums[2], b.height, nums[0]); err != nil {
		return fmt.Errorf("write grant #%d: %w", g.ID, err)
	}
	for i, m := range g.Milestones {
		h, err := sqlInt(m.ReleasedHeight)
		if err != nil {
			return fmt.Errorf("write milestone %d of grant #%d: %w", i, g.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE grant_milestones SET released = $1, released_height = $2 WHERE grant_id = $3 AND milestone = $4`,
			m.Released, h, nums[0], i); err != nil {
			return fmt.Errorf("write milestone %d of grant #%d: %w", i, g.ID, err)
		}
		for _, a := range m.Approvals {
			h, err := sqlInt(a.Height)
			if err != nil {
				return fmt.Errorf("write an approval of grant #%d: %w", g.ID, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO grant_approvals (grant_id, milestone, reviewer, height, time_ns)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT (grant_id, milestone, reviewer) DO NOTHING`,
				nums[0], i, a.Reviewer.Hex(), h, b.timeNS); err != nil {
				return fmt.Errorf("write an approval of grant #%d: %w", g.ID, err)
			}
		}
	}
	return nil
}
