package org

import (
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
)

// An organization's Actions secrets and variables, Gitea's routes: its
// owners' alone. Every repository of the organization's jobs get them,
// under the repository's own of the same name.

func (a *Handler) RegisterActionSecrets(mux *http.ServeMux) {
	if a.Actions == nil || a.Forge == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/orgs/{org}/actions/secrets", user(auth.ScopeRead, a.listOrgSecrets))
	mux.HandleFunc("PUT /api/v1/orgs/{org}/actions/secrets/{secretname}", user(auth.ScopeWrite, a.putOrgSecret))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}/actions/secrets/{secretname}", user(auth.ScopeWrite, a.deleteOrgSecret))
	mux.HandleFunc("GET /api/v1/orgs/{org}/actions/variables", user(auth.ScopeRead, a.listOrgVariables))
	mux.HandleFunc("GET /api/v1/orgs/{org}/actions/variables/{variablename}", user(auth.ScopeRead, a.getOrgVariable))
	mux.HandleFunc("POST /api/v1/orgs/{org}/actions/variables/{variablename}", user(auth.ScopeWrite, a.createOrgVariable))
	mux.HandleFunc("PUT /api/v1/orgs/{org}/actions/variables/{variablename}", user(auth.ScopeWrite, a.updateOrgVariable))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}/actions/variables/{variablename}", user(auth.ScopeWrite, a.deleteOrgVariable))
}

// actionsScope is the organization's scope, for its owners.
func (a *Handler) actionsScope(r *http.Request) (actions.Scope, error) {
	o, owner, err := a.orgOwnerOf(r)
	if err != nil {
		return actions.Scope{}, err
	}
	if !owner {
		return actions.Scope{}, usererr.Deniedf("only the organization's owners may see and change its secrets and variables")
	}
	return actions.Scope{Owner: common.HexToAddress(o.Address)}, nil
}

// listOrgSecrets lists an organization's Actions secrets (names, never values).
func (a *Handler) listOrgSecrets(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionSecrets(w, r, sc)
}

// putOrgSecret creates or replaces an organization's Actions secret.
func (a *Handler) putOrgSecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.PutActionSecret(w, r, sc)
}

// deleteOrgSecret deletes an organization's Actions secret.
func (a *Handler) deleteOrgSecret(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionSecret(w, r, sc)
}

// listOrgVariables lists an organization's Actions variables.
func (a *Handler) listOrgVariables(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.ListActionVariables(w, r, sc)
}

// getOrgVariable gets an organization's Actions variable.
func (a *Handler) getOrgVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.GetActionVariable(w, r, sc)
}

// createOrgVariable creates an organization's Actions variable.
func (a *Handler) createOrgVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.CreateActionVariable(w, r, sc)
}

// updateOrgVariable updates (and may rename) an organization's Actions variable.
func (a *Handler) updateOrgVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.UpdateActionVariable(w, r, sc)
}

// deleteOrgVariable deletes an organization's Actions variable.
func (a *Handler) deleteOrgVariable(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.actionsScope(r)
	if err != nil {
		return err
	}
	return a.DeleteActionVariable(w, r, sc)
}
