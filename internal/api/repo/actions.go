package repo

import (
	"net/http"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// Runners' registration tokens, Gitea's routes: a repository's (its
// admins), the signed-in user's own, and the node's (its admins). The
// organization's are in internal/api/org. Gitea answers GET (1.22) and
// POST (1.23); both are served.

func (a *Handler) RegisterActions(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.repoRunnerToken))
	mux.HandleFunc("GET /api/v1/user/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.userRunnerToken))
	mux.HandleFunc("GET /api/v1/admin/runners/registration-token", a.AdminOnly(auth.ScopeWrite, a.nodeRunnerToken))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.repoRunnerToken))
	mux.HandleFunc("POST /api/v1/user/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.userRunnerToken))
	mux.HandleFunc("POST /api/v1/admin/runners/registration-token", a.AdminOnly(auth.ScopeWrite, a.nodeRunnerToken))
}

// registrationTokenJSON is Gitea's RegistrationToken.
type registrationTokenJSON struct {
	Token string `json:"token"`
}

func (a *Handler) repoRunnerToken(w http.ResponseWriter, r *http.Request) error {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if perm < chainforge.PermOwner {
		return usererr.Deniedf("only the repository's admins may register its runners")
	}
	return a.writeRunnerToken(w, r, actions.Scope{Repo: rec.ID})
}

func (a *Handler) userRunnerToken(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.writeRunnerToken(w, r, actions.Scope{Owner: id.User.Address})
}

func (a *Handler) nodeRunnerToken(w http.ResponseWriter, r *http.Request) error {
	return a.writeRunnerToken(w, r, actions.Scope{})
}

func (a *Handler) writeRunnerToken(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	tok, err := a.Actions.RegistrationToken(r.Context(), sc)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, registrationTokenJSON{Token: tok})
	return nil
}
