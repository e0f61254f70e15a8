package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// An issue's timeline (Gitea's /timeline): its comments and what happened
// to it, read off each change as it is projected. An edit is compared
// with the issue's row before it is written, so the timeline says which
// labels, assignees, title or milestone it changed. A reference is a
// "#N" in an issue's, pull request's or comment's text naming another
// issue of the same repository. A push that moves the head branch of an
// open pull request is a "pull_push" on it, read off the ref update: its
// old and new commits (the API lists the commits between them with git).
// Each event keeps the signer and delegation of the action that made it,
// so the timeline can say who signed a label or a close as it does a
// comment.

// Timeline event kinds, as Gitea names them.
const (
	KindComment    = "comment"
	KindClose      = "close"
	KindReopen     = "reopen"
	KindMergePull  = "merge_pull"
	KindLabel      = "label"
	KindAssignees  = "assignees"
	KindTitle      = "change_title"
	KindMilestone  = "milestone"
	KindPin        = "pin"
	KindUnpin      = "unpin"
	KindIssueRef   = "issue_ref"
	KindPullRef    = "pull_ref"
	KindCommentRef = "comment_ref"
	KindPullPush   = "pull_push"
)

// TimelineData is an event's details; which fields are set depends on its
// kind.
type TimelineData struct {
	// Label: the label added or removed (as it was then).
	Label *Label `json:"label,omitempty"`
	// Assignee: the person assigned or unassigned.
	Assignee string `json:"assignee,omitempty"`
	Removed  bool   `json:"removed,omitempty"`
	// Title change.
	OldTitle string `json:"oldTitle,omitempty"`
	NewTitle string `json:"newTitle,omitempty"`
	// Milestone change: ids and titles, 0 and "" for none.
	OldMilestone      uint64 `json:"oldMilestone,omitempty"`
	NewMilestone      uint64 `json:"newMilestone,omitempty"`
	OldMilestoneTitle string `json:"oldMilestoneTitle,omitempty"`
	NewMilestoneTitle string `json:"newMilestoneTitle,omitempty"`
	// Ref: the issue or pull request (and comment) that mentions this one;
	// Close: the pull request whose merge closed it.
	Ref        uint64 `json:"ref,omitempty"`
	RefComment uint64 `json:"refComment,omitempty"`
	RefIsPull  bool   `json:"refIsPull,omitempty"`
	RefTitle   string `json:"refTitle,omitempty"`
	// PullPush: the head branch moved from OldSHA to NewSHA (OldSHA ""
	// when the branch was made anew), Forced when not a fast-forward.
	OldSHA string `json:"oldSha,omitempty"`
	NewSHA string `json:"newSha,omitempty"`
	Forced bool   `json:"forced,omitempty"`
}

// timelineRow is an event to write.
type timelineRow struct {
	repo, number uint64
	kind         string
	comment      uint64
	data         TimelineData
}

func writeTimeline(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	rows, err := timelineOf(ctx, tx, c.change)
	if err != nil {
		return err
	}
	pushes, err := pushEvents(ctx, tx, c.change.RefUpdates())
	if err != nil {
		return err
	}
	rows = append(rows, pushes...)
	for _, r := range rows {
		data, _ := json.Marshal(r.data) // strings and integers: cannot fail
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_timeline (repo_id, number, kind, actor, comment_id, data, height, time_ns, signer, delegation)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, int64(r.repo), int64(r.number), r.kind, c.change.Actor.Hex(),
			nullable(r.comment, r.comment != 0), string(data), c.height, c.timeNS, c.change.Signer, c.change.Delegation); err != nil {
			return fmt.Errorf("write timeline of %d#%d: %w", r.repo, r.number, err)
		}
	}
	return nil
}

// timelineOf is what change adds to timelines.
func timelineOf(ctx context.Context, tx *readdb.WriteTx, ch forge.Change) ([]timelineRow, error) {
	is := ch.Issue
	switch ch.Action {
	case "issue.create", "pr.create":
		return refsOf(ctx, tx, is.Repo, is.Number, 0, is.IsPull, is.Title, is.Body)
	case "issue.comment":
		cm := ch.Comment
		rows := []timelineRow{{repo: cm.Repo, number: cm.Number, kind: KindComment, comment: cm.ID}}
		refs, err := refsOf(ctx, tx, cm.Repo, cm.Number, cm.ID, is.IsPull, is.Title, cm.Body)
		return append(rows, refs...), err
	case "issue.edit":
		return editEvents(ctx, tx, is)
	case "issue.close", "pr.close":
		return []timelineRow{{repo: is.Repo, number: is.Number, kind: KindClose}}, nil
	case "issue.reopen", "pr.reopen":
		return []timelineRow{{repo: is.Repo, number: is.Number, kind: KindReopen}}, nil
	case "pr.merge":
		rows := []timelineRow{{repo: is.Repo, number: is.Number, kind: KindMergePull}}
		for _, closed := range ch.ClosedIssues {
			rows = append(rows, timelineRow{repo: closed.Repo, number: closed.Number, kind: KindClose,
				data: TimelineData{Ref: is.Number, RefIsPull: true, RefTitle: is.Title}})
		}
		return rows, nil
	case "issue.pin", "issue.unpin":
		return pinEvents(ctx, tx, ch.Pins)
	}
	return nil, nil
}

