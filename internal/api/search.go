package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Search across the node, Gitea's API v1 paths and shapes: users (the
// accounts the chain knows) and issues across the repositories the caller
// may read. Repositories are searched by GET /repos/search (repos.go).
// The literal paths are more specific than /users/{username} and
// /repos/{owner}/{repo}, so the mux picks them; neither "search" nor
// "issues" can be a username (the chain reserves both).

// RegisterSearch adds the search routes: users when the node indexes the
// chain, issues when it also hosts repositories.
func (a *API) RegisterSearch(mux *http.ServeMux) {
	if a.Index != nil {
		mux.HandleFunc("GET /api/v1/users/search", a.Serve(a.searchUsers))
	}
	if a.Forge != nil && a.Hosting != nil {
		h := &IssuesAPI{API: a}
		mux.HandleFunc("GET /api/v1/repos/issues/search", h.Serve(h.searchIssues))
	}
}

// searchUsers is Gitea's user search ({ok, data}): the accounts whose name,
// or full name on this node, holds q in any case, and whose id is uid when
// given; the one named q exactly first, then by name. No q lists everyone.
// Ids and creation dates come from the chain (index.UserID), the same on
// every node; a uid of a user only this node knows finds that user.
func (a *API) searchUsers(w http.ResponseWriter, r *http.Request) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	var uid int64
	if v := r.URL.Query().Get("uid"); v != "" {
		if uid, err = strconv.ParseInt(v, 10, 64); err != nil || uid < 0 {
			return usererr.BadFieldf("uid", "uid must be a user id, a whole number")
		}
	}
	if uid >= index.LocalUserIDBase {
		return a.searchLocalUser(w, r, p, uid)
	}
	people, total, err := a.Index.SearchPeople(r.Context(), r.URL.Query().Get("q"), uid, p)
	out := make([]UserJSON, 0, len(people))
	mv := a.ModViewOf(r)
	for _, pr := range people {
		if !mv.listedUser(common.HexToAddress(pr.Address)) {
			continue // hidden by this node's moderators
		}
		out = append(out, PersonJSON(r, pr))
	}
	return a.RespondList(w, r, p, total, map[string]any{"ok": true, "data": out}, err)
}

// searchLocalUser answers a user search by the id of an account only this
// node knows (index.LocalUserIDBase): that user, when q (if any) is in
// their name or full name.
func (a *API) searchLocalUser(w http.ResponseWriter, r *http.Request, p index.Page, uid int64) error {
	out := []UserJSON{}
	addr, ok, err := a.Index.AddressOfUserID(r.Context(), uid)
	if err != nil {
		return err
	}
	if ok && a.ModViewOf(r).listedUser(addr) {
		u, err := a.Auth.UserByID(r.Context(), uid-index.LocalUserIDBase)
		if err != nil {
			return err
		}
		q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
		if strings.Contains(strings.ToLower(u.Username), q) || strings.Contains(strings.ToLower(u.Profile.FullName), q) {
			out = append(out, a.withAccount(r, ToUserJSON(u, false), u))
		}
	}
	total := int64(len(out))
	if p.Number > 1 {
		out = out[:0] // past the one match
	}
	return a.RespondList(w, r, p, total, map[string]any{"ok": true, "data": out}, nil)
}

// searchIssues is Gitea's issue search: issues and pull requests whose
// title or body holds q in any case, across the repositories the caller
// may read, the most recently updated first. state is open (the default),
// closed or all; type is issues or pulls (both when absent); created,
// assigned, review_requested, reviewed and mentioned narrow it to the
// signed-in user's (relationFilter).
func (h *IssuesAPI) searchIssues(w http.ResponseWriter, r *http.Request) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := index.IssueSearch{Viewer: forge.ListViewer(r.Context(), ViewerOf(r)), Query: strings.TrimSpace(q.Get("q"))}
	if f.State, err = StateFilter(r); err != nil {
		return unprocessable(err)
	}
	if f.IsPull, err = TypeFilter(r); err != nil {
		return unprocessable(err)
	}
	if err := h.relationFilter(r, &f); err != nil {
		return err
	}
	found, total, err := h.Forge.Index().SearchIssues(r.Context(), f, p)
	if err != nil {
		return err
	}
	list := h.WithoutDeleted(r.Context(), found)
	total -= int64(len(found) - len(list))
	out, err := h.foundIssuesJSON(r, list)
	if err != nil {
		return err
	}
	return h.RespondList(w, r, p, total, out, nil)
}

// relationFilter reads Gitea's created, assigned, review_requested,
// reviewed and mentioned: each true narrows the search to issues of that
// relation to the signed-in user. As in Gitea, they mean nothing to an
// anonymous caller, and a value other than true/1 is false.
func (h *IssuesAPI) relationFilter(r *http.Request, f *index.IssueSearch) error {
	u, ok := auth.UserFrom(r.Context())
	if !ok {
		return nil
	}
	// Literal names, so the OpenAPI generator lists each parameter.
	if BoolParam(r, "created", false) {
		f.Author = u.Address
	}
	if BoolParam(r, "assigned", false) {
		f.Assignee = u.Address
	}
	if BoolParam(r, "review_requested", false) {
		f.ReviewRequested = u.Address
	}
	if BoolParam(r, "reviewed", false) {
		f.Reviewer = u.Address
	}
	if BoolParam(r, "mentioned", false) {
		name, err := h.Index.Username(r.Context(), u.Address)
		if err != nil {
			return fmt.Errorf("read the username to search mentions of: %w", err)
		}
		if name == "" { // an account the chain does not know yet: no one could mention it
			name = u.Address.Hex()
		}
		f.MentionName = name
	}
	return nil
}

// unprocessable is err, a filter value's user error, as a 422: the search
// refuses one as Gitea's validation does.
func unprocessable(err error) error {
	ue, ok := usererr.As(err)
	if !ok {
		return err
	}
	return usererr.New(usererr.Unprocessable, ue.Code, ue.Message).On(ue.Field)
}

// foundIssuesJSON shapes issues of several repositories as the per-repository
// lists do. Each repository is read through the forge, which checks again
// that the caller may read it; one they may not (changed since the search)
// drops its issues.
func (h *IssuesAPI) foundIssuesJSON(r *http.Request, list []index.Issue) ([]IssueJSON, error) {
	type repoOut struct {
		repo  index.Repo
		links *Links
		pulls map[uint64]index.Pull
		ok    bool
	}
	// The pull requests' merge state, one read per repository.
	byRepo := map[uint64][]index.Issue{}
	for _, is := range list {
		byRepo[is.Repo] = append(byRepo[is.Repo], is)
	}
	repos := make(map[uint64]*repoOut, len(byRepo))
	for id, issues := range byRepo {
		rec, _, err := h.Forge.RepoByID(r.Context(), ViewerOf(r), id)
		if err != nil {
			if _, ok := usererr.As(err); ok {
				repos[id] = &repoOut{}
				continue
			}
			return nil, err
		}
		pulls, err := h.Forge.Index().PullsOf(r.Context(), id, issues)
		if err != nil {
			return nil, err
		}
		repos[id] = &repoOut{repo: rec, links: h.ListLinks(r, rec), pulls: pulls, ok: true}
	}
	out := make([]IssueJSON, 0, len(list))
	for _, is := range list {
		ro := repos[is.Repo]
		if !ro.ok {
			continue
		}
		var pr *index.Pull
		if got, ok := ro.pulls[is.Number]; ok && is.IsPull {
			pr = &got
		}
		out = append(out, ro.links.Issue(ro.repo, is, pr))
	}
	return out, nil
}
