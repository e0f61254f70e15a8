package org

import (
	"net/http"

	"github.com/dforge/dforge/internal/api"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/webhook"
)

// Owner-wide webhooks, in Gitea's shapes (routers/api/v1/org/hook.go and
// user/hook.go): an organization's, which its owners manage, and the
// signed-in user's own. Each is webhook.Scope{Owner}: it fires for every
// repository that owner owns, an organization's through its derived
// address. The delivery log routes are dForge's own, as for a repository.
func (a *Handler) RegisterOwnerHooks(mux *http.ServeMux) {
	if a.Hooks == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/orgs/{org}/hooks", user(auth.ScopeRead, a.listOrgHooks))
	mux.HandleFunc("POST /api/v1/orgs/{org}/hooks", user(auth.ScopeWrite, a.createOrgHook))
	mux.HandleFunc("GET /api/v1/orgs/{org}/hooks/{id}", user(auth.ScopeRead, a.getOrgHook))
	mux.HandleFunc("PATCH /api/v1/orgs/{org}/hooks/{id}", user(auth.ScopeWrite, a.editOrgHook))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}/hooks/{id}", user(auth.ScopeWrite, a.deleteOrgHook))
	mux.HandleFunc("GET /api/v1/orgs/{org}/hooks/{id}/deliveries", user(auth.ScopeRead, a.listOrgHookDeliveries))
	mux.HandleFunc("GET /api/v1/orgs/{org}/hooks/{id}/deliveries/{delivery}", user(auth.ScopeRead, a.getOrgHookDelivery))
	mux.HandleFunc("POST /api/v1/orgs/{org}/hooks/{id}/deliveries/{delivery}/redeliver", user(auth.ScopeWrite, a.redeliverOrgHook))
	mux.HandleFunc("GET /api/v1/user/hooks", user(auth.ScopeRead, a.listMyHooks))
	mux.HandleFunc("POST /api/v1/user/hooks", user(auth.ScopeWrite, a.createMyHook))
	mux.HandleFunc("GET /api/v1/user/hooks/{id}", user(auth.ScopeRead, a.getMyHook))
	mux.HandleFunc("PATCH /api/v1/user/hooks/{id}", user(auth.ScopeWrite, a.editMyHook))
	mux.HandleFunc("DELETE /api/v1/user/hooks/{id}", user(auth.ScopeWrite, a.deleteMyHook))
	mux.HandleFunc("GET /api/v1/user/hooks/{id}/deliveries", user(auth.ScopeRead, a.listMyHookDeliveries))
	mux.HandleFunc("GET /api/v1/user/hooks/{id}/deliveries/{delivery}", user(auth.ScopeRead, a.getMyHookDelivery))
	mux.HandleFunc("POST /api/v1/user/hooks/{id}/deliveries/{delivery}/redeliver", user(auth.ScopeWrite, a.redeliverMyHook))
}

// orgHookScope is the path's organization as one of its owners sees it:
// 404 for a missing organization, 403 for whoever is not in its owners
// team (organizations are public on chain, so naming one leaks nothing).
func (a *Handler) orgHookScope(r *http.Request) (webhook.Scope, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return webhook.Scope{}, err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return webhook.Scope{}, err
	}
	owner, err := a.Forge.Index().IsTeamMember(r.Context(), o.OwnersTeam, id.User.Address)
	if err != nil {
		return webhook.Scope{}, err
	}
	if !owner {
		return webhook.Scope{}, usererr.Deniedf("only the organization's owners manage its webhooks")
	}
	return webhook.Scope{Owner: common.HexToAddress(o.Address)}, nil
}

// myHookScope is the signed-in user's own hooks.
func myHookScope(r *http.Request) (webhook.Scope, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return webhook.Scope{}, err
	}
	return webhook.Scope{Owner: id.User.Address}, nil
}

// listOrgHooks lists an organization's webhooks.
func (a *Handler) listOrgHooks(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.ListHooksIn(w, r, sc)
}

// createOrgHook adds a webhook for every repository of an organization.
func (a *Handler) createOrgHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.CreateHookIn(w, r, sc)
}

// getOrgHook reads one of an organization's webhooks.
func (a *Handler) getOrgHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookIn(w, r, sc)
}

// editOrgHook changes the settings sent of an organization's webhook.
func (a *Handler) editOrgHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.EditHookIn(w, r, sc)
}

// deleteOrgHook removes an organization's webhook and its delivery log.
func (a *Handler) deleteOrgHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.DeleteHookIn(w, r, sc)
}

// listOrgHookDeliveries is an organization webhook's delivery log.
func (a *Handler) listOrgHookDeliveries(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.ListHookDeliveriesIn(w, r, sc)
}

// getOrgHookDelivery is one delivery of an organization's webhook.
func (a *Handler) getOrgHookDelivery(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookDeliveryIn(w, r, sc)
}

// redeliverOrgHook sends a delivery of an organization's webhook again.
func (a *Handler) redeliverOrgHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.orgHookScope(r)
	if err != nil {
		return err
	}
	return a.RedeliverHookIn(w, r, sc)
}

// listMyHooks lists the signed-in user's webhooks.
func (a *Handler) listMyHooks(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.ListHooksIn(w, r, sc)
}

// createMyHook adds a webhook for every repository the signed-in user owns.
func (a *Handler) createMyHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.CreateHookIn(w, r, sc)
}

// getMyHook reads one of the signed-in user's webhooks.
func (a *Handler) getMyHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookIn(w, r, sc)
}

// editMyHook changes the settings sent of one of the user's webhooks.
func (a *Handler) editMyHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.EditHookIn(w, r, sc)
}

// deleteMyHook removes one of the user's webhooks and its delivery log.
func (a *Handler) deleteMyHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.DeleteHookIn(w, r, sc)
}

// listMyHookDeliveries is the delivery log of one of the user's webhooks.
func (a *Handler) listMyHookDeliveries(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.ListHookDeliveriesIn(w, r, sc)
}

// getMyHookDelivery is one delivery of one of the user's webhooks.
func (a *Handler) getMyHookDelivery(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookDeliveryIn(w, r, sc)
}

// redeliverMyHook sends a delivery of one of the user's webhooks again.
func (a *Handler) redeliverMyHook(w http.ResponseWriter, r *http.Request) error {
	sc, err := myHookScope(r)
	if err != nil {
		return err
	}
	return a.RedeliverHookIn(w, r, sc)
}
