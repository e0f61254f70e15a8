package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// Observe records a trigger for each event this node carried out (it
// signed it with its key, or applied it to a private repository) that a
// workflow may listen to, in the transaction that projects it
// (index.ForgeObserver): every node sees every public event, and only
// the relaying one runs its workflows.
func (s *Service) Observe(ctx context.Context, tx *index.WriteTx, changes []index.ForgeChange) error {
	for _, fc := range changes {
		if !s.relayed(fc) {
			if err := s.dropSchedules(ctx, tx, fc); err != nil {
				return err
			}
			continue
		}
		for _, t := range triggersOf(fc) {
			payload, err := json.Marshal(t.Payload)
			if err != nil {
				return fmt.Errorf("encode the trigger: %w", err)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO actions_triggers (repo_id, event, ref, before_sha, after_sha, actor, payload, created_ms)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, int64(t.Repo), t.Event, t.Ref, t.Before, t.After, t.Who, string(payload), fc.TimeNS/1e6)
			if err != nil {
				return fmt.Errorf("record the %s trigger: %w", t.Event, err)
			}
		}
	}
	return nil
}

// dropSchedules drops the schedules this node holds for a branch that
// another node's push moved: that node holds them now.
func (s *Service) dropSchedules(ctx context.Context, tx *index.WriteTx, fc index.ForgeChange) error {
	if fc.Change.Action != "repo.push" {
		return nil
	}
	for _, u := range pushed(fc.Change) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM actions_schedules WHERE repo_id = $1 AND ref = $2`, int64(u.Repo), u.Ref); err != nil {
			return fmt.Errorf("drop the schedules: %w", err)
		}
	}
	return nil
}

// Projected wakes the worker once the triggers are committed.
func (s *Service) Projected() { s.notify() }

// relayed says whether this node carried out fc.
func (s *Service) relayed(fc index.ForgeChange) bool {
	return fc.Private || strings.EqualFold(fc.Change.Signer, s.cfg.Operator.Hex())
}

// eventPayload is what a trigger keeps of its event beyond the commit.
type eventPayload struct {
	Action     string `json:"action,omitempty"`
	Number     uint64 `json:"number,omitempty"`
	Title      string `json:"title,omitempty"`
	Body       string `json:"body,omitempty"`
	Author     string `json:"author,omitempty"`
	IsPull     bool   `json:"isPull,omitempty"`
	HeadRepo   uint64 `json:"headRepo,omitempty"`
	HeadBranch string `json:"headBranch,omitempty"`
	BaseBranch string `json:"baseBranch,omitempty"`
	Merged     bool   `json:"merged,omitempty"`
	CommentID  uint64 `json:"commentId,omitempty"`
	Comment    string `json:"comment,omitempty"`
	Tag        string `json:"tag,omitempty"`
	Prerelease bool   `json:"prerelease,omitempty"`
}

// fork says whether a pull request's head is in another repository.
func (p eventPayload) fork(repo uint64) bool { return p.HeadRepo != 0 && p.HeadRepo != repo }

// triggersOf maps a forge action to the workflow events it is: pushes of
// branches and tags, pull requests opened, pushed to, reopened or closed,
// issues opened, edited, closed or reopened, comments, and releases
// published.
func triggersOf(fc index.ForgeChange) []trigger {
	c := fc.Change
	who := addr(c.Actor)
	switch c.Action {
	case "repo.push":
		var out []trigger
		for _, u := range pushed(c) {
			if u.New != chainforge.ZeroSHA { // a deletion runs nothing
				out = append(out, trigger{Repo: u.Repo, Event: "push", Ref: u.Ref, Before: u.Old, After: u.New, Who: who})
			}
		}
		return out
	case "pr.create", "pr.update", "pr.reopen", "pr.close", "pr.merge":
		return pullTrigger(c, who)
	case "issue.create", "issue.edit", "issue.close", "issue.reopen":
		if c.Issue == nil || c.Issue.IsPull {
			return nil
		}
		action := map[string]string{"issue.create": "opened", "issue.edit": "edited", "issue.close": "closed", "issue.reopen": "reopened"}[c.Action]
		return []trigger{{Repo: c.Issue.Repo, Event: "issues", Who: who, Payload: eventPayload{Action: action, Number: c.Issue.Number,
			Title: c.Issue.Title, Body: c.Issue.Body, Author: addr(c.Issue.Author)}}}
	case "issue.comment":
		if c.Comment == nil || c.Issue == nil {
			return nil
		}
		return []trigger{{Repo: c.Issue.Repo, Event: "issue_comment", Who: who, Payload: eventPayload{Action: "created", Number: c.Issue.Number,
			Title: c.Issue.Title, IsPull: c.Issue.IsPull, Author: addr(c.Issue.Author), CommentID: c.Comment.ID, Comment: c.Comment.Body}}}
	case "release.create", "release.edit":
		r := c.Release
		published := r != nil && !r.Draft && !r.Deleted && (c.Action == "release.create" || (fc.Before != nil && fc.Before.WasDraft))
		if !published {
			return nil
		}
		return []trigger{{Repo: r.Repo, Event: "release", Ref: "refs/tags/" + r.TagName, Who: who,
			Payload: eventPayload{Action: "published", Tag: r.TagName, Title: r.Title, Body: r.Note, Prerelease: r.Prerelease}}}
	}
	return nil
}

func pullTrigger(c chainforge.Change, who string) []trigger {
	p := c.Pull
	if p == nil {
		return nil
	}
	action := map[string]string{"pr.create": "opened", "pr.update": "synchronize", "pr.reopen": "reopened", "pr.close": "closed", "pr.merge": "closed"}[c.Action]
	ev := eventPayload{Action: action, Number: p.Number, HeadRepo: p.HeadRepo, HeadBranch: p.HeadBranch, BaseBranch: p.BaseBranch, Merged: p.Merged}
	if c.Issue != nil {
		ev.Title, ev.Body, ev.Author = c.Issue.Title, c.Issue.Body, addr(c.Issue.Author)
	}
	return []trigger{{Repo: p.Repo, Event: "pull_request", Ref: fmt.Sprintf("refs/pull/%d/head", p.Number), Before: p.BaseSHA, After: p.HeadSHA, Who: who, Payload: ev}}
}

// pushed is a push's ref updates, old events' single one included.
func pushed(c chainforge.Change) []chainforge.RefUpdate {
	if len(c.Refs) == 0 && c.Ref != nil {
		return []chainforge.RefUpdate{*c.Ref}
	}
	return c.Refs
}
