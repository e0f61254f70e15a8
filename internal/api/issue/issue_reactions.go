package issue

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// A comment by its id (Gitea's /issues/comments/{id}: read, edit, delete)
// and reactions on issues, pull requests and comments. Go's mux cannot
// hold /issues/comments/{id} beside /issues/{index}/comments (the path
// /issues/comments/comments matches both), so the comment routes live on
// their own mux, which Register puts in front (CommentPaths).

// RegisterIssueComments adds the routes of a comment by its id.
func (a *Handler) RegisterIssueComments(mux *http.ServeMux) {
	if a.Forge == nil || a.Hosting == nil {
		return
	}
	h := a
	w := func(fn api.Endpoint) http.HandlerFunc { return a.SignedIn(auth.ScopeWrite, fn) }
	const comment = "/api/v1/repos/{owner}/{repo}/issues/comments/{id}"
	mux.HandleFunc("GET "+comment, h.Serve(h.getRepoComment))
	mux.HandleFunc("PATCH "+comment, w(h.editComment))
	mux.HandleFunc("DELETE "+comment, w(h.deleteComment))
	mux.HandleFunc("GET "+comment+"/reactions", h.Serve(h.listCommentReactions))
	mux.HandleFunc("POST "+comment+"/reactions", w(h.postCommentReaction))
	mux.HandleFunc("DELETE "+comment+"/reactions", w(h.deleteCommentReaction))
	a.RegisterNotFound(mux)
}

// CommentPaths sends /api/v1/repos/{owner}/{repo}/issues/comments/{id}
// and below to comments, everything else to routes.
func CommentPaths(comments, routes http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 9)
		if len(parts) >= 8 && parts[0] == "api" && parts[1] == "v1" && parts[2] == "repos" && parts[5] == "issues" && parts[6] == "comments" {
			comments.ServeHTTP(w, r)
			return
		}
		routes.ServeHTTP(w, r)
	})
}

// commentOf resolves {owner}/{repo} and its comment {id}.
func (h *Handler) commentOf(r *http.Request) (index.Repo, index.Comment, error) {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return index.Repo{}, index.Comment{}, err
	}
	raw := r.PathValue("id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || id == 0 {
		return index.Repo{}, index.Comment{}, usererr.Missingf("there is no comment %s", raw)
	}
	c, err := h.Forge.Index().CommentByID(r.Context(), repo.ID, id)
	if err != nil {
		return index.Repo{}, index.Comment{}, err
	}
	return repo, c, nil
}

// getRepoComment is Gitea's GET /repos/{owner}/{repo}/issues/comments/{id}.
func (h *Handler) getRepoComment(w http.ResponseWriter, r *http.Request) error {
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Comment(index.Issue{Number: c.Number, IsPull: c.IsPull}, c))
}

// editComment changes a comment's body: its author's, or anyone's for a
// maintainer (comment.edit).
func (h *Handler) editComment(w http.ResponseWriter, r *http.Request) error {
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
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Body) == "" {
		return usererr.BadFieldf("body", "a comment must have a body")
	}
	if err := api.CheckBody("comment", in.Body); err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.CommentEdit{Repo: repo.ID, Comment: c.ID, Body: in.Body}); err != nil {
		return err
	}
	if c, err = h.Forge.Index().CommentByID(r.Context(), repo.ID, c.ID); err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Comment(index.Issue{Number: c.Number, IsPull: c.IsPull}, c))
}

// deleteComment deletes a comment (comment.delete): it is marked deleted
// on chain, where its text stays, and shown nowhere.
func (h *Handler) deleteComment(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.CommentDelete{Repo: repo.ID, Comment: c.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// reactionJSON is Gitea's Reaction.
type reactionJSON struct {
	User    api.ForgeUserJSON `json:"user"`
	Content string            `json:"content"`
	Created string            `json:"created_at"`
}

// reactionOption is Gitea's EditReactionOption.
type reactionOption struct {
	Content string `json:"content"`
}

func (h *Handler) replyReactions(w http.ResponseWriter, r *http.Request, repo, number, comment uint64) error {
	list, err := h.Forge.Index().Reactions(r.Context(), repo, number, comment)
	if err != nil {
		return err
	}
	out := make([]reactionJSON, len(list))
	for i, x := range list {
		out[i] = reactionJSON{User: api.ToForgeUser(r, x.User), Content: x.Content, Created: x.Created}
	}
	return api.Reply(w, out)
}

// react adds (on) or removes the signed-in user's reaction. Gitea answers
// a reaction that is already there with it and 200, and removing one
// that is not there with 200 too, so neither sends an action.
func (h *Handler) react(w http.ResponseWriter, r *http.Request, repo index.Repo, number, comment uint64, on bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in reactionOption
	if err := api.Decode(w, r, 4<<10, &in); err != nil {
		return err
	}
	in.Content = strings.TrimSpace(in.Content)
	mine, err := h.myReaction(r.Context(), repo.ID, number, comment, id.User.Address, in.Content)
	if err != nil {
		return err
	}
	if mine != nil && on || mine == nil && !on {
		if on {
			return api.Reply(w, reactionJSON{User: api.ToForgeUser(r, mine.User), Content: mine.Content, Created: mine.Created})
		}
		return nil
	}
	action := chainforge.ReactionSet{Repo: repo.ID, Number: number, Comment: comment, Content: in.Content}
	if on {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.ReactionAdd(action))
	} else {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.ReactionRemove(action))
	}
	if err != nil || !on {
		return err
	}
	if mine, err = h.myReaction(r.Context(), repo.ID, number, comment, id.User.Address, in.Content); err != nil || mine == nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, reactionJSON{User: api.ToForgeUser(r, mine.User), Content: mine.Content, Created: mine.Created})
	return nil
}

func (h *Handler) myReaction(ctx context.Context, repo, number, comment uint64, me common.Address, content string) (*index.Reaction, error) {
	list, err := h.Forge.Index().Reactions(ctx, repo, number, comment)
	if err != nil {
		return nil, err
	}
	for _, x := range list {
		if x.Content == content && strings.EqualFold(x.User.Address, me.Hex()) {
			return &x, nil
		}
	}
	return nil, nil
}

// listIssueReactions lists the reactions on an issue or pull request.
func (h *Handler) listIssueReactions(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return h.replyReactions(w, r, repo.ID, is.Number, 0)
}

// postIssueReaction adds a reaction to an issue or pull request.
func (h *Handler) postIssueReaction(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return h.react(w, r, repo, is.Number, 0, true)
}

// deleteIssueReaction removes the signed-in user's reaction from an issue.
func (h *Handler) deleteIssueReaction(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return h.react(w, r, repo, is.Number, 0, false)
}

// listCommentReactions lists the reactions on a comment.
func (h *Handler) listCommentReactions(w http.ResponseWriter, r *http.Request) error {
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	return h.replyReactions(w, r, repo.ID, c.Number, c.ID)
}

// postCommentReaction adds a reaction to a comment.
func (h *Handler) postCommentReaction(w http.ResponseWriter, r *http.Request) error {
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	return h.react(w, r, repo, c.Number, c.ID, true)
}

// deleteCommentReaction removes the signed-in user's reaction from a
// comment.
func (h *Handler) deleteCommentReaction(w http.ResponseWriter, r *http.Request) error {
	repo, c, err := h.commentOf(r)
	if err != nil {
		return err
	}
	return h.react(w, r, repo, c.Number, c.ID, false)
}
