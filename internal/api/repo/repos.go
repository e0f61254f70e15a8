package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Repositories, Gitea's API v1 shapes: create, read, edit, delete, fork,
// transfer, search and list; stars, watches and collaborators. Writes go
// through the forge (on chain, or the private store for a private
// repository) and, where git data changes too, through gitrepos. A
// repository the caller may not read is 404, like a missing one.

// RegisterRepos adds the repository and code routes when the node runs a
// forge.
func (a *Handler) RegisterRepos(mux *http.ServeMux) {
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

func (a *Handler) createRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
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
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Readme != "" && in.Readme != "Default" {
		return usererr.BadFieldf("readme", `readme names a README template; the only one is "Default"`)
	}
	opts := gitrepos.CreateOptions{Name: in.Name, Description: in.Description, DefaultBranch: in.DefaultBranch, Private: in.Private}
	if in.AutoInit {
		name := api.UsernameOf(id.User)
		opts.README = api.DefaultReadme(in.Name, in.Description)
		opts.Author = gitstore.Signature{Name: name, Email: api.NoreplyEmail(r, name), When: time.Now()}
	}
	rec, err := a.Hosting.Create(r.Context(), id.User.Address, opts)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	api.WriteJSON(w, http.StatusCreated, a.RepoJSON(r, rec, forge.PermOwner))
	return nil
}

func (a *Handler) getRepo(w http.ResponseWriter, r *http.Request) error {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.RepoWithParent(r, rec, perm))
	return nil
}

func (a *Handler) getRepoByID(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("repository %s does not exist", r.PathValue("id"))
	}
	rec, perm, err := a.Forge.RepoByID(r.Context(), api.ViewerOf(r), id)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.RepoWithParent(r, rec, perm))
	return nil
}

func (a *Handler) editRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
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
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
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
	return api.Reply(w, a.RepoWithParent(r, rec, perm))
}

func (a *Handler) deleteRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
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

func (a *Handler) forkRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
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
		if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
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
	api.WriteJSON(w, http.StatusAccepted, a.RepoWithParent(r, fork, perm))
	return nil
}

func (a *Handler) listMyRepos(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.ListRepos(w, r, index.RepoFilter{Owner: &id.User.Address}, false)
}

func (a *Handler) listUserRepos(w http.ResponseWriter, r *http.Request) error {
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
func (a *Handler) searchRepos(w http.ResponseWriter, r *http.Request) error {
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
			return a.RespondList(w, r, index.Page{Number: 1, Limit: api.DefaultLimit}, 0, map[string]any{"ok": true, "data": []api.RepoJSON{}}, nil)
		}
		f.Owner = &owner
	}
	return a.ListRepos(w, r, f, true)
}
