package user

import (
	"net/http"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/auth"
)

// The signed-in user's Actions secrets and variables, Gitea's routes:
// every repository of theirs gets them in its jobs, under the
// repository's own of the same name.

func (a *Handler) RegisterActionSecrets(mux *http.ServeMux) {
	if a.Actions == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/user/actions/secrets", user(auth.ScopeRead, a.listMySecrets))
	mux.HandleFunc("PUT /api/v1/user/actions/secrets/{secretname}", user(auth.ScopeWrite, a.putMySecret))
	mux.HandleFunc("DELETE /api/v1/user/actions/secrets/{secretname}", user(auth.ScopeWrite, a.deleteMySecret))
	mux.HandleFunc("GET /api/v1/user/actions/variables", user(auth.ScopeRead, a.listMyVariables))
	mux.HandleFunc("GET /api/v1/user/actions/variables/{variablename}", user(auth.ScopeRead, a.getMyVariable))
	mux.HandleFunc("POST /api/v1/user/actions/variables/{variablename}", user(auth.ScopeWrite, a.createMyVariable))
	mux.HandleFunc("PUT /api/v1/user/actions/variables/{variablename}", user(auth.ScopeWrite, a.updateMyVariable))
	mux.HandleFunc("DELETE /api/v1/user/actions/variables/{variablename}", user(auth.ScopeWrite, a.deleteMyVariable))
}

// actionsScope is the signed-in user's scope.
func (a *Handler) actionsScope(r *http.Request) (actions.Scope, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return actions.Scope{}, err
	}
	return actions.Scope{Owner: id.User.Address}, nil
}

// listMySecrets lists the signed-in user's Actions secrets (names, never values).
func (a *Handler) listMySecrets(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionSecrets(w, r, sc)
}

// putMySecret creates or replaces the signed-in user's Actions secret.
func (a *Handler) putMySecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.PutActionSecret(w, r, sc)
}

// deleteMySecret deletes the signed-in user's Actions secret.
func (a *Handler) deleteMySecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionSecret(w, r, sc)
}

// listMyVariables lists the signed-in user's Actions variables.
func (a *Handler) listMyVariables(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionVariables(w, r, sc)
}

// getMyVariable gets the signed-in user's Actions variable.
func (a *Handler) getMyVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.GetActionVariable(w, r, sc)
}

// createMyVariable creates the signed-in user's Actions variable.
func (a *Handler) createMyVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.CreateActionVariable(w, r, sc)
}

// updateMyVariable updates (and may rename) the signed-in user's Actions variable.
func (a *Handler) updateMyVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.UpdateActionVariable(w, r, sc)
}

// deleteMyVariable deletes the signed-in user's Actions variable.
func (a *Handler) deleteMyVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionVariable(w, r, sc)
}
