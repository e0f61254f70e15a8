package admin

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/auth"
)

// RegisterAdmin adds the admin console's routes. Each answers 404 to
// everyone but the node's admins (requireAdmin). The support tickets'
// Admin routes are in RegisterTickets.
func (a *Handler) RegisterAdmin(mux *http.ServeMux) {
	if a.Auth == nil { // no one signs in, so there is no admin
		return
	}
	admin := a.AdminOnly
	mux.HandleFunc("GET /api/v1/admin/node", admin(auth.ScopeRead, a.getAdminNode))
	mux.HandleFunc("GET /api/v1/admin/settings", admin(auth.ScopeRead, a.getAdminSettings))
	mux.HandleFunc("GET /api/v1/admin/users", admin(auth.ScopeRead, a.listAdminUsers))
	mux.HandleFunc("GET /api/v1/admin/users/{username}/sessions", admin(auth.ScopeRead, a.listAdminSessions))
	mux.HandleFunc("DELETE /api/v1/admin/sessions/{id}", admin(auth.ScopeAdmin, a.deleteAdminSession))
	mux.HandleFunc("GET /api/v1/admin/users/{username}/tokens", admin(auth.ScopeRead, a.listAdminTokens))
	mux.HandleFunc("DELETE /api/v1/admin/tokens/{id}", admin(auth.ScopeAdmin, a.deleteAdminToken))
}

// listAdminUsers is Gitea's admin user list: the accounts that signed in
// on this node, oldest first, with their e-mail and is_admin.
func (a *Handler) listAdminUsers(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Auth.Users(r.Context(), p.Limit, (p.Number-1)*p.Limit)
	if err != nil {
		return err
	}
	out := make([]api.UserJSON, len(list))
	for i, u := range list {
		out[i] = a.SelfJSON(r.Context(), u) // the admin sees what the user sees of themself
		out[i].HTMLURL = api.SiteURL(r) + "/" + u.Username
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// listAdminSessions lists a user's signed-in browsers.
func (a *Handler) listAdminSessions(w http.ResponseWriter, r *http.Request) error {
	me, err := a.RequireAdmin(r)
	if err != nil {
		return err
	}
	u, err := a.Auth.UserByName(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	list, err := a.Auth.SessionsOf(r.Context(), u)
	if err != nil {
		return err
	}
	out := make([]api.SessionJSON, len(list))
	for i, s := range list {
		out[i] = api.SessionJSON{ID: s.ID, Current: s.ID == me.SessionID, CreatedAt: s.CreatedAt.UTC(), LastSeenAt: s.LastSeenAt.UTC(), UserAgent: s.UserAgent, IP: s.IP}
	}
	api.WriteNoStore(w, http.StatusOK, out)
	return nil
}

// deleteAdminSession signs a session out: its next request is 401.
func (a *Handler) deleteAdminSession(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	id, err := api.PathID(r, "There is no session with that id.")
	if err != nil {
		return err
	}
	if err := a.Auth.RevokeAnySession(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listAdminTokens lists a user's access tokens (never their secrets).
func (a *Handler) listAdminTokens(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	u, err := a.Auth.UserByName(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	list, err := a.Auth.Tokens(r.Context(), u)
	if err != nil {
		return err
	}
	out := make([]api.TokenJSON, len(list))
	for i, t := range list {
		out[i] = api.ToTokenJSON(t)
	}
	api.WriteNoStore(w, http.StatusOK, out)
	return nil
}

// deleteAdminToken revokes an access token: it is refused from then on.
func (a *Handler) deleteAdminToken(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	id, err := api.PathID(r, "There is no access token with that id.")
	if err != nil {
		return err
	}
	if err := a.Auth.RevokeAnyToken(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
