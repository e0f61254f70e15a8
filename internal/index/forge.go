package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/calendar"
	"github.com/dforge/dforge/internal/index/forum"
	"github.com/dforge/dforge/internal/index/marketplace"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The forge projection: each Forge event carries the records an action
// changed in full (forge.Change), so projecting is writing them as they
// are, in event order, with the block's height and time. Private
// repositories' actions come from the node's private store the same way
// (ProjectPrivate), with their own id range, which is how a rebuild of the
// chain's rows leaves them alone.

// forgeChange is one applied forge action and where it was applied.
type forgeChange struct {
	change forge.Change
	height int64
	timeNS int64
	// relayer is the operator whose transaction carried the action ("" for
	// the private store's): replicas fetch a repository's git data from it.
	relayer string
	// before is what the change is about to edit (readBefore), set as it
	// is written, for the observers.
	before *Before
}

// forgeTables hold the forge projection; each has a repo_id column except
// forge_repos, keyed by id.
var forgeTables = []string{
	"forge_collaborators", "forge_stars", "forge_watches", "forge_labels", "forge_issues",
	"forge_issue_labels", "forge_issue_assignees", "forge_comments", "forge_pulls",
	"forge_reviews", "forge_review_comments", "forge_ref_updates", "forge_manifests",
	"forge_releases", "forge_release_assets", "forge_lfs_objects", "forge_repo_topics",
	"forge_commit_statuses", "forge_branch_protections",
	"forge_milestones", "forge_reactions", "forge_issue_pins", "forge_issue_subscriptions", "forge_timeline",
	"forge_review_requests", "forge_activity", "market_installs", "forge_repo_transfers", "forge_unwatches",
}

// resetForge deletes the chain's forge rows, keeping the private store's.
func resetForge(ctx context.Context, tx *readdb.WriteTx) error {
	for _, table := range forgeTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE repo_id < $1", int64(forge.PrivateIDBase)); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM forge_repos WHERE id < $1", int64(forge.PrivateIDBase)); err != nil {
		return fmt.Errorf("empty forge_repos: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM forge_user_emails"); err != nil {
		return fmt.Errorf("empty forge_user_emails: %w", err)
	}
	// SSH keys exist on chain only.
	if _, err := tx.ExecContext(ctx, "DELETE FROM forge_keys"); err != nil {
		return fmt.Errorf("empty forge_keys: %w", err)
	}
	// So does following: a reset for another chain must not keep this one's.
	if _, err := tx.ExecContext(ctx, "DELETE FROM forge_follows"); err != nil {
		return fmt.Errorf("empty forge_follows: %w", err)
	}
	if err := marketplace.Reset(ctx, tx); err != nil {
		return err
	}
	if err := forum.Reset(ctx, tx); err != nil {
		return err
	}
	return resetOrgs(ctx, tx)
}

// forgePeople are the addresses a change names: the actor, owners,
// collaborators and assignees.
func forgePeople(c forge.Change) []common.Address {
	people := []common.Address{c.Actor}
	for _, r := range c.Repos {
		people = append(people, r.Owner)
	}
	if c.Collaborator != nil {
		people = append(people, c.Collaborator.User)
	}
	if c.Issue != nil {
		people = append(people, c.Issue.Assignees...)
	}
	for _, is := range c.ClosedIssues {
		people = append(people, is.Assignees...)
	}
	return people
}

func writeForge(ctx context.Context, tx *readdb.WriteTx, changes []forgeChange) error {
	for i := range changes {
		c := &changes[i]
		before, err := readBefore(ctx, tx, c.change)
		if err != nil {
			return fmt.Errorf("project %s at height %d: %w", c.change.Action, c.height, err)
		}
		c.before = before
		if err := writeChange(ctx, tx, *c); err != nil {
			return fmt.Errorf("project %s at height %d: %w", c.change.Action, c.height, err)
		}
	}
	return nil
}

