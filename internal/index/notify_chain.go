package index

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Notifications of the chain's own modules: a reward earned or withheld,
// a proposal opening, and a proposal about to end. Like the forge's, each
// event is one INSERT ... SELECT in the block's transaction.

// Reasons of the chain modules' notifications.
const (
	ReasonReward         = "reward"          // a reward paid in full
	ReasonRewardWithheld = "reward_withheld" // withheld in whole or in part; the reward says why
	ReasonProposalOpened = "proposal_opened"
	ReasonProposalEnding = "proposal_ending"
)

// Subject types of the chain modules' notifications.
const (
	SubjectReward   = "Reward"
	SubjectProposal = "Proposal"
)

// notifyRewards tells each contributor of the block's rewards what they
// earned, or that it was withheld and why: one thread per reward
// (reward:<height>:<seq>, its number the seq). A reward that was worth
// nothing and withheld nothing (a kind whose base is 0) says nothing. The
// title names the work: owner/repo#number, or owner/repo@sha for a commit.
func notifyRewards(ctx context.Context, tx *readdb.WriteTx, b blockRow) error {
	_, err := tx.ExecForUsers(ctx, `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		SELECT w.account, 'reward:' || CAST(w.height AS TEXT) || ':' || CAST(w.seq AS TEXT), 0, w.seq, 'Reward',
			CASE WHEN w.reason = '' THEN 'reward' ELSE 'reward_withheld' END,
			COALESCE(`+userExpr("o")+` || '/' || r.name, '') || CASE WHEN w.number <> 0 THEN '#' || CAST(w.number AS TEXT)
				WHEN w.sha <> '' THEN '@' || substr(w.sha, 1, 10) ELSE '' END,
			$3, 0, w.minted, TRUE, FALSE, w.height, $2
		FROM chain_rewards w
		LEFT JOIN forge_repos r ON r.id = w.repo_id
		LEFT JOIN chain_accounts o ON o.address = r.owner
		WHERE w.height = $1 AND (w.minted > 0 OR w.reason <> '')
		ON CONFLICT (user_address, thread) DO NOTHING
		RETURNING user_address`, b.height, b.timeNS, common.Address{}.Hex())
	if err != nil {
		return fmt.Errorf("notify rewards: %w", err)
	}
	return nil
}

// notifyProposals tells everyone holding stake of the proposals the block
// opened (not their proposer), and of the proposals about to end.
func notifyProposals(ctx context.Context, tx *readdb.WriteTx, b blockRow, g govRows) error {
	opened := map[uint64]bool{}
	for _, p := range g.proposals {
		if int64(p.CreatedHeight) != b.height || opened[p.ID] {
			continue
		}
		opened[p.ID] = true
		if err := notifyStakers(ctx, tx, b, p.ID, ReasonProposalOpened, p.Proposer.Hex()); err != nil {
			return err
		}
	}
	ending, err := proposalsEnding(ctx, tx, b.height)
	if err != nil {
		return err
	}
	for _, id := range ending {
		if err := notifyStakers(ctx, tx, b, id, ReasonProposalEnding, ""); err != nil {
			return err
		}
	}
	return nil
}

// proposalsEnding are the active proposals whose last tenth of the voting
// period (at least its last block) starts at height: each reaches it in
// exactly one block, so the reminder comes once. A proposal whose whole
// period is that one block has only its opening.
func proposalsEnding(ctx context.Context, tx *readdb.WriteTx, height int64) ([]uint64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM gov_proposals
		WHERE status = $1 AND created_height < $2 AND voting_end_height - CASE
			WHEN (voting_end_height - created_height) / 10 > 1 THEN (voting_end_height - created_height) / 10 ELSE 1 END = $2
		ORDER BY id`, gov.StatusActive, height)
	if err != nil {
		return nil, fmt.Errorf("read proposals ending at %d: %w", height, err)
	}
	defer rows.Close()
	var ids []uint64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read proposals ending at %d: %w", height, err)
		}
		ids = append(ids, uint64(id))
	}
	return ids, rows.Err()
}

// notifyStakers gives every account with stake, but the one left out, a
// thread proposal:<id> with reason. A reminder that the vote ends skips
// those who voted already.
func notifyStakers(ctx context.Context, tx *readdb.WriteTx, b blockRow, id uint64, reason, leaveOut string) error {
	pid, err := sqlInt(id)
	if err != nil {
		return fmt.Errorf("notify proposal #%d: %w", id, err)
	}
	q := `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		SELECT a.address, $2, 0, p.id, 'Proposal', $3, p.title, p.proposer, 0, 0, TRUE, FALSE, $4, $5
		FROM gov_proposals p JOIN chain_accounts a ON a.staked > 0 AND a.address <> $6
		WHERE p.id = $1`
	if reason == ReasonProposalEnding {
		q += ` AND NOT EXISTS (SELECT 1 FROM gov_votes v WHERE v.proposal = p.id AND v.voter = a.address)`
	}
	q += ` ON CONFLICT (user_address, thread) DO UPDATE SET reason = excluded.reason, title = excluded.title,
		unread = TRUE, height = excluded.height, updated_ns = excluded.updated_ns
		RETURNING user_address`
	if _, err := tx.ExecForUsers(ctx, q, pid, fmt.Sprintf("proposal:%d", id), reason, b.height, b.timeNS, leaveOut); err != nil {
		return fmt.Errorf("notify proposal #%d: %w", id, err)
	}
	return nil
}
