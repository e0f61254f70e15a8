package index

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Notifications are derived from the projected chain data in the block's
// own transaction: every node derives the same threads for the same chain,
// a crash loses none (the block and its notifications commit together),
// and a rebuild derives them again. Each recipient set is one INSERT ...
// SELECT, so a comment on a thread with a thousand watchers costs one
// statement, not a thousand. The actor is never notified of their own
// action. Reasons rank who someone is to the thread: a mention beats a
// review request beats an assignment beats authorship beats participation
// beats watching (asked for, or by default: defaultWatchers). An edit
// notifies only the people its text newly mentions.

// Notification reasons, in rank order (the lowest rank wins).
const (
	ReasonMention         = "mention"
	ReasonReviewRequested = "review_requested"
	ReasonAssign          = "assign"
	ReasonAuthor          = "author"
	ReasonReview          = "review" // a review on your pull request
	ReasonParticipating   = "participating"
	ReasonSubscribed      = "subscribed"
	ReasonTransfer        = "transfer"
	ReasonTip             = "tip"
)

// maxMentions bounds the names one text can notify.
const maxMentions = 50

var mentionRE = regexp.MustCompile(`(?:^|[^\w@/.-])@([A-Za-z0-9][A-Za-z0-9_.-]{0,63})`)

// mentions are the lower-case names text mentions, each once, in order.
func mentions(texts ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, m := range mentionRE.FindAllStringSubmatch(t, -1) {
			name := strings.ToLower(strings.TrimRight(m[1], ".-"))
			if name == "" || seen[name] || len(out) == maxMentions {
				continue
			}
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// threadState is what a change's thread was before it is written: the
// issue's state, assignees and body, the pull request's open review
// requests, and an edited comment's body.
type threadState struct {
	found       bool
	state       string
	body        string
	assignees   map[string]bool
	requested   map[string]bool
	commentBody string
}

// threadBefore reads the state a change's thread had before it is
// written, to tell an assignment, a reopening, a new review request or a
// new mention from an edit that changes none of them.
func threadBefore(ctx context.Context, tx *readdb.WriteTx, ch forge.Change) (threadState, error) {
	st, err := issueBefore(ctx, tx, ch.Issue)
	if err != nil {
		return st, err
	}
	if st.requested, err = requestedBefore(ctx, tx, ch.Pull); err != nil {
		return st, err
	}
	if c := ch.Comment; c != nil && c.Edited {
		err := tx.QueryRowContext(ctx, `SELECT body FROM forge_comments WHERE id = $1`, int64(c.ID)).Scan(&st.commentBody)
		if err != nil && err != sql.ErrNoRows {
			return st, fmt.Errorf("read comment %d before: %w", c.ID, err)
		}
	}
	return st, nil
}

// requestedBefore is the reviewers pr had open requests for before.
func requestedBefore(ctx context.Context, tx *readdb.WriteTx, pr *forge.Pull) (map[string]bool, error) {
	out := map[string]bool{}
	if pr == nil || len(pr.Requested) == 0 {
		return out, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT reviewer FROM forge_review_requests WHERE repo_id = $1 AND number = $2`, int64(pr.Repo), int64(pr.Number))
	if err != nil {
		return nil, fmt.Errorf("read review requests before: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("read review requests before: %w", err)
		}
		out[a] = true
	}
	return out, rows.Err()
}

// issueBefore reads the state, body and assignees is had before.
func issueBefore(ctx context.Context, tx *readdb.WriteTx, is *forge.Issue) (threadState, error) {
	st := threadState{assignees: map[string]bool{}}
	if is == nil {
		return st, nil
	}
	err := tx.QueryRowContext(ctx, `SELECT state, body FROM forge_issues WHERE repo_id = $1 AND number = $2`, int64(is.Repo), int64(is.Number)).Scan(&st.state, &st.body)
	if err == sql.ErrNoRows {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read issue %d#%d before: %w", is.Repo, is.Number, err)
	}
	st.found = true
	rows, err := tx.QueryContext(ctx, `SELECT assignee FROM forge_issue_assignees WHERE repo_id = $1 AND number = $2`, int64(is.Repo), int64(is.Number))
	if err != nil {
		return st, fmt.Errorf("read assignees before: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return st, fmt.Errorf("read assignees before: %w", err)
		}
		st.assignees[a] = true
	}
	return st, rows.Err()
}

// audience is who one thread event notifies.
type audience struct {
	repo, number uint64
	actor        common.Address
	commentID    uint64
	mentioned    []string // lower-case names
	requested    []string // addresses newly asked for a review
	assigned     []string // addresses newly assigned
	authorReason string   // ReasonAuthor, or ReasonReview for a review
	noAuthor     bool     // the author hears only as one of the above
	participants bool     // commenters, reviewers, assignees
	watchers     bool
}

// notifyChange derives the notifications of one applied forge change,
// after its rows are written. before is its issue's state before.
func notifyChange(ctx context.Context, tx *readdb.WriteTx, c forgeChange, before threadState) error {
	ch := c.change
	for _, au := range audiences(ch, before) {
		if err := notifyThread(ctx, tx, c, au); err != nil {
			return fmt.Errorf("notify about %d#%d: %w", au.repo, au.number, err)
		}
	}
	return nil
}

// audiences are the thread events of a change: a comment, a review, a
// review request, a merge (and the issues it closed), an issue opened,
// closed, reopened or assigned. An edit notifies only whom its text newly
// mentions; a deleted comment no one.
func audiences(ch forge.Change, before threadState) []audience {
	var out []audience
	thread := func(repo, number uint64) audience {
		return audience{repo: repo, number: number, actor: ch.Actor, authorReason: ReasonAuthor}
	}
	switch {
	case ch.Comment != nil && ch.Comment.Deleted:
	case ch.Comment != nil && ch.Comment.Edited:
		au := thread(ch.Comment.Repo, ch.Comment.Number)
		au.commentID, au.mentioned, au.noAuthor = ch.Comment.ID, newMentions(before.commentBody, ch.Comment.Body), true
		if len(au.mentioned) > 0 {
			out = append(out, au)
		}
	case ch.Comment != nil:
		au := thread(ch.Comment.Repo, ch.Comment.Number)
		au.commentID, au.mentioned, au.participants, au.watchers = ch.Comment.ID, mentions(ch.Comment.Body), true, true
		out = append(out, au)
	case ch.Review != nil:
		au := thread(ch.Review.Repo, ch.Review.Number)
		texts := []string{ch.Review.Body}
		for _, rc := range ch.Review.Comments {
			texts = append(texts, rc.Body)
		}
		au.authorReason, au.mentioned, au.participants, au.watchers = ReasonReview, mentions(texts...), true, true
		out = append(out, au)
	case ch.Pull != nil && ch.Pull.Merged && ch.Pull.MergedHeight == ch.Height:
		au := thread(ch.Pull.Repo, ch.Pull.Number)
		au.participants, au.watchers = true, true
		out = append(out, au)
	case ch.Issue != nil:
		if au, ok := issueAudience(ch, before); ok {
			out = append(out, au)
		}
	case ch.Pull != nil:
		if au, ok := requestAudience(ch, before); ok {
			out = append(out, au)
		}
	}
	for _, is := range ch.ClosedIssues {
		au := thread(is.Repo, is.Number)
		au.participants, au.watchers = true, true
		out = append(out, au)
	}
	return out
}

// issueAudience is who an issue's own change notifies, if anyone.
func issueAudience(ch forge.Change, before threadState) (audience, bool) {
	is := ch.Issue
	au := audience{repo: is.Repo, number: is.Number, actor: ch.Actor, authorReason: ReasonAuthor}
	for _, a := range is.Assignees {
		if !before.assignees[a.Hex()] {
			au.assigned = append(au.assigned, a.Hex())
		}
	}
	switch {
	case !before.found: // opened
		au.mentioned, au.watchers = mentions(is.Body), true
		return au, true
	case before.state != is.State: // closed or reopened
		au.mentioned, au.participants, au.watchers = newMentions(before.body, is.Body), true, true
		return au, true
	}
	// An edit: the newly assigned and newly mentioned only.
	au.mentioned, au.noAuthor = newMentions(before.body, is.Body), true
	return au, len(au.assigned) > 0 || len(au.mentioned) > 0
}

// newMentions are the names after mentions that before did not.
func newMentions(before, after string) []string {
	old := map[string]bool{}
	for _, m := range mentions(before) {
		old[m] = true
	}
	var out []string
	for _, m := range mentions(after) {
		if !old[m] {
			out = append(out, m)
		}
	}
	return out
}

// requestAudience is the reviewers a change of a pull request newly asks
// for a review, if any: only they hear of it.
func requestAudience(ch forge.Change, before threadState) (audience, bool) {
	pr := ch.Pull
	au := audience{repo: pr.Repo, number: pr.Number, actor: ch.Actor, noAuthor: true}
	for _, rq := range pr.Requested {
		if a := rq.Reviewer.Hex(); !before.requested[a] {
			au.requested = append(au.requested, a)
		}
	}
	return au, len(au.requested) > 0
}

// notifyThread inserts or refreshes the thread of one event for everyone
// in its audience, in one statement. Candidates come with a rank; each
// person gets the best one. A private repository's thread reaches only
// its owner and collaborators.
func notifyThread(ctx context.Context, tx *readdb.WriteTx, c forgeChange, au audience) error {
	var args sqlArgs
	repo, number := args.Add(int64(au.repo)), args.Add(int64(au.number))
	var parts []string
	if len(au.mentioned) > 0 {
		names := args.List(au.mentioned)
		parts = append(parts, `SELECT address AS u, 1 AS rk FROM chain_accounts WHERE lower(username) IN (`+names+`)
			OR (username IS NULL AND default_name IN (`+names+`))`)
	}
	if len(au.requested) > 0 {
		parts = append(parts, `SELECT reviewer AS u, 2 AS rk FROM forge_review_requests WHERE repo_id = `+repo+` AND number = `+number+
			` AND reviewer IN (`+args.List(au.requested)+`)`)
	}
	if len(au.assigned) > 0 {
		parts = append(parts, `SELECT assignee AS u, 3 AS rk FROM forge_issue_assignees WHERE repo_id = `+repo+` AND number = `+number+
			` AND assignee IN (`+args.List(au.assigned)+`)`)
	}
	if !au.noAuthor {
		parts = append(parts, `SELECT author AS u, 4 AS rk FROM forge_issues WHERE repo_id = `+repo+` AND number = `+number)
	}
	if au.participants {
		parts = append(parts,
			`SELECT author AS u, 5 AS rk FROM forge_comments WHERE repo_id = `+repo+` AND number = `+number,
			`SELECT author AS u, 5 AS rk FROM forge_reviews WHERE repo_id = `+repo+` AND number = `+number,
			`SELECT assignee AS u, 5 AS rk FROM forge_issue_assignees WHERE repo_id = `+repo+` AND number = `+number)
	}
	if au.watchers {
		parts = append(parts, `SELECT user_address AS u, 6 AS rk FROM forge_watches WHERE repo_id = `+repo,
			`SELECT u, 6 AS rk FROM (`+defaultWatchers(repo)+`) dws`)
	}
	if len(parts) == 0 {
		return nil
	}
	thread := args.Add(fmt.Sprintf("issue:%d:%d", au.repo, au.number))
	actor := args.Add(au.actor.Hex())
	authorReason := args.Add(au.authorReason)
	q := `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		SELECT c.u, ` + thread + `, i.repo_id, i.number, CASE WHEN i.is_pull THEN 'Pull' ELSE 'Issue' END,
		CASE MIN(c.rk) WHEN 1 THEN 'mention' WHEN 2 THEN 'review_requested' WHEN 3 THEN 'assign' WHEN 4 THEN ` + authorReason + `
			WHEN 5 THEN 'participating' ELSE 'subscribed' END,
		i.title, ` + actor + `, ` + args.Add(int64(au.commentID)) + `, 0, TRUE, FALSE, ` + args.Add(c.height) + `, ` + args.Add(c.timeNS) + `
		FROM (` + strings.Join(parts, " UNION ALL ") + `) c
		JOIN forge_issues i ON i.repo_id = ` + repo + ` AND i.number = ` + number + `
		JOIN forge_repos r ON r.id = i.repo_id
		WHERE c.u <> ` + actor + ` AND (r.private = FALSE OR c.u = r.owner
			OR c.u IN (SELECT user_address FROM forge_collaborators WHERE repo_id = ` + repo + `))
		GROUP BY c.u, i.repo_id, i.number, i.is_pull, i.title
		ON CONFLICT (user_address, thread) DO UPDATE SET reason = excluded.reason, title = excluded.title,
		subject_type = excluded.subject_type, actor = excluded.actor, comment_id = excluded.comment_id,
		unread = TRUE, height = excluded.height, updated_ns = excluded.updated_ns
		RETURNING user_address`
	if _, err := tx.ExecForUsers(ctx, q, args...); err != nil {
		return fmt.Errorf("insert notifications: %w", err)
	}
	return nil
}

// notifyTransfers notifies the recipients of a block's successful
// transfers and tips; sending to oneself notifies no one.
func notifyTransfers(ctx context.Context, db *readdb.WriteTx, txs []txRow) error {
	for _, t := range txs {
		reason := ""
		switch t.kind {
		case string(tx.KindTransfer):
			reason = ReasonTransfer
		case string(tx.KindTip):
			reason = ReasonTip
		}
		if reason == "" || t.code != 0 || t.to == "" || !common.IsHexAddress(t.to) {
			continue
		}
		to, from := common.HexToAddress(t.to).Hex(), common.HexToAddress(t.from).Hex()
		if to == from {
			continue
		}
		_, err := db.ExecForUsers(ctx, `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
			comment_id, amount, unread, pinned, height, updated_ns)
			VALUES ($1, $2, 0, 0, 'Transfer', $3, $4, $5, 0, $6, TRUE, FALSE, $7, $8)
			ON CONFLICT (user_address, thread) DO NOTHING
			RETURNING user_address`,
			to, "tx:"+t.hash, reason, t.hash, from, t.amount, t.height, t.timeNS)
		if err != nil {
			return fmt.Errorf("notify transfer %s: %w", t.hash, err)
		}
	}
	return nil
}
