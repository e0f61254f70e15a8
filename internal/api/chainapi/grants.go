package chainapi

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"
	"strings"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Treasury grants (a dForge extension): grant proposals and the grants
// they made, from the SQL projection. A grant is applied for with a
// Propose of type grant and its milestones are approved with
// wallet-signed GrantApprove transactions, both through POST
// /api/v1/chain/txs.

// RegisterGrants adds the grant routes (the chain and its index are present).
func (a *Handler) RegisterGrants(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/grants", a.Serve(a.listGrants))
	mux.HandleFunc("GET /api/v1/grants/{id}", a.Serve(a.getGrant))
}

// listGrants lists grants, newest first, with their milestones and
// approvals; status narrows the list (proposed, active, completed,
// expired, rejected).
func (a *Handler) listGrants(w http.ResponseWriter, r *http.Request) error {
	status := r.URL.Query().Get("status")
	if status != "" && !slices.Contains(index.GrantStatuses, status) {
		return usererr.InvalidField("status", "invalid_status", "status must be one of "+strings.Join(index.GrantStatuses, ", "))
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Grants(r.Context(), status, p)
	return a.RespondList(w, r, p, total, list, err)
}

// getGrant reads one grant (its id is its proposal's) with each
// milestone's approvals by reviewer.
func (a *Handler) getGrant(w http.ResponseWriter, r *http.Request) error {
	id, err := proposalID(r.PathValue("id"))
	if err != nil {
		return err
	}
	g, err := a.Index.Grant(r.Context(), id)
	return a.Respond(w, r, g, err)
}
