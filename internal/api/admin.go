package api

import (
	"context"
	"net/http"
	"slices"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/ethereum/go-ethereum/common"
)

// isAdmin tells whether addr is one of the node's admins (serve --admin).
func (a *API) isAdmin(addr common.Address) bool {
	return slices.Contains(a.admins, addr)
}

// RequireAdmin lets only the node's admins through. Everyone else, signed
// in or not, gets 404: the admin and moderation routes do not confirm
// they exist.
func (a *API) RequireAdmin(r *http.Request) (*auth.Identity, error) {
	id, err := RequireUser(r)
	if err != nil || !a.isAdmin(id.User.Address) {
		return nil, usererr.Missingf("not found")
	}
	return id, nil
}

// AdminOnly serves h to the node's admins whose credential allows at
// least need (revoking credentials takes the admin level, as the user's
// own /user/sessions does). Everyone else gets requireAdmin's 404 first,
// so a scope error never confirms that the route exists.
func (a *API) AdminOnly(need auth.Scope, h Endpoint) http.HandlerFunc {
	return a.Serve(func(w http.ResponseWriter, r *http.Request) error {
		if _, err := a.RequireAdmin(r); err != nil {
			return err
		}
		if _, err := auth.Require(r.Context(), need); err != nil {
			return err
		}
		return h(w, r)
	})
}

// SelfJSON is the signed-in user as they see themself, with is_admin.
func (a *API) SelfJSON(ctx context.Context, u auth.User) UserJSON {
	j := ToUserJSON(u, true)
	j.ID = a.AccountID(ctx, u)
	j.IsAdmin = a.isAdmin(u.Address)
	return j
}
