package api

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/usererr"
)

// Repositories, Gitea's API v1 shapes: create, read, edit, delete, fork,
// transfer, search and list; stars, watches and collaborators. Writes go
// through the forge (on chain, or the private store for a private
// repository) and, where git data changes too, through gitrepos. A
// repository the caller may not read is 404, like a missing one.

const MaxRepoBody = 64 << 10

// RegisterRepos adds the repository and code routes when the node runs a
// forge.
func (a *API) RegisterRepos(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("POST /api/v1/user/repos", user(auth.ScopeWrite, a.createRepo))
	mux.HandleFunc("GET /api/v1/user/repos", user(auth.ScopeRead, a.listMyRepos))
	mux.HandleFunc("GET /api/v1/users/{username}/repos", a.Serve(a.listUserRepos))
	mux.HandleFunc("GET /api/v1/repos/search", a.Serve(a.searchRepos))
	mux.HandleFunc("GET /api/v1/repositories/{id}", a.Serve(a.getRepoByID))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}", a.Serve(a.getRepo))
	mux.HandleFunc("PATCH /api/v1/repos/{owner}/{repo}", user(auth.ScopeWrite, a.editRepo))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}", user(auth.ScopeWrite, a.deleteRepo))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/forks", user(auth.ScopeWrite, a.forkRepo))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/replication", a.Serve(a.getReplication))

	mux.HandleFunc("GET /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeRead, a.getStarred))
	mux.HandleFunc("PUT /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeWrite, a.flagRepo("repo.star", http.StatusNoContent)))
	mux.HandleFunc("DELETE /api/v1/user/starred/{owner}/{repo}", user(auth.ScopeWrite, a.flagRepo("repo.unstar", http.StatusNoContent)))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/stargazers", a.Serve(a.listStargazers))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeRead, a.getSubscription))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeWrite, a.flagRepo("repo.watch", http.StatusOK)))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/subscription", user(auth.ScopeWrite, a.flagRepo("repo.unwatch", http.StatusNoContent)))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/subscribers", a.Serve(a.listSubscribers))

	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators", a.Serve(a.listCollaborators))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", a.Serve(a.getCollaborator))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}/permission", a.Serve(a.getCollaboratorPermission))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", user(auth.ScopeWrite, a.putCollaborator))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/collaborators/{collaborator}", user(auth.ScopeWrite, a.deleteCollaborator))

	a.RegisterRepoPeople(mux)
	a.RegisterRepoTransfer(mux)
	a.RegisterContents(mux)
}

// ViewerOf is the request's user, or the zero address for anyone.
func ViewerOf(r *http.Request) common.Address {
	if u, ok := auth.UserFrom(r.Context()); ok {
		return u.Address
	}
	return common.Address{}
}

// RepoOf finds the {owner}/{repo} of the path as the request's user sees it.
func (a *API) RepoOf(r *http.Request) (index.Repo, forge.Perm, error) {
	return a.Hosting.Repo(r.Context(), ViewerOf(r), r.PathValue("owner"), r.PathValue("repo"))
}

// gitDataFailed answers a write whose forge record was made but whose git
// data was not: a 500 that says so, after logging the cause.
func (a *API) gitDataFailed(w http.ResponseWriter, r *http.Request, err error) {
	a.Log.ErrorContext(r.Context(), "git data", "path", r.URL.Path, "err", err)
	WriteJSON(w, http.StatusInternalServerError, ErrorBody{Code: "git_data_failed", URL: DocsURL(r),
		Message: "The repository was recorded, but this node could not write its git data. The node's operator has been told; please try again later or contact them."})
}

// HostingError answers a flow's error: gitDataFailed for ErrGitData, the
// usual answer otherwise.
func (a *API) HostingError(w http.ResponseWriter, r *http.Request, err error) error {
	if errors.Is(err, gitrepos.ErrGitData) {
		a.gitDataFailed(w, r, err)
		return nil
	}
	return err
}

// DefaultReadme is Gitea's "Default" README template.
func DefaultReadme(name, description string) []byte {
	s := "# " + name + "\n"
	if description != "" {
		s += "\n" + description + "\n"
	}
	return []byte(s)
}

// NoreplyEmail is the commit address of a user's web commits: their
// username at the node's host, as Gitea's noreply addresses are.
func NoreplyEmail(r *http.Request, username string) string {
	host := auth.OriginOf(r).Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "" || !strings.Contains(host, ".") || net.ParseIP(host) != nil {
		host = "dforge.local"
	}
	return username + "@noreply." + host
}

func UsernameOf(u auth.User) string {
	if u.Username != "" {
		return u.Username
	}
	return names.Default(u.Address)
}

func (a *API) createRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name          string `json:"name"`
		Description   string `json:"description"`
		Private       bool   `json:"private"`
		AutoInit      bool   `json:"auto_init"`
		DefaultBranch string `json:"default_branch"`
		Readme        string `json:"readme"`
	}
	if err := Decode(w, r, MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Readme != "" && in.Readme != "Default" {
		return usererr.BadFieldf("readme", `readme names a README template; the only one is "Default"`)
	}
	opts := gitrepos.CreateOptions{Name: in.Name, Description: in.Description, DefaultBranch: in.DefaultBranch, Private: in.Private}
	if in.AutoInit {
		name := UsernameOf(id.User)
		opts.README = DefaultReadme(in.Name, in.Description)
		opts.Author = gitstore.Signature{Name: name, Email: NoreplyEmail(r, name), When: time.Now()}
	}
	rec, err := a.Hosting.Create(r.Context(), id.User.Address, opts)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	WriteJSON(w, http.StatusCreated, a.RepoJSON(r, rec, forge.PermOwner))
	return nil
}