func writeChange(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	ch := c.change
	before, err := threadBefore(ctx, tx, ch)
	if err != nil {
		return err
	}
	for _, r := range ch.Repos {
		if err := writeRepo(ctx, tx, c, r); err != nil {
			return err
		}
	}
	steps := []func() error{
		// Before the issue: the timeline compares it with its old row.
		func() error { return writeTimeline(ctx, tx, c) },
		func() error { return writeIssue(ctx, tx, c, ch.Issue) },
		func() error { return writeClosedIssues(ctx, tx, c) },
		func() error { return writePull(ctx, tx, c) },
		func() error { return writeComment(ctx, tx, c) },
		func() error { return writeLabel(ctx, tx, c) },
		func() error { return writeMilestone(ctx, tx, c) },
		func() error { return writeReaction(ctx, tx, c) },
		func() error { return writePins(ctx, tx, c) },
		func() error { return writeSubscription(ctx, tx, c) },
		func() error { return writeReview(ctx, tx, c) },
		func() error { return writeCollaborator(ctx, tx, c) },
		func() error { return writeFlag(ctx, tx, c, "forge_stars", ch.Star) },
		func() error { return writeFlag(ctx, tx, c, "forge_watches", ch.Watch) },
		func() error { return writeUnwatch(ctx, tx, c, ch.Watch) },
		func() error { return writeRef(ctx, tx, c) },
		func() error { return writeManifest(ctx, tx, c) },
		func() error { return writeRelease(ctx, tx, c) },
		func() error { return writeLFS(ctx, tx, c) },
		func() error { return writeEmails(ctx, tx, c) },
		func() error { return writeOrgs(ctx, tx, c) },
		func() error { return writeTeams(ctx, tx, c) },
		func() error { return writeTeamMembers(ctx, tx, ch.TeamMembers) },
		func() error { return writeTeamRepos(ctx, tx, ch.TeamRepos) },
		func() error { return writeStatus(ctx, tx, c) },
		func() error { return writeProtection(ctx, tx, c) },
		func() error { return writeKey(ctx, tx, c) },
		func() error { return writeFollow(ctx, tx, c) },
		func() error { return calendar.Write(ctx, tx, ch, c.height, c.timeNS) },
		func() error { return marketplace.Write(ctx, tx, ch, c.height, c.timeNS) },
		func() error { return forum.Write(ctx, tx, ch, c.height, c.timeNS) },
		func() error { return notifyForum(ctx, tx, c) },
		func() error { return writeTransfer(ctx, tx, c) },
		func() error { return writeActivity(ctx, tx, c) },
		func() error { return notifyChange(ctx, tx, c, before) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func nullable(v uint64, ok bool) sql.NullInt64 { return sql.NullInt64{Int64: int64(v), Valid: ok} }

func writeRepo(ctx context.Context, tx *readdb.WriteTx, c forgeChange, r forge.Repo) error {
	if r.Deleted {
		return deleteRepo(ctx, tx, r.ID)
	}
	protected, _ := json.Marshal(r.ProtectedBranches)
	topics, _ := json.Marshal(r.Topics)
	if r.Topics == nil {
		topics = []byte("[]")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_repos (id, owner, name, lower_name, description, default_branch,
		protected_branches, private, fork_of, stars, forks, watchers, open_issues, open_pulls,
		created_height, created_time_ns, updated_height, updated_time_ns, relayer, topics, website, signer, delegation)
		VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $15, $17, $18, $19, $20, $21)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, name = excluded.name, lower_name = excluded.lower_name,
		description = excluded.description, default_branch = excluded.default_branch,
		protected_branches = excluded.protected_branches, stars = excluded.stars, forks = excluded.forks,
		watchers = excluded.watchers, open_issues = excluded.open_issues, open_pulls = excluded.open_pulls,
		updated_height = excluded.updated_height, updated_time_ns = excluded.updated_time_ns, topics = excluded.topics,
		website = excluded.website`,
		int64(r.ID), r.Owner.Hex(), r.Name, r.Description, r.DefaultBranch, string(protected), r.Private,
		nullable(r.ForkOf, r.ForkOf != 0), int64(r.Stars), int64(r.Forks), int64(r.Watchers), int64(r.OpenIssues), int64(r.OpenPulls),
		int64(r.CreatedHeight), c.timeNS, c.height, c.relayer, string(topics), r.Website, c.change.Signer, c.change.Delegation)
	if err != nil {
		return fmt.Errorf("write repository %d: %w", r.ID, err)
	}
	return writeTopics(ctx, tx, r)
}

func deleteRepo(ctx context.Context, tx *readdb.WriteTx, id uint64) error {
	for _, table := range forgeTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE repo_id = $1", int64(id)); err != nil {
			return fmt.Errorf("delete repository %d from %s: %w", id, table, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM forge_repos WHERE id = $1", int64(id)); err != nil {
		return fmt.Errorf("delete repository %d: %w", id, err)
	}
	return nil
}

// timeAt is the block time when the record's event height is this
// change's (it happened now), else NULL: the stored time is kept.
func timeAt(c forgeChange, at uint64) sql.NullInt64 {
	return sql.NullInt64{Int64: c.timeNS, Valid: at != 0 && int64(at) == c.height}
}

// writeClosedIssues writes the issues a merged pull request closed.
func writeClosedIssues(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for i := range c.change.ClosedIssues {
		if err := writeIssue(ctx, tx, c, &c.change.ClosedIssues[i]); err != nil {
			return err
		}
	}
	return nil
}

func writeIssue(ctx context.Context, tx *readdb.WriteTx, c forgeChange, is *forge.Issue) error {
	if is == nil {
		return nil
	}
	ctx = readdb.InScope(ctx, issueScope(is.Repo, is.Number)) // every statement below stays within the issue's rows
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_issues (repo_id, number, is_pull, author, title, body, state, state_reason,
		comments, created_height, created_time_ns, updated_height, updated_time_ns, closed_height, closed_time_ns, milestone_id,
		signer, delegation)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $11, $13, $14, $15, $16, $17)
		ON CONFLICT (repo_id, number) DO UPDATE SET title = excluded.title, body = excluded.body, state = excluded.state,
		state_reason = excluded.state_reason, comments = excluded.comments, milestone_id = excluded.milestone_id,
		updated_height = excluded.updated_height,
		updated_time_ns = excluded.updated_time_ns, closed_height = excluded.closed_height,
		closed_time_ns = CASE WHEN excluded.closed_height IS NULL THEN NULL
			ELSE COALESCE(excluded.closed_time_ns, forge_issues.closed_time_ns) END`,
		int64(is.Repo), int64(is.Number), is.IsPull, is.Author.Hex(), is.Title, is.Body, is.State, is.StateReason,
		int64(is.Comments), int64(is.CreatedHeight), c.timeNS, c.height, nullable(is.ClosedHeight, is.ClosedHeight != 0), timeAt(c, is.ClosedHeight),
		nullable(is.Milestone, is.Milestone != 0), c.change.Signer, c.change.Delegation)
	if err != nil {
		return fmt.Errorf("write issue %d#%d: %w", is.Repo, is.Number, err)
	}
	// Labels and assignees are replaced as a whole, in the record's order.
	for _, q := range []string{`DELETE FROM forge_issue_labels WHERE repo_id = $1 AND number = $2`,
		`DELETE FROM forge_issue_assignees WHERE repo_id = $1 AND number = $2`} {
		if _, err := tx.ExecContext(ctx, q, int64(is.Repo), int64(is.Number)); err != nil {
			return fmt.Errorf("write issue %d#%d: %w", is.Repo, is.Number, err)
		}
	}
	for _, l := range is.Labels {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_issue_labels (repo_id, number, label_id) VALUES ($1, $2, $3)`,
			int64(is.Repo), int64(is.Number), int64(l)); err != nil {
			return fmt.Errorf("label issue %d#%d: %w", is.Repo, is.Number, err)
		}
	}
	for _, a := range is.Assignees {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_issue_assignees (repo_id, number, assignee) VALUES ($1, $2, $3)`,
			int64(is.Repo), int64(is.Number), a.Hex()); err != nil {
			return fmt.Errorf("assign issue %d#%d: %w", is.Repo, is.Number, err)
		}
	}
	return nil
}

func writePull(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	pr := c.change.Pull
	if pr == nil {
		return nil
	}
	mergedBy := ""
	if pr.Merged {
		mergedBy = pr.MergedBy.Hex()
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_pulls (repo_id, number, head_repo_id, head_branch, base_branch,
		head_sha, base_sha, merged, merge_sha, merge_style, merged_by, merged_height, merged_time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		ON CONFLICT (repo_id, number) DO UPDATE SET head_sha = excluded.head_sha, base_sha = excluded.base_sha,
		merged = excluded.merged, merge_sha = excluded.merge_sha, merge_style = excluded.merge_style,
		merged_by = excluded.merged_by, merged_height = excluded.merged_height,
		merged_time_ns = COALESCE(excluded.merged_time_ns, forge_pulls.merged_time_ns)`,
		int64(pr.Repo), int64(pr.Number), int64(pr.HeadRepo), pr.HeadBranch, pr.BaseBranch, pr.HeadSHA, pr.BaseSHA,
		pr.Merged, pr.MergeSHA, pr.MergeStyle, mergedBy, nullable(pr.MergedHeight, pr.Merged), timeAt(c, pr.MergedHeight))
	if err != nil {
		return fmt.Errorf("write pull request %d#%d: %w", pr.Repo, pr.Number, err)
	}
	return writeReviewRequests(ctx, tx, c, pr)
}

func writeLabel(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	if l := c.change.Label; l != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_labels (id, repo_id, name, color, description, exclusive, signer, delegation)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, color = excluded.color, description = excluded.description, exclusive = excluded.exclusive`,
			int64(l.ID), int64(l.Repo), l.Name, l.Color, l.Description, l.Exclusive, c.change.Signer, c.change.Delegation); err != nil {
			return fmt.Errorf("write label %d: %w", l.ID, err)
		}
	}
	if l := c.change.DeletedLabel; l != nil {
		for _, q := range []string{`DELETE FROM forge_issue_labels WHERE label_id = $1`, `DELETE FROM forge_labels WHERE id = $1`} {
			if _, err := tx.ExecContext(ctx, q, int64(l.ID)); err != nil {
				return fmt.Errorf("delete label %d: %w", l.ID, err)
			}
		}
	}
	return nil
}

func writeReview(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	if err := writeDismissal(ctx, tx, c.change.Dismissal); err != nil {
		return err
	}
	rv := c.change.Review
	if rv == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO forge_reviews (id, repo_id, number, author, state, body, commit_sha, height, time_ns, signer, delegation)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, int64(rv.ID), int64(rv.Repo), int64(rv.Number), rv.Author.Hex(),
		rv.State, rv.Body, rv.CommitSHA, c.height, c.timeNS, c.change.Signer, c.change.Delegation); err != nil {
		return fmt.Errorf("write review %d: %w", rv.ID, err)
	}
	for _, cm := range rv.Comments {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_review_comments (id, review_id, repo_id, number, path, line, side, body)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, int64(cm.ID), int64(rv.ID), int64(rv.Repo), int64(rv.Number),
			cm.Path, int64(cm.Line), cm.Side, cm.Body); err != nil {
			return fmt.Errorf("write review comment %d: %w", cm.ID, err)
		}
	}
	return nil
}

