package repo

import (
	"net/http"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// A repository's Actions secrets and variables, Gitea's routes: its
// owners' alone (others get 404 for a private repository, 403 otherwise).

func (a *Handler) RegisterActionSecrets(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/actions/secrets", user(auth.ScopeRead, a.listRepoSecrets))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/actions/secrets/{secretname}", user(auth.ScopeWrite, a.putRepoSecret))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/actions/secrets/{secretname}", user(auth.ScopeWrite, a.deleteRepoSecret))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/actions/variables", user(auth.ScopeRead, a.listRepoVariables))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/actions/variables/{variablename}", user(auth.ScopeRead, a.getRepoVariable))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/actions/variables/{variablename}", user(auth.ScopeWrite, a.createRepoVariable))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/actions/variables/{variablename}", user(auth.ScopeWrite, a.updateRepoVariable))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/actions/variables/{variablename}", user(auth.ScopeWrite, a.deleteRepoVariable))
}

// actionsScope is the repository's scope, for its owners.
func (a *Handler) actionsScope(r *http.Request) (actions.Scope, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return actions.Scope{}, err
	}
	if perm < chainforge.PermOwner {
		return actions.Scope{}, usererr.Deniedf("only the repository's admins may see and change its secrets and variables")
	}
	return actions.Scope{Repo: rec.ID}, nil
}

// listRepoSecrets lists a repository's Actions secrets (names, never values).
func (a *Handler) listRepoSecrets(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionSecrets(w, r, sc)
}

// putRepoSecret creates or replaces a repository's Actions secret.
func (a *Handler) putRepoSecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.PutActionSecret(w, r, sc)
}

// deleteRepoSecret deletes a repository's Actions secret.
func (a *Handler) deleteRepoSecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionSecret(w, r, sc)
}

// listRepoVariables lists a repository's Actions variables.
func (a *Handler) listRepoVariables(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionVariables(w, r, sc)
}

// getRepoVariable gets a repository's Actions variable.
func (a *Handler) getRepoVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.GetActionVariable(w, r, sc)
}

// createRepoVariable creates a repository's Actions variable.
func (a *Handler) createRepoVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.CreateActionVariable(w, r, sc)
}

// updateRepoVariable updates (and may rename) a repository's Actions variable.
func (a *Handler) updateRepoVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.UpdateActionVariable(w, r, sc)
}

// deleteRepoVariable deletes a repository's Actions variable.
func (a *Handler) deleteRepoVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionVariable(w, r, sc)
}