// pushEvents gives a pull_push on each open pull request whose head branch
// a ref update moved to a commit other than its recorded head. A branch
// deleted is none: the pull request keeps the head it had.
func pushEvents(ctx context.Context, tx *readdb.WriteTx, refs []forge.RefUpdate) ([]timelineRow, error) {
	var rows []timelineRow
	for _, ref := range refs {
		branch, ok := strings.CutPrefix(ref.Ref, "refs/heads/")
		if !ok || isZeroSHA(ref.New) {
			continue
		}
		pulls, err := tx.QueryContext(ctx, `SELECT p.repo_id, p.number FROM forge_pulls p
			JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
			WHERE p.head_repo_id = $1 AND p.head_branch = $2 AND p.merged = FALSE AND i.state = $3 AND p.head_sha <> $4
			ORDER BY p.repo_id, p.number`, int64(ref.Repo), branch, forge.StateOpen, ref.New)
		if err != nil {
			return nil, fmt.Errorf("find the pull requests of %s: %w", ref.Ref, err)
		}
		for pulls.Next() {
			var repo, number int64
			if err := pulls.Scan(&repo, &number); err != nil {
				pulls.Close()
				return nil, fmt.Errorf("find the pull requests of %s: %w", ref.Ref, err)
			}
			d := TimelineData{NewSHA: ref.New, Forced: ref.Forced}
			if !isZeroSHA(ref.Old) {
				d.OldSHA = ref.Old
			}
			rows = append(rows, timelineRow{repo: uint64(repo), number: uint64(number), kind: KindPullPush, data: d})
		}
		err = pulls.Err()
		pulls.Close()
		if err != nil {
			return nil, fmt.Errorf("find the pull requests of %s: %w", ref.Ref, err)
		}
	}
	return rows, nil
}

func isZeroSHA(sha string) bool { return strings.Trim(sha, "0") == "" }

// refRe finds "#N" not inside a word, as the API's renderer links it.
var refRe = regexp.MustCompile(`(?:^|[^\w&/#-])#([1-9][0-9]{0,9})\b`)

// maxRefs bounds the references one text adds.
const maxRefs = 10

