package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Pull requests: Gitea's API v1 paths and JSON shapes. The record (title,
// branches, commits, reviews, merge) is the forge's; the git side (the
// head's commits kept in the base repository, diffs, merge-tree, the merge
// itself) is forge.Pulls'.

func (h *issuesAPI) registerPulls(mux *http.ServeMux, w func(handler) http.HandlerFunc) {
	const pulls = "/api/v1/repos/{owner}/{repo}/pulls"
	mux.HandleFunc("GET "+pulls, h.serve(h.listPulls))
	mux.HandleFunc("POST "+pulls, w(h.createPull))
	// {index} is also "N.diff" and "N.patch", as in Gitea.
	mux.HandleFunc("GET "+pulls+"/{index}", h.serve(h.getPull))
	mux.HandleFunc("PATCH "+pulls+"/{index}", w(h.editPull))
	mux.HandleFunc("GET "+pulls+"/{index}/commits", h.serve(h.listPullCommits))
	mux.HandleFunc("GET "+pulls+"/{index}/files", h.serve(h.listPullFiles))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews", h.serve(h.listReviews))
	mux.HandleFunc("POST "+pulls+"/{index}/reviews", w(h.createReview))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews/{id}", h.serve(h.getReview))
	mux.HandleFunc("GET "+pulls+"/{index}/reviews/{id}/comments", h.serve(h.listReviewComments))
	mux.HandleFunc("POST "+pulls+"/{index}/merge", w(h.mergePull))
	mux.HandleFunc("GET "+pulls+"/{index}/merge", h.serve(h.isMerged))
}

// pullOf resolves {owner}/{repo} and its pull request {index}.
func (h *issuesAPI) pullOf(r *http.Request, number string) (index.Repo, forge.Perm, index.Pull, error) {
	repo, perm, err := h.repoOf(r)
	if err != nil {
		return index.Repo{}, 0, index.Pull{}, err
	}
	n, err := strconv.ParseUint(number, 10, 64)
	if err != nil || n == 0 {
		return index.Repo{}, 0, index.Pull{}, pullNotFound(number)
	}
	pr, err := h.forge.Index().Pull(r.Context(), repo.ID, n)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
		return index.Repo{}, 0, index.Pull{}, pullNotFound(number)
	}
	return repo, perm, pr, err
}

func pullNotFound(what string) error {
	return usererr.Missingf("there is no pull request #%s", what)
}

// --- JSON shapes ---

// prBranchJSON is Gitea's PRBranchInfo.
type prBranchJSON struct {
	Label  string    `json:"label"`
	Ref    string    `json:"ref"`
	SHA    string    `json:"sha"`
	RepoID uint64    `json:"repo_id"`
	Repo   *repoJSON `json:"repo"`
}

// pullJSON is Gitea's PullRequest, plus body_html, the files that
// conflict and the merge style.
type pullJSON struct {
	ID                  int64           `json:"id"`
	URL                 string          `json:"url"`
	Number              uint64          `json:"number"`
	User                forgeUserJSON   `json:"user"`
	Title               string          `json:"title"`
	Body                string          `json:"body"`
	BodyHTML            string          `json:"body_html"`
	Labels              []labelJSON     `json:"labels"`
	Milestone           *struct{}       `json:"milestone"`
	Assignee            *forgeUserJSON  `json:"assignee"`
	Assignees           []forgeUserJSON `json:"assignees"`
	RequestedReviewers  []forgeUserJSON `json:"requested_reviewers"`
	State               string          `json:"state"`
	Draft               bool            `json:"draft"`
	IsLocked            bool            `json:"is_locked"`
	Comments            uint64          `json:"comments"`
	Additions           *int            `json:"additions,omitempty"`
	Deletions           *int            `json:"deletions,omitempty"`
	ChangedFiles        *int            `json:"changed_files,omitempty"`
	HTMLURL             string          `json:"html_url"`
	DiffURL             string          `json:"diff_url"`
	PatchURL            string          `json:"patch_url"`
	Mergeable           bool            `json:"mergeable"`
	ConflictedFiles     []string        `json:"conflicted_files"`
	MergeableReason     string          `json:"mergeable_reason,omitempty"`
	Merged              bool            `json:"merged"`
	MergedAt            *string         `json:"merged_at"`
	MergeCommitSHA      *string         `json:"merge_commit_sha"`
	MergedBy            *forgeUserJSON  `json:"merged_by"`
	MergeStyle          string          `json:"merge_style,omitempty"`
	AllowMaintainerEdit bool            `json:"allow_maintainer_edit"`
	Base                prBranchJSON    `json:"base"`
	Head                prBranchJSON    `json:"head"`
	MergeBase           string          `json:"merge_base"`
	DueDate             *string         `json:"due_date"`
	Created             string          `json:"created_at"`
	Updated             string          `json:"updated_at"`
	Closed              *string         `json:"closed_at"`
	PinOrder            int             `json:"pin_order"`
}