func writeCollaborator(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	cb := c.change.Collaborator
	if cb == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM forge_collaborators WHERE repo_id = $1 AND user_address = $2`, int64(cb.Repo), cb.User.Hex()); err != nil {
		return fmt.Errorf("write collaborator: %w", err)
	}
	if cb.Permission == forge.PermNone.String() {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO forge_collaborators (repo_id, user_address, permission) VALUES ($1, $2, $3)`,
		int64(cb.Repo), cb.User.Hex(), cb.Permission); err != nil {
		return fmt.Errorf("write collaborator: %w", err)
	}
	return nil
}

// writeFlag records a star or a watch; setting it twice keeps the first.
func writeFlag(ctx context.Context, tx *readdb.WriteTx, c forgeChange, table string, f *forge.Flag) error {
	if f == nil {
		return nil
	}
	var err error
	if f.On {
		_, err = tx.ExecContext(ctx, `INSERT INTO `+table+` (repo_id, user_address, height, time_ns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo_id, user_address) DO NOTHING`, int64(f.Repo), f.User.Hex(), c.height, c.timeNS)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE repo_id = $1 AND user_address = $2`, int64(f.Repo), f.User.Hex())
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", table, err)
	}
	return nil
}

// writeUnwatch remembers an explicit unwatch, which outlasts watching by
// default (defaultWatchers), and forgets it on a watch.
func writeUnwatch(ctx context.Context, tx *readdb.WriteTx, c forgeChange, f *forge.Flag) error {
	if f == nil {
		return nil
	}
	var err error
	if f.On {
		_, err = tx.ExecContext(ctx, `DELETE FROM forge_unwatches WHERE repo_id = $1 AND user_address = $2`, int64(f.Repo), f.User.Hex())
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO forge_unwatches (repo_id, user_address, height, time_ns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo_id, user_address) DO NOTHING`, int64(f.Repo), f.User.Hex(), c.height, c.timeNS)
	}
	if err != nil {
		return fmt.Errorf("write forge_unwatches: %w", err)
	}
	return nil
}

