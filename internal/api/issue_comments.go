package api

import (
	"context"
	"errors"
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
func commentsPage(r *http.Request) (index.Page, error) { return pageWithLimit(r, maxLimit) }

func (h *issuesAPI) listComments(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	list, total, err := h.forge.Index().Comments(r.Context(), repo.ID, is.Number, p)
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	out := make([]commentJSON, len(list))
	for i, c := range list {
		out[i] = l.comment(is, c)
	}
	return h.respondList(w, r, p, total, out, nil)
}

func (h *issuesAPI) createComment(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Body string `json:"body"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Body) == "" {
		return usererr.BadFieldf("body", "a comment must have a body")
	}
	if err := checkBody("comment", in.Body); err != nil {
		return err
	}
	res, err := h.forge.Do(r.Context(), id.User.Address, chainforge.IssueComment{Repo: repo.ID, Number: is.Number, Body: in.Body})
	if err != nil {
		return err
	}
	c, err := h.findComment(r.Context(), repo.ID, is.Number, res.Change.Comment.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, h.linksFor(r, repo).comment(is, c))
	return nil
}

// findComment reads comment id back: the newest of its issue, usually.
func (h *issuesAPI) findComment(ctx context.Context, repo, number, id uint64) (index.Comment, error) {
	ix := h.forge.Index()
	_, total, err := ix.Comments(ctx, repo, number, index.Page{Number: 1, Limit: 1})
	if err != nil {
		return index.Comment{}, err
	}
	last := int((total + maxLimit - 1) / maxLimit)
	for page := last; page >= 1; page-- {
		list, _, err := ix.Comments(ctx, repo, number, index.Page{Number: page, Limit: maxLimit})
		if err != nil {
			return index.Comment{}, err
		}
		for _, c := range list {
			if c.ID == id {
				return c, nil
			}
		}
	}
	return index.Comment{}, errors.New("a new comment is missing from the projection")
}