// pull shapes pr of base; detail adds body_html and what needs a diff
// (its counts and the merge base), which single reads show and lists skip.
func (h *issuesAPI) pull(r *http.Request, base index.Repo, perm forge.Perm, pr index.Pull, detail bool) pullJSON {
	l := h.linksFor(r, base)
	if !detail {
		l = h.listLinks(r, base)
	}
	is := l.issue(base, pr.Issue, &pr)
	num := strconv.FormatUint(pr.Number, 10)
	j := pullJSON{
		ID: is.ID, URL: l.api + "/pulls/" + num, Number: pr.Number, User: is.User, Title: pr.Title, Body: pr.Body, BodyHTML: is.BodyHTML,
		Labels: is.Labels, Assignee: is.Assignee, Assignees: is.Assignees, RequestedReviewers: []forgeUserJSON{}, State: pr.State,
		Comments: pr.Comments, HTMLURL: l.html + "/pulls/" + num, DiffURL: l.html + "/pulls/" + num + ".diff",
		PatchURL: l.html + "/pulls/" + num + ".patch", ConflictedFiles: []string{}, Merged: pr.Merged, MergedAt: optional(pr.MergedAt),
		MergeCommitSHA: optional(pr.MergeSHA), MergeStyle: pr.MergeStyle, Created: pr.Created, Updated: pr.Updated, Closed: optional(pr.Closed),
		Base: prBranchJSON{Label: pr.BaseBranch, Ref: pr.BaseBranch, SHA: pr.BaseSHA, RepoID: base.ID},
		Head: prBranchJSON{Label: pr.HeadBranch, Ref: pr.HeadBranch, SHA: pr.HeadSHA, RepoID: pr.HeadRepo},
	}
	if pr.MergedBy != nil {
		u := l.person(*pr.MergedBy)
		j.MergedBy = &u
	}
	baseJSON := h.repoJSON(r, base, perm)
	j.Base.Repo = &baseJSON
	if pr.HeadRepo == base.ID {
		j.Head.Repo = &baseJSON
	} else if head, hp, err := h.forge.RepoByID(r.Context(), viewerOf(r), pr.HeadRepo); err == nil {
		headJSON := h.repoJSON(r, head, hp)
		j.Head.Repo, j.Head.Label = &headJSON, head.Owner.Username+":"+pr.HeadBranch
	}
	m := h.pulls.Mergeable(r.Context(), base, pr)
	j.Mergeable, j.MergeableReason = m.Mergeable, m.Reason
	if len(m.Conflicts) > 0 {
		j.ConflictedFiles, j.MergeableReason = m.Conflicts, "conflicts"
	}
	if detail {
		if cmp, err := h.pulls.Compare(r.Context(), base, pr); err == nil {
			j.MergeBase = cmp.From
			if files, err := gitstore.CompareFiles(r.Context(), cmp.Dir, cmp.From, cmp.To); err == nil {
				adds, dels, n := 0, 0, len(files)
				for _, f := range files {
					adds, dels = adds+f.Additions, dels+f.Deletions
				}
				j.Additions, j.Deletions, j.ChangedFiles = &adds, &dels, &n
			}
		}
	}
	return j
}

// --- list, create, read, edit ---

