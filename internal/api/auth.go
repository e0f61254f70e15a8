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
	mux.HandleFunc("GET /api/v1/auth/session", a.getSession)
	mux.HandleFunc("POST /api/v1/auth/logout", a.postLogout)

	mux.HandleFunc("GET /api/v1/user", a.getUser)
	mux.HandleFunc("PATCH /api/v1/user/settings", a.patchUserSettings)
	mux.HandleFunc("GET /api/v1/users/{username}", a.getUserByName)
	mux.HandleFunc("GET /api/v1/users/{username}/tokens", a.listTokens)
	mux.HandleFunc("POST /api/v1/users/{username}/tokens", a.createToken)
	mux.HandleFunc("DELETE /api/v1/users/{username}/tokens/{id}", a.deleteToken)
	mux.HandleFunc("GET /api/v1/user/2fa", a.getTwoFactor)
	mux.HandleFunc("POST /api/v1/user/2fa/setup", a.setupTwoFactor)
	mux.HandleFunc("POST /api/v1/user/2fa/enable", a.enableTwoFactor)
	mux.HandleFunc("POST /api/v1/user/2fa/disable", a.disableTwoFactor)
	mux.HandleFunc("GET /api/v1/user/sessions", a.listSessions)
	mux.HandleFunc("DELETE /api/v1/user/sessions/{id}", a.deleteSession)
	mux.HandleFunc("GET /api/v1/user/notifications/preferences", a.getNotificationPrefs)
	mux.HandleFunc("PUT /api/v1/user/notifications/preferences", a.putNotificationPrefs)
}

func (a *API) getNonce(w http.ResponseWriter, r *http.Request) {
	n, err := a.auth.IssueNonce(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"nonce": n.Value, "expiresAt": n.ExpiresAt.UTC()})
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
		Message: in.Message, Signature: in.Signature, Origin: auth.OriginOf(r), UserAgent: r.UserAgent(), IP: auth.ClientIP(r),
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
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, sessionBody{User: toUserJSON(res.User, true), CSRFToken: res.Session.CSRFToken})
}

func (a *API) getSession(w http.ResponseWriter, r *http.Request) {
	id, err := auth.Require(r.Context(), auth.ScopeRead)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, sessionBody{User: toUserJSON(id.User, true), CSRFToken: id.CSRFToken})
}

func (a *API) postLogout(w http.ResponseWriter, r *http.Request) {
	if err := a.auth.Logout(r.Context(), auth.IdentityFrom(r.Context())); err != nil {
		a.writeError(w, r, err)
		return
	}
	auth.ClearCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}
