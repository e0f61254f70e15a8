package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Pending repository transfers (forge.Transfer): a row per repository
// offered to a new owner, from the offer to its answer. The offer
// notifies whoever may accept it, as Gitea's RepoPendingTransfer does:
// the recipient, or an organization's owners and members of its teams
// that may create repositories.

// ReasonRepoTransfer is the reason of the notification of an offer;
// SubjectRepository its subject type (Gitea's "Repository").
const (
	ReasonRepoTransfer = "repo_transfer"
	SubjectRepository  = "Repository"
)

// writeTransfer records an offer or drops the one its answer ended.
func writeTransfer(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	t := c.change.Transfer
	if t == nil {
		return nil
	}
	if t.State != forge.TransferPending {
		if _, err := tx.ExecContext(ctx, `DELETE FROM forge_repo_transfers WHERE repo_id = $1`, int64(t.Repo)); err != nil {
			return fmt.Errorf("drop the transfer of repository %d: %w", t.Repo, err)
		}
		return nil
	}
	teams, _ := json.Marshal(t.Teams) // integers: cannot fail
	if t.Teams == nil {
		teams = []byte("[]")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_repo_transfers (repo_id, doer, recipient, teams, height, time_ns)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (repo_id) DO UPDATE SET doer = excluded.doer,
		recipient = excluded.recipient, teams = excluded.teams, height = excluded.height, time_ns = excluded.time_ns`,
		int64(t.Repo), t.Doer.Hex(), t.Recipient.Hex(), string(teams), c.height, c.timeNS)
	if err != nil {
		return fmt.Errorf("write the transfer of repository %d: %w", t.Repo, err)
	}
	return notifyTransferOffer(ctx, tx, c, t)
}

// notifyTransferOffer tells those who may accept t of it, in one thread
// per repository (transfer:<repo>), titled with the repository's full
// name. The maker is never notified.
// The select list's parameters are cast: PostgreSQL cannot infer their
// types there (an INSERT ... SELECT gives them none).
func notifyTransferOffer(ctx context.Context, tx *readdb.WriteTx, c forgeChange, t *forge.Transfer) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		SELECT DISTINCT c.u, CAST($1 AS TEXT), r.id, 0, CAST($2 AS TEXT), CAST($3 AS TEXT), `+userExpr("o")+` || '/' || r.name,
			CAST($4 AS TEXT), 0, 0, TRUE, FALSE, CAST($5 AS BIGINT), CAST($6 AS BIGINT)
		FROM (
			SELECT CAST($7 AS TEXT) AS u WHERE NOT EXISTS (SELECT 1 FROM forge_orgs WHERE address = $7)
			UNION
			SELECT m.user_address AS u FROM forge_orgs g JOIN forge_teams tm ON tm.org_id = g.id
				JOIN forge_team_members m ON m.team_id = tm.id
				WHERE g.address = $7 AND (tm.permission = 'owner' OR tm.can_create_org_repo)
		) c
		JOIN forge_repos r ON r.id = $8
		LEFT JOIN chain_accounts o ON o.address = r.owner
		WHERE c.u <> $4
		ON CONFLICT (user_address, thread) DO UPDATE SET reason = excluded.reason, title = excluded.title,
		subject_type = excluded.subject_type, actor = excluded.actor, unread = TRUE, height = excluded.height,
		updated_ns = excluded.updated_ns`,
		fmt.Sprintf("transfer:%d", t.Repo), SubjectRepository, ReasonRepoTransfer, t.Doer.Hex(), c.height, c.timeNS,
		t.Recipient.Hex(), int64(t.Repo))
	if err != nil {
		return fmt.Errorf("notify the transfer of repository %d: %w", t.Repo, err)
	}
	return nil
}
