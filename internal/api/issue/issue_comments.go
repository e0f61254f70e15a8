package issue

import (
	"context"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// An issue's or pull request's comments: Gitea's Comment, listed whole by
// default, and a new comment (issue.comment).

// commentsPage is pageOf, all of them (up to the most a page holds) when
// no limit is given: Gitea lists an issue's comments whole.
func commentsPage(r *http.Request) (index.Page, error) { return api.PageWithLimit(r, api.MaxLimit) }

func (h *Handler) listComments(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	list, total, err := h.Forge.Index().Comments(r.Context(), repo.ID, is.Number, p)
	if err != nil {
		return err
	}
	out, err := h.LinksFor(r, repo).CommentsJSON(list, func(index.Comment) index.Issue { return is })
	return h.RespondList(w, r, p, total, out, err)
}

// listRepoComments is Gitea's GET /repos/{owner}/{repo}/issues/comments:
// the comments of every issue and pull request of the repository, oldest
// first, bounded by since and before (RFC 3339) and paged.
func (h *Handler) listRepoComments(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	var f index.CommentFilter
	if f.Since, err = api.TimeParam(r, "since"); err != nil {
		return err
	}
	if f.Before, err = api.TimeParam(r, "before"); err != nil {
		return err
	}
	list, total, err := h.Forge.Index().RepoComments(r.Context(), repo.ID, f, p)
	if err != nil {
		return err
	}
	out, err := h.LinksFor(r, repo).CommentsJSON(list, func(c index.Comment) index.Issue { return index.Issue{Number: c.Number, IsPull: c.IsPull} })
	return h.RespondList(w, r, p, total, out, err)
}

func (h *Handler) createComment(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Body string `json:"body"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Body) == "" {
		return usererr.BadFieldf("body", "a comment must have a body")
	}
	if err := api.CheckBody("comment", in.Body); err != nil {
		return err
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueComment{Repo: repo.ID, Number: is.Number, Body: in.Body})
	if err != nil {
		return err
	}
	c, err := h.findComment(r.Context(), repo.ID, is.Number, res.Change.Comment.ID)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, h.LinksFor(r, repo).Comment(is, c))
	return nil
}

// findComment reads comment id of issue number back by its id: one row,
// however many comments the issue has.
func (h *Handler) findComment(ctx context.Context, repo, number, id uint64) (index.Comment, error) {
	c, err := h.Forge.Index().CommentByID(ctx, repo, id)
	if err != nil {
		return index.Comment{}, fmt.Errorf("read the new comment back: %w", err)
	}
	if c.Number != number {
		return index.Comment{}, fmt.Errorf("comment %d is on #%d, not #%d", id, c.Number, number)
	}
	return c, nil
}
