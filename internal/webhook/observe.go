package webhook

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// occurrence is one hook event a forge action gives: Gitea's hook event
// type (what a hook subscribes to, X-Gitea-Event-Type) on a repository.
type occurrence struct {
	Type string
	Ref  string // push, create, delete: the ref; "" otherwise
	Repo uint64
	// Action is the payload's action where the forge action alone does
	// not say it (an edit that assigned, labelled or asked for a review).
	Action string
	// Reviewer is the user a review request names (requested_reviewer).
	Reviewer *common.Address
	// Changes are an edit's replaced title and body.
	Changes *changesJSON
}

// source is what a queued delivery renders its payload from: the change
// as the chain reported it, so a late first attempt still reports the
// event as it happened.
type source struct {
	Change   forge.Change    `json:"change"`
	Height   int64           `json:"height"`
	TimeNS   int64           `json:"timeNs"`
	Ref      string          `json:"ref,omitempty"`
	Test     bool            `json:"test,omitempty"`
	Action   string          `json:"action,omitempty"`
	Reviewer *common.Address `json:"reviewer,omitempty"`
	Changes  *changesJSON    `json:"changes,omitempty"`
}

// eventOf is the X-Gitea-Event (and X-GitHub-Event) of a hook event type,
// as Gitea's HookEventType.Event.
func eventOf(eventType string) string {
	switch eventType {
	case "issues", "issue_assign", "issue_label", "issue_milestone":
		return "issues"
	case "pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone",
		"pull_request_sync", "pull_request_review_request":
		return "pull_request"
	case "issue_comment", "pull_request_comment":
		return "issue_comment"
	case "pull_request_review_approved":
		return "pull_request_approved"
	case "pull_request_review_rejected":
		return "pull_request_rejected"
	case "pull_request_review_comment":
		return "pull_request_comment"
	}
	return eventType
}

// occurrences maps a forge action to the hook events Gitea sends for its
// counterpart; actions Gitea has no hook event for (stars, watches,
// label definitions, collaborators, assets) give none.
func occurrences(fc index.ForgeChange) []occurrence {
	c := fc.Change
	repo := c.RepoID()
	one := func(t, action string) []occurrence { return []occurrence{{Type: t, Repo: repo, Action: action}} }
	isPull := c.Issue != nil && c.Issue.IsPull
	switch c.Action {
	case "repo.push":
		return pushOccurrences(c)
	case "repo.create", "repo.delete":
		return one("repository", "")
	case "repo.fork":
		// To the forked repository's hooks, as Gitea does.
		for _, r := range c.Repos {
			if r.ForkOf != 0 {
				return []occurrence{{Type: "fork", Repo: r.ForkOf}}
			}
		}
	case "issue.create":
		if !isPull {
			return one("issues", "")
		}
	case "issue.edit":
		if c.Issue != nil {
			return editOccurrences(*c.Issue, fc.Before)
		}
	case "issue.close", "issue.reopen":
		if isPull {
			return one("pull_request", "")
		}
		return one("issues", "")
	case "issue.comment":
		if isPull {
			return one("pull_request_comment", "")
		}
		return one("issue_comment", "")
	case "pr.create", "pr.close", "pr.reopen", "pr.merge":
		return one("pull_request", "")
	case "pr.update":
		return one("pull_request_sync", "")
	case "pr.review":
		if c.Review == nil {
			return nil
		}
		switch c.Review.State {
		case forge.ReviewApprove:
			return one("pull_request_review_approved", "")
		case forge.ReviewRequestChanges:
			return one("pull_request_review_rejected", "")
		default:
			return one("pull_request_review_comment", "")
		}
	case "pr.review.request", "pr.review.unrequest":
		return reviewRequestOccurrences(c, fc.Before)
	case "release.create", "release.edit", "release.delete":
		return releaseOccurrences(c, fc.Before)
	case "status.create":
		if c.Status != nil {
			return one("status", "")
		}
	}
	return nil
}