// refsOf gives a reference event on each other issue of repo that text
// names, once each.
func refsOf(ctx context.Context, tx *readdb.WriteTx, repo, from, comment uint64, fromPull bool, title, text string) ([]timelineRow, error) {
	var rows []timelineRow
	var seen []uint64
	for _, m := range refRe.FindAllStringSubmatch(text, -1) {
		n, err := strconv.ParseUint(m[1], 10, 64)
		if err != nil || n == from || slices.Contains(seen, n) || len(seen) >= maxRefs {
			continue
		}
		seen = append(seen, n)
		var exists int64
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM forge_issues WHERE repo_id = $1 AND number = $2`, int64(repo), int64(n)).Scan(&exists); err != nil {
			return nil, fmt.Errorf("find #%d: %w", n, err)
		}
		if exists == 0 {
			continue
		}
		kind := KindIssueRef
		switch {
		case comment != 0:
			kind = KindCommentRef
		case fromPull:
			kind = KindPullRef
		}
		rows = append(rows, timelineRow{repo: repo, number: n, kind: kind,
			data: TimelineData{Ref: from, RefComment: comment, RefIsPull: fromPull, RefTitle: title}})
	}
	return rows, nil
}

// editEvents compares the edited issue with its row.
func editEvents(ctx context.Context, tx *readdb.WriteTx, is *forge.Issue) ([]timelineRow, error) {
	var oldTitle string
	var oldMilestone int64
	err := tx.QueryRowContext(ctx, `SELECT title, COALESCE(milestone_id, 0) FROM forge_issues WHERE repo_id = $1 AND number = $2`,
		int64(is.Repo), int64(is.Number)).Scan(&oldTitle, &oldMilestone)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read #%d before its edit: %w", is.Number, err)
	}
	ev := func(kind string, d TimelineData) timelineRow {
		return timelineRow{repo: is.Repo, number: is.Number, kind: kind, data: d}
	}
	var rows []timelineRow
	if oldTitle != is.Title {
		rows = append(rows, ev(KindTitle, TimelineData{OldTitle: oldTitle, NewTitle: is.Title}))
	}
	if uint64(oldMilestone) != is.Milestone {
		d := TimelineData{OldMilestone: uint64(oldMilestone), NewMilestone: is.Milestone}
		d.OldMilestoneTitle = milestoneTitle(ctx, tx, d.OldMilestone)
		d.NewMilestoneTitle = milestoneTitle(ctx, tx, d.NewMilestone)
		rows = append(rows, ev(KindMilestone, d))
	}
	labels, err := labelEvents(ctx, tx, is)
	if err != nil {
		return nil, err
	}
	rows = append(rows, labels...)
	old, err := column(ctx, tx, `SELECT assignee FROM forge_issue_assignees WHERE repo_id = $1 AND number = $2 ORDER BY assignee`, is)
	if err != nil {
		return nil, err
	}
	now := make([]string, len(is.Assignees))
	for i, a := range is.Assignees {
		now[i] = a.Hex()
	}
	for _, a := range now {
		if !slices.Contains(old, a) {
			rows = append(rows, ev(KindAssignees, TimelineData{Assignee: a}))
		}
	}
	for _, a := range old {
		if !slices.Contains(now, a) {
			rows = append(rows, ev(KindAssignees, TimelineData{Assignee: a, Removed: true}))
		}
	}
	return rows, nil
}

func labelEvents(ctx context.Context, tx *readdb.WriteTx, is *forge.Issue) ([]timelineRow, error) {
	old, err := column(ctx, tx, `SELECT label_id FROM forge_issue_labels WHERE repo_id = $1 AND number = $2 ORDER BY label_id`, is)
	if err != nil {
		return nil, err
	}
	now := make([]string, len(is.Labels))
	for i, id := range is.Labels {
		now[i] = strconv.FormatUint(id, 10)
	}
	var rows []timelineRow
	add := func(id string, removed bool) error {
		var l Label
		err := tx.QueryRowContext(ctx, `SELECT id, name, color, description FROM forge_labels WHERE id = $1`, id).Scan(&l.ID, &l.Name, &l.Color, &l.Description)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read label %s: %w", id, err)
		}
		rows = append(rows, timelineRow{repo: is.Repo, number: is.Number, kind: KindLabel, data: TimelineData{Label: &l, Removed: removed}})
		return nil
	}
	for _, id := range now {
		if !slices.Contains(old, id) {
			if err := add(id, false); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range old {
		if !slices.Contains(now, id) {
			if err := add(id, true); err != nil {
				return nil, err
			}
		}
	}
	return rows, nil
}

// column reads one column of strings for issue is.
func column(ctx context.Context, tx *readdb.WriteTx, q string, is *forge.Issue) ([]string, error) {
	out, err := textColumn(ctx, tx, q, int64(is.Repo), int64(is.Number))
	if err != nil {
		return nil, fmt.Errorf("read #%d before its edit: %w", is.Number, err)
	}
	return out, nil
}

// strings reads the one column of q's rows as text.
func textColumn(ctx context.Context, tx *readdb.WriteTx, q string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		out = append(out, fmt.Sprint(v))
	}
	return out, rows.Err()
}

func milestoneTitle(ctx context.Context, tx *readdb.WriteTx, id uint64) string {
	if id == 0 {
		return ""
	}
	var title string
	_ = tx.QueryRowContext(ctx, `SELECT title FROM forge_milestones WHERE id = $1`, int64(id)).Scan(&title) // a deleted one has none
	return title
}

// pinEvents: the issue pinned or unpinned is the one whose presence
// differs between the rows and the new list.
func pinEvents(ctx context.Context, tx *readdb.WriteTx, p *forge.Pins) ([]timelineRow, error) {
	old, err := textColumn(ctx, tx, `SELECT number FROM forge_issue_pins WHERE repo_id = $1 ORDER BY pin_order`, int64(p.Repo))
	if err != nil {
		return nil, fmt.Errorf("read the pins of %d: %w", p.Repo, err)
	}
	var rows []timelineRow
	now := make([]string, len(p.Numbers))
	for i, n := range p.Numbers {
		now[i] = strconv.FormatUint(n, 10)
		if !slices.Contains(old, now[i]) {
			rows = append(rows, timelineRow{repo: p.Repo, number: n, kind: KindPin})
		}
	}
	for _, o := range old {
		if !slices.Contains(now, o) {
			n, _ := strconv.ParseUint(o, 10, 64)
			rows = append(rows, timelineRow{repo: p.Repo, number: n, kind: KindUnpin})
		}
	}
	return rows, nil
}
