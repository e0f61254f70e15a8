package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The dashboard: what needs the signed-in user, in one answer (a dForge
// extension; Gitea has no such endpoint). Each section is bounded, carries
// its total and the query that lists it all: the issue sections are
// Gitea's issue search with a relation, the same query (and so the same
// cached page) the "see all" link runs. Everything is read as the
// request's viewer sees it: a public-only token sees no private
// repository, and nobody sees one they cannot read.

// dashboardLimit is the number of items a section shows.
const dashboardLimit = 10

// maxDashboardStatuses bounds the checks listed with each pull request.
const maxDashboardStatuses = 20

func (a *API) RegisterDashboard(mux *http.ServeMux) {
	if a.Forge == nil || a.Hosting == nil || a.Index == nil || a.Auth == nil {
		return
	}
	h := &IssuesAPI{API: a, Pulls: a.Pulls}
	mux.HandleFunc("GET /api/v1/user/dashboard", a.SignedIn(auth.ScopeRead, h.getDashboard))
	mux.HandleFunc("GET /api/v1/user/dashboard/repos", a.SignedIn(auth.ScopeRead, a.listDashboardRepos))
}

// dashboardJSON is the dashboard's sections.
type dashboardJSON struct {
	// ReviewRequests are open pull requests the user is asked to review.
	ReviewRequests dashIssuesJSON `json:"review_requests"`
	// Assigned are open issues and pull requests assigned to the user.
	Assigned dashIssuesJSON `json:"assigned"`
	// Pulls are the user's open pull requests with their checks.
	Pulls dashPullsJSON `json:"pulls"`
	// Repositories are those the user owns, collaborates on or holds
	// through an organization, the most recently updated first.
	Repositories dashReposJSON `json:"repositories"`
	// Notifications are the latest unread or pinned threads.
	Notifications dashThreadsJSON `json:"notifications"`
}

// dashIssuesJSON is a section of issues; SeeAll is the API query that
// lists all TotalCount of them, paged.
type dashIssuesJSON struct {
	TotalCount int64       `json:"total_count"`
	Items      []IssueJSON `json:"items"`
	SeeAll     string      `json:"see_all"`
}

type dashPullsJSON struct {
	TotalCount int64          `json:"total_count"`
	Items      []dashPullJSON `json:"items"`
	SeeAll     string         `json:"see_all"`
}

// dashPullJSON is a pull request with the combined status of its head.
type dashPullJSON struct {
	IssueJSON
	HeadSHA string         `json:"head_sha"`
	Checks  dashChecksJSON `json:"checks"`
	// Approvals counts the reviewers whose latest verdict approves (not
	// dismissed), as branch protection's required approvals count them
	// among those who may write.
	Approvals int `json:"approvals"`
}

// dashChecksJSON is the combined status of a head: state is the worst of
// each context's latest ("" when no check reported), total_count the
// contexts, statuses the first maxDashboardStatuses of them.
type dashChecksJSON struct {
	State      string             `json:"state"`
	TotalCount int                `json:"total_count"`
	Statuses   []CommitStatusJSON `json:"statuses"`
}

type dashReposJSON struct {
	TotalCount int64      `json:"total_count"`
	Items      []RepoJSON `json:"items"`
	SeeAll     string     `json:"see_all"`
}

type dashThreadsJSON struct {
	TotalCount int64                    `json:"total_count"`
	Items      []notificationThreadJSON `json:"items"`
	SeeAll     string                   `json:"see_all"`
}

// The queries behind "see all".
const (
	seeReviewRequests = "/api/v1/repos/issues/search?type=pulls&state=open&review_requested=true"
	seeAssigned       = "/api/v1/repos/issues/search?state=open&assigned=true"
	seePulls          = "/api/v1/repos/issues/search?type=pulls&state=open&created=true"
	seeRepos          = "/api/v1/user/dashboard/repos"
	seeNotifications  = "/api/v1/notifications"
)

// getDashboard answers the signed-in user's dashboard: review requests,
// assignments, their open pull requests with checks, their repositories
// and their latest notifications, each at most ten with its total.
func (h *IssuesAPI) getDashboard(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	hidden, err := h.HiddenReasons(r, id)
	if err != nil {
		return err
	}
	// A dashboard left open is asked for again and again; it changes only
	// with the projection, so it is built once per change (see
	// index.RememberAnswer) for this user, token view, preferences, URL
	// and this node's hidden list (the moderation version is read before
	// the answer is built, so a later change misses the cache).
	key := fmt.Sprintf("dashboard|%s|%t|%v|%s|%s", id.User.Address.Hex(), id.PublicOnly(), hidden, SiteURL(r), h.ModViewOf(r).key())
	var kept keptDashboard
	kept, err = index.RememberAnswer(h.Index, key, dashboardSize, func() (keptDashboard, error) {
		out, err := h.dashboard(r, id, hidden)
		if err != nil {
			return keptDashboard{}, err
		}
		body, err := json.Marshal(out)
		return keptDashboard{out, body}, err
	})
	if err != nil {
		return err
	}
	writeDashboard(w, kept.out, kept.body)
	return nil
}

// keptDashboard is a dashboard with its encoding, kept together so that a
// dashboard asked for again is written without encoding it again.
type keptDashboard struct {
	out  dashboardJSON
	body []byte
}

// writeDashboard writes d: its kept encoding body, or d encoded when none
// was kept. The cache always keeps one; the Encode call is also where
// tools/openapi reads the answer's shape (it cannot see through the
// generic cache), so it stays.
func writeDashboard(w http.ResponseWriter, d dashboardJSON, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if body != nil {
		w.Write(append(body, '\n'))
		return
	}
	json.NewEncoder(w).Encode(d)
}

// dashboardSize is about what a dashboard holds, for the read cache's
// bound: five sections of ten items of a few hundred bytes, twice.
const dashboardSize = 64 << 10

// dashboard reads the dashboard's sections for id.
func (h *IssuesAPI) dashboard(r *http.Request, id *auth.Identity, hidden []string) (dashboardJSON, error) {
	me := id.User.Address
	viewer := forge.ListViewer(r.Context(), me)
	open, pulls := "open", true
	var out dashboardJSON
	var err error
	// 1. Review requests, assignments and the user's own pull requests.
	if out.ReviewRequests, err = h.dashIssues(r, index.IssueSearch{Viewer: viewer, State: open, IsPull: &pulls, ReviewRequested: me}, seeReviewRequests); err != nil {
		return out, err
	}
	if out.Assigned, err = h.dashIssues(r, index.IssueSearch{Viewer: viewer, State: open, Assignee: me}, seeAssigned); err != nil {
		return out, err
	}
	if out.Pulls, err = h.dashPulls(r, index.IssueSearch{Viewer: viewer, State: open, IsPull: &pulls, Author: me}); err != nil {
		return out, err
	}
	// 2. Repositories.
	repos, total, err := h.Index.UserRepos(r.Context(), me, viewer, index.Page{Number: 1, Limit: dashboardLimit})
	if err != nil {
		return out, err
	}
	items, err := h.ReposJSON(r, repos)
	if err != nil {
		return out, err
	}
	out.Repositories = dashReposJSON{TotalCount: total, Items: items, SeeAll: seeRepos}
	// 3. Notifications, as the list shows them by default.
	f := index.NotificationFilter{User: me, Statuses: []string{"unread", "pinned"}, PublicOnly: id.PublicOnly(), HideReasons: hidden}
	threads, total, err := h.Index.Notifications(r.Context(), f, index.Page{Number: 1, Limit: dashboardLimit})
	if err != nil {
		return out, err
	}
	out.Notifications = dashThreadsJSON{TotalCount: total, Items: h.ThreadsJSON(r, threads), SeeAll: seeNotifications}
	return out, nil
}

// dashIssues is the first page of the search f and its total.
func (h *IssuesAPI) dashIssues(r *http.Request, f index.IssueSearch, seeAll string) (dashIssuesJSON, error) {
	list, total, err := h.Forge.Index().SearchIssues(r.Context(), f, index.Page{Number: 1, Limit: dashboardLimit})
	if err != nil {
		return dashIssuesJSON{}, err
	}
	items, err := h.openIssuesJSON(r, list)
	if err != nil {
		return dashIssuesJSON{}, err
	}
	return dashIssuesJSON{TotalCount: total, Items: items, SeeAll: seeAll}, nil
}

// dashPulls is the user's open pull requests with the combined status of
// each head, read for all of them in one query.
func (h *IssuesAPI) dashPulls(r *http.Request, f index.IssueSearch) (dashPullsJSON, error) {
	list, total, err := h.Forge.Index().SearchIssues(r.Context(), f, index.Page{Number: 1, Limit: dashboardLimit})
	if err != nil {
		return dashPullsJSON{}, err
	}
	items, err := h.openIssuesJSON(r, list)
	if err != nil {
		return dashPullsJSON{}, err
	}
	checks, err := h.Index.ChecksOf(r.Context(), list)
	if err != nil {
		return dashPullsJSON{}, err
	}
	out := dashPullsJSON{TotalCount: total, Items: make([]dashPullJSON, 0, len(items)), SeeAll: seePulls}
	keyOf := make(map[int64]index.IssueKey, len(list))
	for _, is := range list {
		keyOf[convert.IssueID(is.Repo, is.Number)] = index.IssueKey{Repo: is.Repo, Number: is.Number}
	}
	for _, it := range items {
		c := checks[keyOf[it.ID]]
		out.Items = append(out.Items, dashPullJSON{IssueJSON: it, HeadSHA: c.HeadSHA, Checks: h.checksJSON(r, it, c.Statuses), Approvals: c.Approvals})
	}
	return out, nil
}

// openIssuesJSON shapes open issues of several repositories, in order.
// Open pull requests are not merged, so unlike foundIssuesJSON it reads no
// pull request records. Each repository is read through the forge, which
// checks again that the viewer may read it; the dashboard's sections are
// searches of readable repositories, so none is dropped but one made
// private since the search.
func (h *IssuesAPI) openIssuesJSON(r *http.Request, list []index.Issue) ([]IssueJSON, error) {
	type repoOut struct {
		repo  index.Repo
		links *Links
	}
	repos := map[uint64]*repoOut{}
	out := make([]IssueJSON, 0, len(list))
	for _, is := range list {
		ro, ok := repos[is.Repo]
		if !ok {
			rec, _, err := h.Forge.RepoByID(r.Context(), ViewerOf(r), is.Repo)
			if err != nil {
				if _, ok := usererr.As(err); !ok {
					return nil, err
				}
			} else {
				ro = &repoOut{repo: rec, links: h.ListLinks(r, rec)}
			}
			repos[is.Repo] = ro
		}
		if ro == nil {
			continue
		}
		out = append(out, ro.links.Issue(ro.repo, is, nil))
	}
	return out, nil
}

// checksJSON combines a head's latest statuses.
func (h *IssuesAPI) checksJSON(r *http.Request, it IssueJSON, list []index.CommitStatus) dashChecksJSON {
	c := dashChecksJSON{TotalCount: len(list), Statuses: []CommitStatusJSON{}}
	states := make([]string, 0, len(list))
	api := SiteURL(r) + "/api/v1/repos/" + it.Repository.FullName
	for i, st := range list {
		states = append(states, st.State)
		if i < maxDashboardStatuses {
			c.Statuses = append(c.Statuses, h.ToStatus(r, api, st))
		}
	}
	c.State = CombinedState(states)
	return c
}

// listDashboardRepos is the repositories section in full, paged: what the
// user owns, collaborates on or holds through an organization, as the
// viewer may see it.
func (a *API) listDashboardRepos(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.UserRepos(r.Context(), id.User.Address, forge.ListViewer(r.Context(), id.User.Address), p)
	if err != nil {
		return err
	}
	out, err := a.ReposJSON(r, list)
	return a.RespondList(w, r, p, total, out, err)
}
