package org

import (
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
)

// RegisterActions serves an organization's runner registration token
// (Gitea's GET and POST /orgs/{org}/actions/runners/registration-token),
// to its owners.
func (a *Handler) RegisterActions(mux *http.ServeMux) {
	if a.Actions == nil || a.Forge == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/orgs/{org}/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.orgRunnerToken))
	mux.HandleFunc("POST /api/v1/orgs/{org}/actions/runners/registration-token", a.SignedIn(auth.ScopeWrite, a.orgRunnerToken))
}

func (a *Handler) orgRunnerToken(w http.ResponseWriter, r *http.Request) error {
	o, owner, err := a.orgOwnerOf(r)
	if err != nil {
		return err
	}
	if !owner {
		return usererr.Deniedf("only the organization's owners may register its runners")
	}
	tok, err := a.Actions.RegistrationToken(r.Context(), actions.Scope{Owner: common.HexToAddress(o.Address)})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, map[string]string{"token": tok})
	return nil
}
