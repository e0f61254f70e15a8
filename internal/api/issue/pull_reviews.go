package issue

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Pull request reviews: Gitea's PullReview and PullReviewComment, and a
// new review (pr.review) with inline comments.

// reviewsOf lists the pull request's reviews on chain and, after them, the
// signed-in user's own pending ones: no one else sees those.
func (h *Handler) reviewsOf(r *http.Request) (index.Repo, index.Pull, []index.Review, error) {
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return index.Repo{}, index.Pull{}, nil, err
	}
	list, err := h.Forge.Index().Reviews(r.Context(), repo.ID, pr.Number)
	if err != nil {
		return repo, pr, nil, err
	}
	if u, ok := auth.UserFrom(r.Context()); ok {
		drafts, err := h.Forge.ReviewDrafts(r.Context(), reviewer(u), repo.ID, pr.Number)
		if err != nil {
			return repo, pr, nil, err
		}
		list = append(list, drafts...)
	}
	return repo, pr, list, err
}

func reviewer(u auth.User) index.User {
	return index.User{Address: u.Address.Hex(), Username: u.Username}
}

func (h *Handler) listReviews(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	pr = h.Pulls.Sync(r.Context(), repo, pr) // stale is against the head as it is now
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	l := h.LinksFor(r, repo)
	out := []api.ReviewJSON{}
	for _, rv := range api.PageSlice(list, p) {
		out = append(out, l.Review(pr, rv))
	}
	return h.RespondList(w, r, p, int64(len(list)), out, nil)
}

func findReview(list []index.Review, raw string) (index.Review, error) {
	id, err := strconv.ParseUint(raw, 10, 64)
	for _, rv := range list {
		if err == nil && rv.ID == id {
			return rv, nil
		}
	}
	return index.Review{}, usererr.Missingf("there is no review %s of this pull request", raw)
}

func (h *Handler) getReview(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	pr = h.Pulls.Sync(r.Context(), repo, pr)
	return api.Reply(w, h.LinksFor(r, repo).Review(pr, rv))
}

func (h *Handler) listReviewComments(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	pr = h.Pulls.Sync(r.Context(), repo, pr)
	outdated := h.Pulls.Outdated(r.Context(), repo, pr, rv)
	hunks := h.Pulls.DiffHunks(r.Context(), repo, pr, rv)
	l := h.LinksFor(r, repo)
	out := make([]api.ReviewCommentJSON, len(rv.Comments))
	for i, c := range rv.Comments {
		out[i] = l.ReviewComment(pr, rv, c, outdated[c.ID])
		out[i].DiffHunk = hunks[c.ID]
	}
	return api.Reply(w, out)
}

// reviewEvent maps Gitea's (and GitHub's) review events to the forge's.
func reviewEvent(event string) (string, error) {
	switch strings.ToUpper(event) {
	case "APPROVED", "APPROVE":
		return chainforge.ReviewApprove, nil
	case "REQUEST_CHANGES":
		return chainforge.ReviewRequestChanges, nil
	case "COMMENT":
		return chainforge.ReviewCommented, nil
	case "", "PENDING":
		// As in Gitea, a review without an event is kept pending.
		return forge.ReviewPending, nil
	}
	return "", usererr.Unprocessablef("event", "invalid_field", "unknown review event %q: it must be PENDING, APPROVED, REQUEST_CHANGES or COMMENT", event)
}

func (h *Handler) createReview(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		CommitID string `json:"commit_id"`
		Comments []struct {
			Path        string `json:"path"`
			Body        string `json:"body"`
			NewPosition int64  `json:"new_position"`
			OldPosition int64  `json:"old_position"`
		} `json:"comments"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	state, err := reviewEvent(in.Event)
	if err != nil {
		return err
	}
	if err := api.CheckBody("body", in.Body); err != nil {
		return err
	}
	payload := chainforge.PullReview{Repo: repo.ID, Number: pr.Number, State: state, Body: in.Body, CommitSHA: in.CommitID, Comments: []chainforge.PullReviewComment{}}
	for _, c := range in.Comments {
		rc := chainforge.PullReviewComment{Path: c.Path, Body: c.Body}
		switch {
		case c.NewPosition > 0:
			rc.Line, rc.Side = uint64(c.NewPosition), "new"
		case c.OldPosition > 0:
			rc.Line, rc.Side = uint64(c.OldPosition), "old"
		default:
			return usererr.BadFieldf("comments", "an inline comment needs new_position (a line of the new file) or old_position (a line of the old one)")
		}
		if err := api.CheckBody("comment", c.Body); err != nil {
			return err
		}
		payload.Comments = append(payload.Comments, rc)
	}
	if payload.CommitSHA == "" {
		payload.CommitSHA = h.Pulls.Sync(r.Context(), repo, pr).HeadSHA
	}
	if state == forge.ReviewPending {
		rv, err := h.Forge.AddReviewDraft(r.Context(), reviewer(id.User), payload)
		if err != nil {
			return err
		}
		return api.Reply(w, h.LinksFor(r, repo).Review(pr, rv))
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, payload)
	if err != nil {
		return err
	}
	return h.replyReview(w, r, res.Change.Review.ID)
}

// replyReview answers with review id as now listed.
func (h *Handler) replyReview(w http.ResponseWriter, r *http.Request, id uint64) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, strconv.FormatUint(id, 10))
	if err != nil {
		return err
	}
	return api.Reply(w, h.LinksFor(r, repo).Review(pr, rv))
}

// submitReview submits the user's pending review with Gitea's event
// (APPROVED, REQUEST_CHANGES or COMMENT) and body.
func (h *Handler) submitReview(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Event string `json:"event"`
		Body  string `json:"body"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	draft, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("there is no review %s of this pull request", r.PathValue("id"))
	}
	state, err := reviewEvent(in.Event)
	if err != nil {
		return err
	}
	if state == forge.ReviewPending {
		return usererr.Unprocessablef("event", "invalid_field", "a submitted review is APPROVED, REQUEST_CHANGES or COMMENT: it cannot stay pending")
	}
	if err := api.CheckBody("body", in.Body); err != nil {
		return err
	}
	res, err := h.Forge.SubmitReviewDraft(r.Context(), reviewer(id.User), repo.ID, pr.Number, draft, state, in.Body)
	if err != nil {
		return err
	}
	return h.replyReview(w, r, res.Change.Review.ID)
}

// deleteReview deletes the user's pending review; one on chain stays.
func (h *Handler) deleteReview(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	draft, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("there is no review %s of this pull request", r.PathValue("id"))
	}
	if !forge.IsDraftID(draft) {
		_, _, list, err := h.reviewsOf(r)
		if err != nil {
			return err
		}
		if _, err := findReview(list, r.PathValue("id")); err != nil {
			return err
		}
		return usererr.BadFieldf("id", "a submitted review is on chain and cannot be deleted")
	}
	if err := h.Forge.DeleteReviewDraft(r.Context(), reviewer(id.User), repo.ID, pr.Number, draft); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
