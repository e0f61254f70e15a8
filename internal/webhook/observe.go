package webhook

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

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
}

// source is what a queued delivery renders its payload from: the change
// as the chain reported it, so a late first attempt still reports the
// event as it happened.
type source struct {
	Change forge.Change `json:"change"`
	Height int64        `json:"height"`
	TimeNS int64        `json:"timeNs"`
	Ref    string       `json:"ref,omitempty"`
	Test   bool         `json:"test,omitempty"`
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
// labels, collaborators) give none.
func occurrences(c forge.Change) []occurrence {
	repo := c.RepoID()
	one := func(t string) []occurrence { return []occurrence{{Type: t, Repo: repo}} }
	isPull := c.Issue != nil && c.Issue.IsPull
	switch c.Action {
	case "repo.push":
		return pushOccurrences(c)
	case "repo.create", "repo.delete":
		return one("repository")
	case "repo.fork":
		// To the forked repository's hooks, as Gitea does.
		for _, r := range c.Repos {
			if r.ForkOf != 0 {
				return []occurrence{{Type: "fork", Repo: r.ForkOf}}
			}
		}
	case "issue.create":
		if !isPull {
			return one("issues")
		}
	case "issue.edit", "issue.close", "issue.reopen":
		if isPull {
			return one("pull_request")
		}
		return one("issues")
	case "issue.comment":
		if isPull {
			return one("pull_request_comment")
		}
		return one("issue_comment")
	case "pr.create", "pr.close", "pr.reopen", "pr.merge":
		return one("pull_request")
	case "pr.update":
		return one("pull_request_sync")
	case "pr.review":
		if c.Review == nil {
			return nil
		}
		switch c.Review.State {
		case forge.ReviewApprove:
			return one("pull_request_review_approved")
		case forge.ReviewRequestChanges:
			return one("pull_request_review_rejected")
		default:
			return one("pull_request_review_comment")
		}
	}
	return nil
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
func (s *Service) Observe(ctx context.Context, tx *sql.Tx, changes []index.ForgeChange) error {
	// Most nodes have no hooks: then the projection pays one read, once.
	if some, err := s.anyHooks(ctx, tx); err != nil || !some {
		return err
	}
	for _, fc := range changes {
		for _, o := range occurrences(fc.Change) {
			if err := s.queue(ctx, tx, fc, o); err != nil {
				return fmt.Errorf("queue %s webhooks: %w", o.Type, err)
			}
		}
	}
	return nil
}

// anyHooks says whether the node has a hook at all, read once and then
// kept: Create sets it, and a deleted last hook only costs the queries.
func (s *Service) anyHooks(ctx context.Context, tx *sql.Tx) (bool, error) {
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

func (s *Service) queue(ctx context.Context, tx *sql.Tx, fc index.ForgeChange, o occurrence) error {
	owner, err := ownerOf(ctx, tx, fc.Change, o.Repo)
	if err != nil {
		return err
	}
	hooks, err := hooksFor(ctx, tx, o.Repo, owner)
	if err != nil || len(hooks) == 0 {
		return err
	}
	src, err := json.Marshal(source{Change: fc.Change, Height: fc.Height, TimeNS: fc.TimeNS, Ref: o.Ref})
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
func ownerOf(ctx context.Context, tx *sql.Tx, c forge.Change, id uint64) (common.Address, error) {
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