// editOccurrences are the events of an issue.edit, told apart by
// comparing the issue with what it was, as Gitea sends them: edited for
// a new title or body, assigned or unassigned per assignee, one label
// event (label_cleared when none is left), milestoned or demilestoned.
func editOccurrences(is forge.Issue, before *index.Before) []occurrence {
	kind := func(issues, pulls string) string {
		if is.IsPull {
			return pulls
		}
		return issues
	}
	at := func(t, action string) occurrence { return occurrence{Type: t, Repo: is.Repo, Action: action} }
	if before == nil || before.Issue == nil {
		return []occurrence{at(kind("issues", "pull_request"), "edited")}
	}
	was := before.Issue
	var out []occurrence
	if was.Title != is.Title || was.Body != is.Body {
		o := at(kind("issues", "pull_request"), "edited")
		o.Changes = &changesJSON{}
		if was.Title != is.Title {
			o.Changes.Title = &changeFrom{From: was.Title}
		}
		if was.Body != is.Body {
			o.Changes.Body = &changeFrom{From: was.Body}
		}
		out = append(out, o)
	}
	for _, a := range is.Assignees {
		if !slices.Contains(was.Assignees, a) {
			out = append(out, at(kind("issue_assign", "pull_request_assign"), "assigned"))
		}
	}
	for _, a := range was.Assignees {
		if !slices.Contains(is.Assignees, a) {
			out = append(out, at(kind("issue_assign", "pull_request_assign"), "unassigned"))
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(was.Labels)), slices.Sorted(slices.Values(is.Labels))) {
		action := "label_updated"
		if len(is.Labels) == 0 {
			action = "label_cleared"
		}
		out = append(out, at(kind("issue_label", "pull_request_label"), action))
	}
	if was.Milestone != is.Milestone {
		action := "milestoned"
		if is.Milestone == 0 {
			action = "demilestoned"
		}
		out = append(out, at(kind("issue_milestone", "pull_request_milestone"), action))
	}
	return out
}

// reviewRequestOccurrences: one event per reviewer newly asked or no
// longer asked, naming them, as Gitea's PullRequestReviewRequest.
func reviewRequestOccurrences(c forge.Change, before *index.Before) []occurrence {
	if c.Pull == nil || before == nil {
		return nil
	}
	var now []common.Address
	for _, r := range c.Pull.Requested {
		now = append(now, r.Reviewer)
	}
	var out []occurrence
	add := func(a common.Address, action string) {
		out = append(out, occurrence{Type: "pull_request_review_request", Repo: c.Pull.Repo, Action: action, Reviewer: &a})
	}
	for _, a := range now {
		if !slices.Contains(before.Requested, a) {
			add(a, "review_requested")
		}
	}
	for _, a := range before.Requested {
		if !slices.Contains(now, a) {
			add(a, "review_request_removed")
		}
	}
	return out
}

// releaseOccurrences follow Gitea's release service: drafts send
// nothing; a release is published when created public or when a draft is
// made public, updated when a public one is edited, deleted when a
// public one goes.
func releaseOccurrences(c forge.Change, before *index.Before) []occurrence {
	rel := c.Release
	if rel == nil || rel.Draft {
		return nil
	}
	action := "published"
	switch c.Action {
	case "release.edit":
		if before == nil || !before.WasDraft {
			action = "updated"
		}
	case "release.delete":
		action = "deleted"
	}
	return []occurrence{{Type: "release", Repo: rel.Repo, Action: action}}
}

// pushOccurrences: a new ref gives create and push, a deleted one delete,
// a moved one push, as in Gitea.
func pushOccurrences(c forge.Change) []occurrence {
	refs := c.Refs
	if len(refs) == 0 && c.Ref != nil {
		refs = []forge.RefUpdate{*c.Ref}
	}
	var out []occurrence
	for _, u := range refs {
		switch {
		case u.New == forge.ZeroSHA:
			out = append(out, occurrence{Type: "delete", Ref: u.Ref, Repo: u.Repo})
		case u.Old == forge.ZeroSHA:
			out = append(out, occurrence{Type: "create", Ref: u.Ref, Repo: u.Repo}, occurrence{Type: "push", Ref: u.Ref, Repo: u.Repo})
		default:
			out = append(out, occurrence{Type: "push", Ref: u.Ref, Repo: u.Repo})
		}
	}
	return out
}

