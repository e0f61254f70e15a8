package issue

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Pull requests: Gitea's API v1 paths and JSON shapes. The record (title,
// branches, commits, reviews, merge) is the forge's; the git side (the
// head's commits kept in the base repository, diffs, merge-tree, the merge
// itself) is forge.Pulls'.

func (h *Handler) registerPulls(mux *http.ServeMux, w func(api.Endpoint) http.HandlerFunc) {
	const pulls = "/api/v1/repos/{owner}/{repo}/pulls"
	mux.HandleFunc("GET "+pulls, h.Serve(h.listPulls))
	mux.HandleFunc("POST "+pulls, w(h.createPull))
	// {index} is also "N.diff" and "N.patch", as in Gitea.
	mux.HandleFunc("GET "+pulls+"/{index}", h.Serve(h.getPull))
	mux.HandleFunc("PATCH "+pulls+"/{index}", w(h.editPull))
	mux.HandleFunc("GET "+pulls+"/{index}/commits", h.Serve(h.listPullCommits))
	mux.HandleFunc("GET "+pulls+"/{index}/files", h.Serve(h.listPullFiles))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews", h.Serve(h.listReviews))
	mux.HandleFunc("POST "+pulls+"/{index}/reviews", w(h.createReview))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews/{id}", h.Serve(h.getReview))
	mux.HandleFunc("POST "+pulls+"/{index}/reviews/{id}", w(h.submitReview))
	mux.HandleFunc("DELETE "+pulls+"/{index}/reviews/{id}", w(h.deleteReview))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews/{id}/comments", h.Serve(h.listReviewComments))
	mux.HandleFunc("POST "+pulls+"/{index}/merge", w(h.mergePull))
	mux.HandleFunc("GET "+pulls+"/{index}/merge", h.Serve(h.isMerged))
	mux.HandleFunc("GET "+pulls+"/{base}/{head...}", h.Serve(h.getPullByBranches))
	h.registerReviewRequests(mux, w)
	h.registerViewed(mux, w)
}

// pullOf resolves {owner}/{repo} and its pull request {index}.
func (h *Handler) pullOf(r *http.Request, number string) (index.Repo, forge.Perm, index.Pull, error) {
	repo, perm, err := h.RepoOf(r)
	if err != nil {
		return index.Repo{}, 0, index.Pull{}, err
	}
	n, err := strconv.ParseUint(number, 10, 64)
	if err != nil || n == 0 {
		return index.Repo{}, 0, index.Pull{}, pullNotFound(number)
	}
	pr, err := h.Forge.Index().Pull(r.Context(), repo.ID, n)
	if ue, ok := usererr.As(err); (ok && ue.Kind == usererr.NotFound) || (err == nil && h.deletedHere(r, repo.ID, n)) {
		return index.Repo{}, 0, index.Pull{}, pullNotFound(number)
	}
	return repo, perm, pr, err
}

func pullNotFound(what string) error {
	return usererr.Missingf("there is no pull request #%s", what)
}

// listPulls lists a repository's pull requests, as Gitea's: state, sort
// (oldest, recentupdate, leastupdate, mostcomment, leastcomment, priority;
// newest first by default), milestone (an id), labels (ids, repeated; a
// pull request must carry all of them), poster (a username) and q. An
// unknown sort, state or poster is refused.
func (h *Handler) listPulls(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := index.IssueFilter{IsPull: new(true), Query: strings.TrimSpace(q.Get("q"))}
	if f.State, err = api.StateFilter(r); err != nil {
		return err
	}
	if f.Sort, err = api.SortFilter(r); err != nil {
		return err
	}
	if f.Author, err = h.userFilter(r, "poster"); err != nil {
		return err
	}
	// Gitea's labels are ids, repeated (labels=1&labels=2); names and
	// comma-separated lists are taken too, as on the issue list.
	labels, ok, err := h.labelFilter(r.Context(), repo, api.LabelsParam(r))
	if err != nil {
		return err
	}
	f.Labels = labels
	if ok && q.Get("milestone") != "" && q.Get("milestone") != "0" {
		f.Milestones, ok, err = h.milestoneFilter(r.Context(), repo, q.Get("milestone"))
		if err != nil {
			return err
		}
	}
	var list []index.Issue
	var total int64
	if ok {
		if list, total, err = h.issues(r.Context(), repo, f, p); err != nil {
			return err
		}
	}
	out := make([]api.PullJSON, 0, len(list))
	for _, is := range list {
		pr, err := h.Forge.Index().Pull(r.Context(), repo.ID, is.Number)
		if err != nil {
			return err
		}
		out = append(out, h.Pull(r, repo, perm, pr, false))
	}
	return h.RespondList(w, r, p, total, out, nil)
}