func (a *API) getRepo(w http.ResponseWriter, r *http.Request) error {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, a.repoWithParent(r, rec, perm))
	return nil
}

func (a *API) getRepoByID(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("repository %s does not exist", r.PathValue("id"))
	}
	rec, perm, err := a.Forge.RepoByID(r.Context(), ViewerOf(r), id)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, a.repoWithParent(r, rec, perm))
	return nil
}

func (a *API) editRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name              *string   `json:"name"`
		Description       *string   `json:"description"`
		Website           *string   `json:"website"`
		DefaultBranch     *string   `json:"default_branch"`
		Private           *bool     `json:"private"`
		ProtectedBranches *[]string `json:"protected_branches"`
	}
	if err := Decode(w, r, MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Private != nil && *in.Private != rec.Private {
		return usererr.BadFieldf("private", "a repository's visibility is fixed when it is created: public ones are on chain, private ones never leave this node")
	}
	up := chainforge.RepoUpdate{Name: in.Name, Description: in.Description, Website: in.Website, DefaultBranch: in.DefaultBranch, ProtectedBranches: in.ProtectedBranches}
	if up.Name != nil || up.Description != nil || up.Website != nil || up.DefaultBranch != nil || up.ProtectedBranches != nil {
		if rec, err = a.Hosting.Update(r.Context(), id.User.Address, rec, up); err != nil {
			return a.HostingError(w, r, err)
		}
	}
	perm, err := a.Forge.Permission(r.Context(), rec, id.User.Address)
	if err != nil {
		return err
	}
	return Reply(w, a.repoWithParent(r, rec, perm))
}

func (a *API) deleteRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.Delete(r.Context(), id.User.Address, rec); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) forkRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	src, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name         string `json:"name"`
		Organization string `json:"organization"`
	}
	if r.ContentLength != 0 {
		if err := Decode(w, r, MaxRepoBody, &in); err != nil {
			return err
		}
	}
	var org uint64
	if in.Organization != "" {
		o, err := a.Forge.Index().OrgByName(r.Context(), in.Organization)
		if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
			return usererr.BadFieldf("organization", "there is no organization called %s", in.Organization)
		} else if err != nil {
			return err
		}
		org = o.ID
	}
	fork, err := a.Hosting.ForkInto(r.Context(), id.User.Address, src, in.Name, org)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	perm, err := a.Forge.Permission(r.Context(), fork, id.User.Address)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusAccepted, a.repoWithParent(r, fork, perm))
	return nil
}

// ListRepos answers one page of the repositories f selects.
func (a *API) ListRepos(w http.ResponseWriter, r *http.Request, f index.RepoFilter, wrap bool) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	f.Viewer = ViewerOf(r)
	list, total, err := a.Forge.Repos(r.Context(), f, p)
	if err != nil {
		return err
	}
	out, err := a.ReposJSON(r, list)
	if wrap {
		return a.RespondList(w, r, p, total, map[string]any{"ok": true, "data": out}, err)
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *API) listMyRepos(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	return a.ListRepos(w, r, index.RepoFilter{Owner: &id.User.Address}, false)
}

func (a *API) listUserRepos(w http.ResponseWriter, r *http.Request) error {
	owner, err := a.Hosting.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	return a.ListRepos(w, r, index.RepoFilter{Owner: &owner}, false)
}

// searchSorts maps Gitea's sort names to the index's.
var searchSorts = map[string]string{"": "updated", "alpha": "name", "name": "name", "created": "created", "updated": "updated",
	"newest": "created", "stars": "stars", "forks": "forks", "moststars": "stars", "mostforks": "forks"}

// searchRepos is Gitea's search ({ok, data}). Each sort has one order, the
// useful one (names A to Z, the rest highest or newest first); order is
// checked, not applied.
func (a *API) searchRepos(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	sort, ok := searchSorts[q.Get("sort")]
	if !ok {
		return usererr.InvalidField("sort", "invalid_sort", "sort must be alpha, created, updated, stars or forks")
	}
	if o := q.Get("order"); o != "" && o != "asc" && o != "desc" {
		return usererr.InvalidField("order", "invalid_order", "order must be asc or desc")
	}
	f := index.RepoFilter{Query: strings.TrimSpace(q.Get("q")), Sort: sort}
	// topic=true: q is a topic the repositories carry, matched exactly.
	if topic, _ := strconv.ParseBool(q.Get("topic")); topic {
		f.Topic, f.Query = chainforge.NormalizeTopic(f.Query), ""
	}
	// mode=fork or mode=source (Gitea's): forks only, or no forks.
	switch mode := q.Get("mode"); mode {
	case "fork", "source":
		forks := mode == "fork"
		f.Forks = &forks
	}
	if uid := q.Get("owner"); uid != "" {
		owner, err := a.Hosting.Owner(r.Context(), uid)
		if err != nil {
			return a.RespondList(w, r, index.Page{Number: 1, Limit: DefaultLimit}, 0, map[string]any{"ok": true, "data": []RepoJSON{}}, nil)
		}
		f.Owner = &owner
	}
	return a.ListRepos(w, r, f, true)
}

// replication is how copying rec's git data to this node stands; false
// when the node does not replicate it.
func (a *API) replication(rec index.Repo) (replica.Status, bool) {
	if a.Replicas == nil || rec.Private {
		return replica.Status{}, false
	}
	return a.Replicas.Status(rec.ID)
}
