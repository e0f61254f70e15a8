package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/auth"
)

// maxSignInBody bounds a SIWE message and its signature.
const maxSignInBody = 16 << 10

// registerAuth adds the sign-in, session, user and settings routes.
func (a *API) registerAuth(mux *http.ServeMux) {
	if a.auth == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/auth/nonce", a.getNonce)
	mux.HandleFunc("POST /api/v1/auth/siwe", a.postSIWE)
	mux.HandleFunc("POST /api/v1/auth/2fa", a.postTwoFactor)
	mux.HandleFunc("GET /api/v1/auth/session", a.signedIn(auth.ScopeRead, a.getSession))
	mux.HandleFunc("POST /api/v1/auth/logout", a.postLogout)

	// user routes need a signed-in identity of at least the scope given;
	// owner routes, the very user the path names.
	user, owner := a.signedIn, a.tokenOwnerOnly
	mux.HandleFunc("GET /api/v1/user", user(auth.ScopeRead, a.getUser))
	mux.HandleFunc("PATCH /api/v1/user/settings", user(auth.ScopeWrite, a.patchUserSettings))
	mux.HandleFunc("GET /api/v1/users/{username}", a.getUserByName)
	mux.HandleFunc("GET /api/v1/users/{username}/tokens", owner(auth.ScopeRead, a.listTokens))
	mux.HandleFunc("POST /api/v1/users/{username}/tokens", owner(auth.ScopeAdmin, a.createToken))
	mux.HandleFunc("DELETE /api/v1/users/{username}/tokens/{id}", owner(auth.ScopeAdmin, a.deleteToken))
	mux.HandleFunc("GET /api/v1/user/2fa", user(auth.ScopeRead, a.getTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/setup", user(auth.ScopeAdmin, a.setupTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/enable", user(auth.ScopeAdmin, a.enableTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/disable", user(auth.ScopeAdmin, a.disableTwoFactor))
	mux.HandleFunc("GET /api/v1/user/sessions", user(auth.ScopeRead, a.listSessions))
	mux.HandleFunc("DELETE /api/v1/user/sessions/{id}", user(auth.ScopeAdmin, a.deleteSession))
	mux.HandleFunc("GET /api/v1/user/notifications/preferences", user(auth.ScopeRead, a.getNotificationPrefs))
	mux.HandleFunc("PUT /api/v1/user/notifications/preferences", user(auth.ScopeWrite, a.putNotificationPrefs))
}

// userHandler serves a route for a signed-in identity. An error it returns,
// before it writes anything, is the answer (see writeError).
type userHandler func(w http.ResponseWriter, r *http.Request, id *auth.Identity) error

// signedIn serves h to the request's identity when its scope is at least
// need; otherwise the answer is 401 or 403.
func (a *API) signedIn(need auth.Scope, h userHandler) http.HandlerFunc {
	return a.serveIdentity(func(r *http.Request) (*auth.Identity, error) { return auth.Require(r.Context(), need) }, h)
}

// tokenOwnerOnly serves h on /users/{username}/tokens to that user alone
// (see tokenOwner).
func (a *API) tokenOwnerOnly(need auth.Scope, h userHandler) http.HandlerFunc {
	return a.serveIdentity(func(r *http.Request) (*auth.Identity, error) { return a.tokenOwner(r, need) }, h)
}

func (a *API) serveIdentity(who func(*http.Request) (*auth.Identity, error), h userHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := who(r)
		if err == nil {
			err = h(w, r, id)
		}
		if err != nil {
			a.writeError(w, r, err)
		}
	}
}

func (a *API) getNonce(w http.ResponseWriter, r *http.Request) {
	n, err := a.auth.IssueNonce(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeNoStore(w, http.StatusOK, map[string]any{"nonce": n.Value, "expiresAt": n.ExpiresAt.UTC()})
}

// sessionBody is the answer to a finished sign-in and to GET /auth/session.
type sessionBody struct {
	User      userJSON `json:"user"`
	CSRFToken string   `json:"csrfToken"`
}

func (a *API) postSIWE(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Message   string `json:"message"`
		Signature string `json:"signature"`
	}
	if err := decode(w, r, maxSignInBody, &in); err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := a.auth.SignIn(r.Context(), auth.SignInRequest{
		Message: in.Message, Signature: in.Signature, Origins: auth.OriginsOf(r), UserAgent: r.UserAgent(), IP: auth.ClientIP(r),
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if res.Challenge != "" {
		writeJSON(w, http.StatusOK, map[string]any{"twoFactorRequired": true, "challenge": res.Challenge})
		return
	}
	a.startSession(w, r, res)
}

func (a *API) postTwoFactor(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Challenge string `json:"challenge"`
		Code      string `json:"code"`
	}
	if err := decode(w, r, maxSignInBody, &in); err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := a.auth.FinishTwoFactor(r.Context(), auth.TwoFactorRequest{
		Challenge: in.Challenge, Code: in.Code, UserAgent: r.UserAgent(), IP: auth.ClientIP(r),
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.startSession(w, r, res)
}

func (a *API) startSession(w http.ResponseWriter, r *http.Request, res auth.SignInResult) {
	auth.SetCookie(w, r, res.Session)
	writeNoStore(w, http.StatusOK, sessionBody{User: toUserJSON(res.User, true), CSRFToken: res.Session.CSRFToken})
}

func (a *API) getSession(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	writeNoStore(w, http.StatusOK, sessionBody{User: toUserJSON(id.User, true), CSRFToken: id.CSRFToken})
	return nil
}

func (a *API) postLogout(w http.ResponseWriter, r *http.Request) {
	if err := a.auth.Logout(r.Context(), auth.IdentityFrom(r.Context())); err != nil {
		a.writeError(w, r, err)
		return
	}
	auth.ClearCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}
