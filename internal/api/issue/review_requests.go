package issue

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Review requests and dismissals, Gitea's: POST and DELETE
// pulls/{index}/requested_reviewers (pr.review.request,
// pr.review.unrequest), POST reviews/{id}/dismissals and undismissals
// (pr.review.dismiss, pr.review.undismiss). The chain decides who may.

func (h *Handler) registerReviewRequests(mux *http.ServeMux, w func(api.Endpoint) http.HandlerFunc) {
	const pulls = "/api/v1/repos/{owner}/{repo}/pulls"
	mux.HandleFunc("POST "+pulls+"/{index}/requested_reviewers", w(h.requestReviews))
	mux.HandleFunc("DELETE "+pulls+"/{index}/requested_reviewers", w(h.unrequestReviews))
	mux.HandleFunc("POST "+pulls+"/{index}/reviews/{id}/dismissals", w(h.dismissReview))
	mux.HandleFunc("POST "+pulls+"/{index}/reviews/{id}/undismissals", w(h.undismissReview))
}

// reviewRequestInput reads Gitea's PullReviewRequestOptions as the
// addresses of the reviewers.
func (h *Handler) reviewRequestInput(w http.ResponseWriter, r *http.Request) ([]common.Address, error) {
	var in struct {
		Reviewers     []string `json:"reviewers"`
		TeamReviewers []string `json:"team_reviewers"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return nil, err
	}
	if len(in.TeamReviewers) > 0 {
		return nil, usererr.BadFieldf("team_reviewers", "review requests name people; ask the team's members in reviewers")
	}
	if len(in.Reviewers) == 0 {
		return nil, usererr.BadFieldf("reviewers", "must name at least one user")
	}
	out := []common.Address{}
	for _, name := range in.Reviewers {
		addr, err := h.Hosting.Owner(r.Context(), name)
		if err != nil {
			// As Gitea: a reviewer who does not exist is not found.
			return nil, usererr.Missingf("there is no user %s to ask for a review", name)
		}
		if !slices.Contains(out, addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}

func (h *Handler) requestReviews(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	reviewers, err := h.reviewRequestInput(w, r)
	if err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	before, err := h.Forge.Index().Reviews(r.Context(), repo.ID, pr.Number)
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.PullReviewRequest{Repo: repo.ID, Number: pr.Number, Reviewers: reviewers}); err != nil {
		return err
	}
	_, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	// Gitea answers with the requests this call made.
	l := h.LinksFor(r, repo)
	out := []api.ReviewJSON{}
	for _, rv := range list {
		if rv.State == index.ReviewRequested && !slices.ContainsFunc(before, func(b index.Review) bool { return b.ID == rv.ID }) {
			out = append(out, l.Review(pr, rv))
		}
	}
	api.WriteJSON(w, http.StatusCreated, out)
	return nil
}

func (h *Handler) unrequestReviews(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	reviewers, err := h.reviewRequestInput(w, r)
	if err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.PullReviewUnrequest{Repo: repo.ID, Number: pr.Number, Reviewers: reviewers}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// verdictOf finds review raw among the pull request's reviews on chain and
// checks it is a verdict (an approval or a request for changes): only
// those count, so only those are dismissed. Gitea (1.22 to 1.25,
// routers/api/v1/repo/pull_review.go dismissReview) refuses any other
// review with 403 and this message, which clients may match.
func verdictOf(list []index.Review, raw string) (index.Review, error) {
	rv, err := findReview(list, raw)
	if err != nil {
		return rv, err
	}
	if rv.State != chainforge.ReviewApprove && rv.State != chainforge.ReviewRequestChanges {
		return rv, usererr.Newf(usererr.Forbidden, "not_a_verdict",
			"not need to dismiss this review because it's type is not Approve or change request (review %d is neither an approval nor a request for changes)", rv.ID)
	}
	return rv, nil
}

func (h *Handler) dismissReview(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Message string `json:"message"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	if err := api.CheckBody("message", in.Message); err != nil {
		return err
	}
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := verdictOf(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	// The chain takes the author's current verdict away: a review a later
	// verdict of theirs replaced is not theirs to take.
	for _, later := range list {
		if later.ID > rv.ID && later.Author.Address == rv.Author.Address &&
			(later.State == chainforge.ReviewApprove || later.State == chainforge.ReviewRequestChanges) {
			return usererr.Unprocessablef("id", "invalid_field", "review %d was replaced by review %d of the same reviewer; dismiss that one", rv.ID, later.ID)
		}
	}
	payload := chainforge.PullReviewDismiss{Repo: repo.ID, Number: pr.Number, Review: rv.ID, Reviewer: common.HexToAddress(rv.Author.Address), Message: in.Message}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, payload); err != nil {
		return err
	}
	return h.replyReview(w, r, rv.ID)
}

func (h *Handler) undismissReview(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := verdictOf(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	if _, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.PullReviewUndismiss{Repo: repo.ID, Number: pr.Number, Review: rv.ID}); err != nil {
		return err
	}
	return h.replyReview(w, r, rv.ID)
}