// Observe queues a delivery for each hook that wants each event of the
// changes, in the transaction that projects them (index.ForgeObserver).
func (s *Service) Observe(ctx context.Context, tx *index.WriteTx, changes []index.ForgeChange) error {
	// Most nodes have no hooks: then the projection pays one read, once.
	if some, err := s.anyHooks(ctx, tx); err != nil || !some {
		return err
	}
	for _, fc := range changes {
		for _, o := range occurrences(fc) {
			if err := s.queue(ctx, tx, fc, o); err != nil {
				return fmt.Errorf("queue %s webhooks: %w", o.Type, err)
			}
		}
	}
	return nil
}

// anyHooks says whether the node has a hook at all, read once and then
// kept: Create sets it, and a deleted last hook only costs the queries.
func (s *Service) anyHooks(ctx context.Context, tx *index.WriteTx) (bool, error) {
	if s.hooksExist.Load() {
		return true, nil
	}
	if s.hooksChecked.Load() {
		return false, nil
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhooks`).Scan(&n); err != nil {
		return false, fmt.Errorf("count hooks: %w", err)
	}
	if n > 0 {
		s.hooksExist.Store(true)
	}
	s.hooksChecked.Store(true)
	return n > 0, nil
}

// Projected wakes the worker: deliveries may have been queued.
func (s *Service) Projected() { s.wake() }

func (s *Service) queue(ctx context.Context, tx *index.WriteTx, fc index.ForgeChange, o occurrence) error {
	owner, err := ownerOf(ctx, tx, fc.Change, o.Repo)
	if err != nil {
		return err
	}
	hooks, err := hooksFor(ctx, tx, o.Repo, owner)
	if err != nil || len(hooks) == 0 {
		return err
	}
	src, err := json.Marshal(source{Change: fc.Change, Height: fc.Height, TimeNS: fc.TimeNS, Ref: o.Ref, Action: o.Action,
		Reviewer: o.Reviewer, Changes: o.Changes})
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	for _, h := range hooks {
		if !h.wants(o.Type) || (o.Ref != "" && !h.branchMatches(o.Ref)) {
			continue
		}
		if err := insertDelivery(ctx, tx, h.ID, o.Type, string(src), fc.Height, fc.TimeNS, s.now().UnixNano()); err != nil {
			return err
		}
	}
	return nil
}

// ownerOf is the owner of repository id: from the change when it names
// the repository (a deleted one is no longer in SQL), else as projected.
func ownerOf(ctx context.Context, tx *index.WriteTx, c forge.Change, id uint64) (common.Address, error) {
	for _, r := range c.Repos {
		if r.ID == id {
			return r.Owner, nil
		}
	}
	var owner string
	err := tx.QueryRowContext(ctx, `SELECT owner FROM forge_repos WHERE id = $1`, int64(id)).Scan(&owner)
	if err == sql.ErrNoRows {
		return common.Address{}, nil
	}
	if err != nil {
		return common.Address{}, fmt.Errorf("read owner of repository %d: %w", id, err)
	}
	return common.HexToAddress(owner), nil
}

// insertDelivery queues one delivery, due now.
func insertDelivery(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, hook int64, eventType, src string, height, blockNS, now int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (hook_id, uuid, event, event_type, source, height, block_ns,
		state, next_ns, created_ns) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8)`,
		hook, newUUID(), eventOf(eventType), eventType, src, height, blockNS, now)
	if err != nil {
		return fmt.Errorf("insert delivery for hook %d: %w", hook, err)
	}
	return nil
}