func writeRef(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, ref := range c.change.RefUpdates() {
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_ref_updates (id, repo_id, ref, old_sha, new_sha, forced, pusher, height, time_ns, relayer, manifest)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, int64(ref.ID), int64(ref.Repo), ref.Ref, ref.Old, ref.New, ref.Forced,
			c.change.Actor.Hex(), c.height, c.timeNS, c.relayer, ref.Manifest)
		if err != nil {
			return fmt.Errorf("write ref update %d: %w", ref.ID, err)
		}
	}
	return nil
}

// writeManifest records a manifest of big objects sent after its push;
// the same one twice is one row.
func writeManifest(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	m := c.change.Manifest
	if m == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_manifests (repo_id, manifest, height) VALUES ($1, $2, $3)
		ON CONFLICT (repo_id, manifest) DO NOTHING`, int64(m.Repo), m.Manifest, c.height)
	if err != nil {
		return fmt.Errorf("write manifest of repository %d: %w", m.Repo, err)
	}
	return nil
}

// PrivateEntry is one action applied to the node's private store: its
// sequence number (the private store's "height"), when it was applied, and
// the events it gave.
type PrivateEntry struct {
	Seq    uint64
	TimeNS int64
	Events []abci.Event
}

// PrivateSeq is the last private store entry projected (0 for none).
func (ix *Index) PrivateSeq(ctx context.Context) (uint64, error) {
	var seq int64
	err := ix.db.QueryRowContext(ctx, `SELECT seq FROM forge_private_index WHERE id = 1`).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read private projection seq: %w", err)
	}
	return uint64(seq), nil
}

// ProjectPrivate writes private store entries, in order, each in one SQL
// transaction with the new sequence number; entries already projected are
// skipped, so replaying the store's log after a crash is safe.
func (ix *Index) ProjectPrivate(ctx context.Context, entries ...PrivateEntry) error {
	ix.privateMu.Lock()
	defer ix.privateMu.Unlock()
	done, err := ix.PrivateSeq(ctx)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Seq <= done {
			continue
		}
		if e.Seq != done+1 {
			return fmt.Errorf("project private entry %d: entry %d is the next one", e.Seq, done+1)
		}
		var changes []forgeChange
		for _, ev := range e.Events {
			if ev.Type != forge.EventType {
				continue
			}
			c, err := forge.ParseEvent(ev)
			if err != nil {
				return fmt.Errorf("project private entry %d: %w", e.Seq, err)
			}
			changes = append(changes, forgeChange{change: c, height: int64(e.Seq), timeNS: e.TimeNS})
		}
		err := ix.inTx(ctx, func(tx *readdb.WriteTx) error {
			if err := writeForge(ctx, tx, changes); err != nil {
				return err
			}
			if err := ix.observe(ctx, tx, changes, true); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO forge_private_index (id, seq) VALUES (1, $1)
				ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`, int64(e.Seq))
			return err
		})
		if err != nil {
			return fmt.Errorf("project private entry %d: %w", e.Seq, err)
		}
		ix.projected(len(changes))
		done = e.Seq
	}
	return nil
}

// writeEmails replaces the account's claimed emails.
func writeEmails(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	claim := c.change.Emails
	if claim == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM forge_user_emails WHERE address = $1`, claim.Address.Hex()); err != nil {
		return fmt.Errorf("clear the emails of %s: %w", claim.Address.Hex(), err)
	}
	for _, e := range claim.Emails {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_user_emails (email, address) VALUES ($1, $2)
			ON CONFLICT (email) DO UPDATE SET address = excluded.address`, e, claim.Address.Hex()); err != nil {
			return fmt.Errorf("write the email claims of %s: %w", claim.Address.Hex(), err)
		}
	}
	return nil
}

// writeTopics rewrites the repository's topic rows from its record.
func writeTopics(ctx context.Context, tx *readdb.WriteTx, r forge.Repo) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM forge_repo_topics WHERE repo_id = $1`, int64(r.ID)); err != nil {
		return fmt.Errorf("clear the topics of repository %d: %w", r.ID, err)
	}
	for _, t := range r.Topics {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_repo_topics (repo_id, topic) VALUES ($1, $2)`, int64(r.ID), t); err != nil {
			return fmt.Errorf("write the topics of repository %d: %w", r.ID, err)
		}
	}
	return nil
}
