package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
)

// Lists of repositories by how people relate to them, Gitea's paths: a
// repository's forks, and what a user stars or watches. Each shows only
// what the viewer may see, as every repository list does.

func (a *Handler) RegisterRepoLists(mux *http.ServeMux) {
	if a.Forge == nil || a.Hosting == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/forks", a.Serve(a.listForks))
	mux.HandleFunc("GET /api/v1/user/starred", a.SignedIn(auth.ScopeRead, a.listMyStarred))
	mux.HandleFunc("GET /api/v1/users/{username}/starred", a.Serve(a.listUserStarred))
	mux.HandleFunc("GET /api/v1/user/subscriptions", a.SignedIn(auth.ScopeRead, a.listMyWatched))
	mux.HandleFunc("GET /api/v1/users/{username}/subscriptions", a.Serve(a.listUserWatched))
}

// listForks is Gitea's GET /repos/{owner}/{repo}/forks: newest first.
func (a *Handler) listForks(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	return a.ListRepos(w, r, index.RepoFilter{ForkOf: rec.ID, Sort: "created"}, false)
}

func (a *Handler) listMyStarred(w http.ResponseWriter, r *http.Request) error {
	return a.listFlagged(w, r, "", true)
}

func (a *Handler) listUserStarred(w http.ResponseWriter, r *http.Request) error {
	return a.listFlagged(w, r, r.PathValue("username"), true)
}

func (a *Handler) listMyWatched(w http.ResponseWriter, r *http.Request) error {
	return a.listFlagged(w, r, "", false)
}

func (a *Handler) listUserWatched(w http.ResponseWriter, r *http.Request) error {
	return a.listFlagged(w, r, r.PathValue("username"), false)
}

// listFlagged lists what username (the signed-in user for "") stars, or
// watches.
func (a *Handler) listFlagged(w http.ResponseWriter, r *http.Request, username string, stars bool) error {
	var who common.Address
	if username == "" {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		who = id.User.Address
	} else {
		addr, err := a.Hosting.Owner(r.Context(), username)
		if err != nil {
			return err
		}
		who = addr
	}
	f := index.RepoFilter{WatchedBy: &who}
	if stars {
		f = index.RepoFilter{StarredBy: &who}
	}
	return a.ListRepos(w, r, f, false)
}