func (h *issuesAPI) listPulls(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := h.repoOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := index.IssueFilter{IsPull: new(true), Query: strings.TrimSpace(q.Get("q"))}
	switch q.Get("state") {
	case "", chainforge.StateOpen:
		f.State = chainforge.StateOpen
	case chainforge.StateClosed:
		f.State = chainforge.StateClosed
	case "all":
	default:
		return usererr.InvalidField("state", "invalid_state", "state must be open, closed or all")
	}
	labelIDs, ok, err := h.labelFilter(r.Context(), repo, q.Get("labels"))
	if err != nil {
		return err
	}
	var list []index.Issue
	var total int64
	if ok {
		if list, total, err = h.issues(r.Context(), repo, f, labelIDs, p); err != nil {
			return err
		}
	}
	out := make([]pullJSON, 0, len(list))
	for _, is := range list {
		pr, err := h.forge.Index().Pull(r.Context(), repo.ID, is.Number)
		if err != nil {
			return err
		}
		out = append(out, h.pull(r, repo, perm, pr, false))
	}
	return h.respondList(w, r, p, total, out, nil)
}

// headOf finds the repository and branch of Gitea's head: "branch" in the
// base itself, "owner:branch" in owner's fork of it (or the base, when
// owner owns it), or "owner/repo:branch".
func (h *issuesAPI) headOf(ctx context.Context, viewer common.Address, base index.Repo, head string) (index.Repo, string, error) {
	spec, branch, fork := strings.Cut(head, ":")
	if !fork {
		return base, head, nil
	}
	if owner, name, ok := strings.Cut(spec, "/"); ok {
		repo, _, err := h.forge.Repo(ctx, viewer, owner, name)
		if err != nil {
			return index.Repo{}, "", err
		}
		if repo.ID != base.ID && repo.ForkOf != base.ID {
			return index.Repo{}, "", headInvalid("%s/%s is not %s/%s or a fork of it", owner, name, base.Owner.Username, base.Name)
		}
		return repo, branch, nil
	}
	addr, err := h.forge.Owner(ctx, spec)
	if err != nil {
		return index.Repo{}, "", headInvalid("there is no user %s", spec)
	}
	if addr == base.OwnerAddress() {
		return base, branch, nil
	}
	for page := 1; ; page++ {
		list, total, err := h.forge.Repos(ctx, index.RepoFilter{Viewer: viewer, Owner: &addr, Sort: "name"}, index.Page{Number: page, Limit: maxLimit})
		if err != nil {
			return index.Repo{}, "", err
		}
		for _, r := range list {
			if r.ForkOf == base.ID {
				return r, branch, nil
			}
		}
		if int64(page*maxLimit) >= total {
			return index.Repo{}, "", headInvalid("%s has no fork of %s/%s", spec, base.Owner.Username, base.Name)
		}
	}
}

func headInvalid(format string, args ...any) error {
	return usererr.BadFieldf("head", format, args...)
}

func (h *issuesAPI) createPull(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
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
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	ctx, actor := r.Context(), id.User.Address
	base, perm, err := h.repoOf(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Head) == "" {
		return usererr.BadFieldf("head", "head must name the branch to merge")
	}
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	if err := checkBody("body", in.Body); err != nil {
		return err
	}
	head, branch, err := h.headOf(ctx, actor, base, in.Head)
	if err != nil {
		return err
	}
	pr, err := h.pulls.Open(ctx, actor, base, forge.OpenPull{Head: head, HeadBranch: branch, BaseBranch: in.Base, Title: in.Title, Body: in.Body,
		Assignees: assigneeNames(in.Assignee, in.Assignees), Labels: in.Labels})
	if err != nil {
		return err
	}
	if fresh, err := h.forge.Index().RepoByID(ctx, base.ID); err == nil {
		base = fresh // its counters moved
	}
	writeJSON(w, http.StatusCreated, h.pull(r, base, perm, pr, true))
	return nil
}

func (h *issuesAPI) getPull(w http.ResponseWriter, r *http.Request) error {
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
	pr = h.pulls.Sync(r.Context(), repo, pr)
	return reply(w, h.pull(r, repo, perm, pr, true))
}

// pullDiff streams the pull request's diff or patch series as text.
func (h *issuesAPI) pullDiff(w http.ResponseWriter, r *http.Request, number, format string) error {
	repo, _, pr, err := h.pullOf(r, number)
	if err != nil {
		return err
	}
	cmp, err := h.pulls.Compare(r.Context(), repo, pr)
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
		h.log.WarnContext(r.Context(), "stream a pull request's diff", "repo", repo.ID, "number", pr.Number, "err", err)
	}
	return nil
}