func (h *Handler) createPull(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Head      string   `json:"head"`
		Base      string   `json:"base"`
		Title     string   `json:"title"`
		Body      string   `json:"body"`
		Assignee  string   `json:"assignee"`
		Assignees []string `json:"assignees"`
		Labels    []uint64 `json:"labels"`
		Milestone int64    `json:"milestone"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	ctx, actor := r.Context(), id.User.Address
	base, perm, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Head) == "" {
		return usererr.BadFieldf("head", "head must name the branch to merge")
	}
	if err := api.CheckTitle(in.Title); err != nil {
		return err
	}
	if err := api.CheckBody("body", in.Body); err != nil {
		return err
	}
	milestone, err := h.issueMilestone(ctx, base, in.Milestone)
	if err != nil {
		return err
	}
	head, branch, err := h.HeadOf(ctx, actor, base, in.Head)
	if err != nil {
		return err
	}
	pr, err := h.Pulls.Open(ctx, actor, base, forge.OpenPull{Head: head, HeadBranch: branch, BaseBranch: in.Base, Title: in.Title, Body: in.Body,
		Assignees: assigneeNames(in.Assignee, in.Assignees), Labels: in.Labels, Milestone: milestone})
	if err != nil {
		return err
	}
	if fresh, err := h.Forge.Index().RepoByID(ctx, base.ID); err == nil {
		base = fresh // its counters moved
	}
	api.WriteJSON(w, http.StatusCreated, h.Pull(r, base, perm, pr, true))
	return nil
}

func (h *Handler) getPull(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("index")
	for _, format := range []string{".diff", ".patch"} {
		if n, ok := strings.CutSuffix(raw, format); ok {
			return h.pullDiff(w, r, n, format)
		}
	}
	repo, perm, pr, err := h.pullOf(r, raw)
	if err != nil {
		return err
	}
	pr = h.Pulls.Sync(r.Context(), repo, pr)
	return api.Reply(w, h.Pull(r, repo, perm, pr, true))
}

// getPullByBranches is Gitea's GET /pulls/{base}/{head}: the pull request
// from head ("branch", "owner:branch" or "owner/repo:branch", as on
// creation) into the base branch.
func (h *Handler) getPullByBranches(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	base, spec := r.PathValue("base"), r.PathValue("head")
	if !isBranchText(base) || !isBranchText(spec) {
		// No branch is named so: nothing to look up (a database refuses
		// bytes that are not UTF-8).
		return usererr.Missingf("there is no pull request from %q into %q", spec, base)
	}
	headRepo, branch, err := h.HeadOf(r.Context(), api.ViewerOf(r), repo, spec)
	if ue, ok := usererr.As(err); ok && ue.Kind != usererr.NotFound {
		err = usererr.Missingf("there is no pull request from %s into %s", spec, base)
	}
	if err != nil {
		return err
	}
	number, err := h.Forge.Index().PullByBranches(r.Context(), repo.ID, headRepo.ID, base, branch)
	if err != nil {
		return err
	}
	pr, err := h.Forge.Index().Pull(r.Context(), repo.ID, number)
	if err != nil {
		return err
	}
	if h.deletedHere(r, repo.ID, number) {
		return pullNotFound(strconv.FormatUint(number, 10))
	}
	pr = h.Pulls.Sync(r.Context(), repo, pr)
	return api.Reply(w, h.Pull(r, repo, perm, pr, true))
}

// isBranchText says whether s could name a branch: UTF-8 without control
// characters.
func isBranchText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// pullDiff streams the pull request's diff or patch series as text.
func (h *Handler) pullDiff(w http.ResponseWriter, r *http.Request, number, format string) error {
	repo, _, pr, err := h.pullOf(r, number)
	if err != nil {
		return err
	}
	cmp, err := h.Pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	write := gitstore.WriteDiff
	if format == ".patch" {
		write = gitstore.WritePatch
	}
	if err := write(r.Context(), cmp.Dir, cmp.From, cmp.To, w); err != nil {
		// The answer has begun: all that is left is to log it.
		h.Log.WarnContext(r.Context(), "stream a pull request's diff", "repo", repo.ID, "number", pr.Number, "err", err)
	}
	return nil
}

// editPull applies Gitea's EditPullRequestOption: title, body, assignees
// and state (closed or open). The base branch cannot change; an empty base
// (the Gitea SDK always sends one) or an empty title leaves it as it is.
func (h *Handler) editPull(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title     *string   `json:"title"`
		Body      *string   `json:"body"`
		Base      *string   `json:"base"`
		Assignee  *string   `json:"assignee"`
		Assignees *[]string `json:"assignees"`
		Milestone int64     `json:"milestone"`
		State     *string   `json:"state"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if in.Base != nil && *in.Base != "" && *in.Base != pr.BaseBranch {
		return usererr.BadFieldf("base", "the base branch of a pull request cannot change; close it and open another")
	}
	change, err := issueChange(pr.Issue, in.Title, in.Body, in.Assignee, in.Assignees)
	if err != nil {
		return err
	}
	// As Gitea's EditPullRequestOption: milestone 0 leaves it as it is.
	if in.Milestone != 0 {
		if change.Milestone, err = h.milestoneChange(r.Context(), repo, pr.Issue, &in.Milestone); err != nil {
			return err
		}
	}
	if change.State, _, err = stateChange(pr.Issue, api.Deref(in.State), ""); err != nil {
		return err
	}
	if err := h.Forge.EditIssue(r.Context(), id.User.Address, repo, pr.Issue, change); err != nil {
		return err
	}
	if pr, err = h.Forge.Index().Pull(r.Context(), repo.ID, pr.Number); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, h.Pull(r, repo, perm, pr, true))
	return nil
}
