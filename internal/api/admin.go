package api

import (
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

// requireAdmin lets only the node's admins through. Everyone else, signed
// in or not, gets 404: the admin and moderation routes do not confirm
// they exist.
func (a *API) requireAdmin(r *http.Request) (*auth.Identity, error) {
	id, err := requireUser(r)
	if err != nil || !a.isAdmin(id.User.Address) {
		return nil, usererr.Missingf("not found")
	}
	return id, nil
}

// selfJSON is the signed-in user as they see themself, with is_admin.
func (a *API) selfJSON(u auth.User) userJSON {
	j := toUserJSON(u, true)
	j.IsAdmin = a.isAdmin(u.Address)
	return j
}