// editPull applies Gitea's EditPullRequestOption: title, body, assignees
// and state (closed or open). The base branch cannot change.
func (h *issuesAPI) editPull(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title     *string   `json:"title"`
		Body      *string   `json:"body"`
		Base      *string   `json:"base"`
		Assignee  *string   `json:"assignee"`
		Assignees *[]string `json:"assignees"`
		State     *string   `json:"state"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if in.Base != nil && *in.Base != pr.BaseBranch {
		return usererr.BadFieldf("base", "the base branch of a pull request cannot change; close it and open another")
	}
	change, err := issueChange(pr.Issue, in.Title, in.Body, in.Assignee, in.Assignees)
	if err != nil {
		return err
	}
	if change.State, _, err = stateChange(pr.Issue, deref(in.State), ""); err != nil {
		return err
	}
	if err := h.forge.EditIssue(r.Context(), id.User.Address, repo, pr.Issue, change); err != nil {
		return err
	}
	if pr, err = h.forge.Index().Pull(r.Context(), repo.ID, pr.Number); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, h.pull(r, repo, perm, pr, true))
	return nil
}

// --- commits and files ---

func (h *issuesAPI) listPullCommits(w http.ResponseWriter, r *http.Request) error {
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	span := cmp.From + ".." + cmp.To
	total, err := gitstore.Count(r.Context(), cmp.Dir, span, "")
	if err != nil {
		return err
	}
	list, err := gitstore.Log(r.Context(), cmp.Dir, span, gitstore.LogOptions{Skip: (p.Number - 1) * p.Limit, Limit: p.Limit, Files: true})
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	c := code{repo: repo, perm: perm, dir: cmp.Dir, api: l.api, html: l.html}
	out := make([]commitJSON, len(list))
	for i, g := range list {
		out[i] = c.commit(g, true)
	}
	return h.respondList(w, r, p, int64(total), out, nil)
}

// changedFileJSON is Gitea's ChangedFile, plus the file's patch (cut at
// maxFilePatch bytes, which patch_truncated then says) and whether it is
// binary.
type changedFileJSON struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename,omitempty"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	HTMLURL          string `json:"html_url"`
	ContentsURL      string `json:"contents_url"`
	RawURL           string `json:"raw_url"`
	Binary           bool   `json:"binary"`
	Patch            string `json:"patch"`
	PatchTruncated   bool   `json:"patch_truncated"`
}

// A page of files carries each file's patch up to maxFilePatch bytes, and
// at most maxPagePatch bytes of patches in all: a huge diff is read a page
// at a time, and a huge file says it was cut.
const (
	maxFilePatch = 256 << 10
	maxPagePatch = 4 << 20
)

func (h *issuesAPI) listPullFiles(w http.ResponseWriter, r *http.Request) error {
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	files, err := gitstore.CompareFiles(r.Context(), cmp.Dir, cmp.From, cmp.To)
	if err != nil {
		return err
	}
	page := pageSlice(files, p)
	l := h.linksFor(r, repo)
	out := make([]changedFileJSON, len(page))
	budget := maxPagePatch
	for i, f := range page {
		path := escapePath(f.Path)
		j := changedFileJSON{
			Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL: l.html + "/src/commit/" + cmp.To + "/" + path, ContentsURL: l.api + "/contents/" + path + "?ref=" + cmp.To,
			RawURL: l.html + "/raw/commit/" + cmp.To + "/" + path, Binary: f.Binary,
		}
		if f.OldPath != f.Path {
			j.PreviousFilename = f.OldPath
		}
		if budget <= 0 {
			j.PatchTruncated = true
		} else if !f.Binary {
			patch, cut, err := gitstore.FilePatch(r.Context(), cmp.Dir, cmp.From, cmp.To, f, min(maxFilePatch, budget))
			if err != nil {
				return err
			}
			j.Patch, j.PatchTruncated = patch, cut
			budget -= len(patch)
		}
		out[i] = j
	}
	return h.respondList(w, r, p, int64(len(files)), out, nil)
}

// --- reviews ---

// Gitea's review states, and the forge module's.
var reviewStates = map[string]string{
	chainforge.ReviewApprove: "APPROVED", chainforge.ReviewRequestChanges: "REQUEST_CHANGES", chainforge.ReviewCommented: "COMMENT",
}

// reviewJSON is Gitea's PullReview, plus body_html.
type reviewJSON struct {
	ID                uint64         `json:"id"`
	User              forgeUserJSON  `json:"user"`
	Team              *struct{}      `json:"team"`
	State             string         `json:"state"`
	Body              string         `json:"body"`
	BodyHTML          string         `json:"body_html"`
	CommitID          string         `json:"commit_id"`
	Stale             bool           `json:"stale"`
	Official          bool           `json:"official"`
	Dismissed         bool           `json:"dismissed"`
	CodeCommentsCount int            `json:"comments_count"`
	Submitted         string         `json:"submitted_at"`
	Updated           string         `json:"updated_at"`
	HTMLURL           string         `json:"html_url"`
	PullRequestURL    string         `json:"pull_request_url"`
	Resolver          *forgeUserJSON `json:"-"`
}

// reviewCommentJSON is Gitea's PullReviewComment, plus body_html: position
// is the line in the head's file, original_position the line in the base's.
type reviewCommentJSON struct {
	ID               uint64         `json:"id"`
	Body             string         `json:"body"`
	BodyHTML         string         `json:"body_html"`
	User             forgeUserJSON  `json:"user"`
	Resolver         *forgeUserJSON `json:"resolver"`
	ReviewID         uint64         `json:"pull_request_review_id"`
	Created          string         `json:"created_at"`
	Updated          string         `json:"updated_at"`
	Path             string         `json:"path"`
	CommitID         string         `json:"commit_id"`
	OriginalCommitID string         `json:"original_commit_id"`
	DiffHunk         string         `json:"diff_hunk"`
	Position         uint64         `json:"position"`
	OriginalPosition uint64         `json:"original_position"`
	HTMLURL          string         `json:"html_url"`
	PullRequestURL   string         `json:"pull_request_url"`
}

func (l *links) review(pr index.Pull, rv index.Review) reviewJSON {
	page := l.html + "/pulls/" + strconv.FormatUint(pr.Number, 10)
	official := rv.State != chainforge.ReviewCommented
	return reviewJSON{
		ID: rv.ID, User: l.person(rv.Author), State: reviewStates[rv.State], Body: rv.Body, BodyHTML: l.render(rv.Body),
		CommitID: rv.CommitSHA, Stale: rv.CommitSHA != pr.HeadSHA, Official: official, CodeCommentsCount: len(rv.Comments),
		Submitted: rv.Submitted, Updated: rv.Submitted, HTMLURL: page + "#pullrequestreview-" + strconv.FormatUint(rv.ID, 10), PullRequestURL: page,
	}
}

func (l *links) reviewComment(pr index.Pull, rv index.Review, c index.ReviewComment) reviewCommentJSON {
	page := l.html + "/pulls/" + strconv.FormatUint(pr.Number, 10)
	j := reviewCommentJSON{
		ID: c.ID, Body: c.Body, BodyHTML: l.render(c.Body), User: l.person(rv.Author), ReviewID: rv.ID, Created: rv.Submitted,
		Updated: rv.Submitted, Path: c.Path, CommitID: rv.CommitSHA, OriginalCommitID: rv.CommitSHA,
		HTMLURL: page + "/files#issuecomment-" + strconv.FormatUint(c.ID, 10), PullRequestURL: page,
	}
	if c.Side == "old" {
		j.OriginalPosition = c.Line
	} else {
		j.Position = c.Line
	}
	return j
}

func (h *issuesAPI) reviewsOf(r *http.Request) (index.Repo, index.Pull, []index.Review, error) {
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return index.Repo{}, index.Pull{}, nil, err
	}
	list, err := h.forge.Index().Reviews(r.Context(), repo.ID, pr.Number)
	return repo, pr, list, err
}

func (h *issuesAPI) listReviews(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	out := []reviewJSON{}
	for _, rv := range pageSlice(list, p) {
		out = append(out, l.review(pr, rv))
	}
	return h.respondList(w, r, p, int64(len(list)), out, nil)
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

func (h *issuesAPI) getReview(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	return reply(w, h.linksFor(r, repo).review(pr, rv))
}

func (h *issuesAPI) listReviewComments(w http.ResponseWriter, r *http.Request) error {
	repo, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, r.PathValue("id"))
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	out := make([]reviewCommentJSON, len(rv.Comments))
	for i, c := range rv.Comments {
		out[i] = l.reviewComment(pr, rv, c)
	}
	return reply(w, out)
}

// reviewEvent maps Gitea's (and GitHub's) review events to the forge's.
func reviewEvent(event, body string, inline int) (string, error) {
	switch strings.ToUpper(event) {
	case "APPROVED", "APPROVE":
		return chainforge.ReviewApprove, nil
	case "REQUEST_CHANGES":
		return chainforge.ReviewRequestChanges, nil
	case "COMMENT":
		return chainforge.ReviewCommented, nil
	case "":
		if strings.TrimSpace(body) == "" && inline == 0 {
			return "", usererr.InvalidField("event", "invalid_field", "event must be APPROVED, REQUEST_CHANGES or COMMENT")
		}
		return chainforge.ReviewCommented, nil
	case "PENDING":
		return "", usererr.BadFieldf("event", "pending (draft) reviews are not kept: submit the review as APPROVED, REQUEST_CHANGES or COMMENT")
	}
	return "", usererr.InvalidField("event", "invalid_field", "event must be APPROVED, REQUEST_CHANGES or COMMENT")
}

func (h *issuesAPI) createReview(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
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
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	state, err := reviewEvent(in.Event, in.Body, len(in.Comments))
	if err != nil {
		return err
	}
	if err := checkBody("body", in.Body); err != nil {
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
		if err := checkBody("comment", c.Body); err != nil {
			return err
		}
		payload.Comments = append(payload.Comments, rc)
	}
	if payload.CommitSHA == "" {
		payload.CommitSHA = h.pulls.Sync(r.Context(), repo, pr).HeadSHA
	}
	res, err := h.forge.Do(r.Context(), id.User.Address, "pr.review", payload)
	if err != nil {
		return err
	}
	_, pr, list, err := h.reviewsOf(r)
	if err != nil {
		return err
	}
	rv, err := findReview(list, strconv.FormatUint(res.Change.Review.ID, 10))
	if err != nil {
		return err
	}
	return reply(w, h.linksFor(r, repo).review(pr, rv))
}

// --- merge ---

// mergeConflictJSON is the 409 of a merge that conflicts: the error shape
// with the files.
type mergeConflictJSON struct {
	Message string   `json:"message"`
	Code    string   `json:"code"`
	Files   []string `json:"files"`
}

// mergeStyles maps Gitea's Do to the forge's merge styles.
var mergeStyles = map[string]string{"merge": gitstore.StyleMerge, "squash": gitstore.StyleSquash, "rebase": gitstore.StyleRebase}

func (h *issuesAPI) mergePull(w http.ResponseWriter, r *http.Request) error {
	id, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Do                     string `json:"Do"`
		MergeTitleField        string `json:"MergeTitleField"`
		MergeMessageField      string `json:"MergeMessageField"`
		HeadCommitID           string `json:"head_commit_id"`
		DeleteBranchAfterMerge bool   `json:"delete_branch_after_merge"`
		ForceMerge             bool   `json:"force_merge"`
		MergeWhenChecksSucceed bool   `json:"merge_when_checks_succeed"`
	}
	if err := decodeText(w, r, &in); err != nil {
		return err
	}
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	style, ok := mergeStyles[strings.ToLower(in.Do)]
	if in.Do == "" {
		style, ok = gitstore.StyleMerge, true
	}
	if !ok {
		return usererr.BadFieldf("Do", "Do must be merge, squash or rebase")
	}
	if err := checkBody("MergeMessageField", in.MergeMessageField); err != nil {
		return err
	}
	merger := usernameOf(id.User)
	merged, err := h.pulls.Merge(r.Context(), id.User.Address, repo, pr.Number, forge.MergeRequest{
		Style: style, Title: in.MergeTitleField, Message: in.MergeMessageField, HeadSHA: in.HeadCommitID,
		Author:    gitstore.Signature{Name: pr.Author.Username, Email: noreplyEmail(r, pr.Author.Username)},
		Committer: gitstore.Signature{Name: merger, Email: noreplyEmail(r, merger)},
	})
	var ce *forge.ConflictError
	if errors.As(err, &ce) {
		writeJSON(w, http.StatusConflict, mergeConflictJSON{Message: ce.Error(), Code: "merge_conflict", Files: ce.Files})
		return nil
	}
	if err != nil {
		return err
	}
	return reply(w, h.pull(r, repo, perm, merged, true))
}

func (h *issuesAPI) isMerged(w http.ResponseWriter, r *http.Request) error {
	_, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if !pr.Merged {
		return usererr.Newf(usererr.NotFound, "not_merged", "pull request #%d is not merged", pr.Number)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
