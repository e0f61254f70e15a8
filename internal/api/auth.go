package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/auth"
)

// maxSignInBody bounds a SIWE message and its signature.
const maxSignInBody = 16 << 10

// RegisterAuth adds the sign-in, session, user and settings routes.
func (a *API) RegisterAuth(mux *http.ServeMux) {
	if a.Auth == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/auth/nonce", a.Serve(a.getNonce))
	mux.HandleFunc("POST /api/v1/auth/siwe", a.Serve(a.postSIWE))
	mux.HandleFunc("POST /api/v1/auth/2fa", a.Serve(a.postTwoFactor))
	mux.HandleFunc("GET /api/v1/auth/session", a.SignedIn(auth.ScopeRead, a.getSession))
	mux.HandleFunc("POST /api/v1/auth/logout", a.Serve(a.postLogout))

	// user routes need a signed-in identity of at least the scope given;
	// owner routes, the very user the path names.
	user, owner := a.SignedIn, a.tokenOwnerOnly
	mux.HandleFunc("GET /api/v1/user", user(auth.ScopeRead, a.getUser))
	mux.HandleFunc("GET /api/v1/user/settings", user(auth.ScopeRead, a.getUserSettings))
	mux.HandleFunc("PATCH /api/v1/user/settings", user(auth.ScopeWrite, a.patchUserSettings))
	mux.HandleFunc("GET /api/v1/users/{username}", a.Serve(a.getUserByName))
	mux.HandleFunc("GET /api/v1/users/{username}/tokens", owner(auth.ScopeRead, a.listTokens))
	mux.HandleFunc("POST /api/v1/users/{username}/tokens", owner(auth.ScopeAdmin, a.createToken))
	mux.HandleFunc("DELETE /api/v1/users/{username}/tokens/{token}", owner(auth.ScopeAdmin, a.deleteToken))
	mux.HandleFunc("GET /api/v1/user/2fa", user(auth.ScopeRead, a.getTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/setup", user(auth.ScopeAdmin, a.setupTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/enable", user(auth.ScopeAdmin, a.enableTwoFactor))
	mux.HandleFunc("POST /api/v1/user/2fa/disable", user(auth.ScopeAdmin, a.disableTwoFactor))
	mux.HandleFunc("GET /api/v1/user/sessions", user(auth.ScopeRead, a.listSessions))
	mux.HandleFunc("DELETE /api/v1/user/sessions/{id}", user(auth.ScopeAdmin, a.deleteSession))
	mux.HandleFunc("GET /api/v1/user/notifications/preferences", user(auth.ScopeRead, a.getNotificationPrefs))
	mux.HandleFunc("PUT /api/v1/user/notifications/preferences", user(auth.ScopeWrite, a.putNotificationPrefs))
}

// SignedIn serves h when the request's identity has at least the scope
// need; otherwise the answer is 401 or 403. h reads the identity with
// RequireUser.
func (a *API) SignedIn(need auth.Scope, h Endpoint) http.HandlerFunc {
	return a.Serve(func(w http.ResponseWriter, r *http.Request) error {
		if _, err := auth.Require(r.Context(), need); err != nil {
			return err
		}
		return h(w, r)
	})
}

// tokenOwnerOnly serves h on /users/{username}/tokens to that user alone
// (see tokenOwner).
func (a *API) tokenOwnerOnly(need auth.Scope, h Endpoint) http.HandlerFunc {
	return a.Serve(func(w http.ResponseWriter, r *http.Request) error {
		if _, err := a.tokenOwner(r, need); err != nil {
			return err
		}
		return h(w, r)
	})
}

// RequireUser is the request's signed-in identity, or the 401 user error
// when there is none.
func RequireUser(r *http.Request) (*auth.Identity, error) {
	return auth.Require(r.Context(), auth.ScopeRead)
}

func (a *API) getNonce(w http.ResponseWriter, r *http.Request) error {
	n, err := a.Auth.IssueNonce(r.Context())
	if err != nil {
		return err
	}
	WriteNoStore(w, http.StatusOK, map[string]any{"nonce": n.Value, "expiresAt": n.ExpiresAt.UTC()})
	return nil
}

// sessionBody is the answer to a finished sign-in and to GET /auth/session.
type sessionBody struct {
	User      UserJSON `json:"user"`
	CSRFToken string   `json:"csrfToken"`
}

func (a *API) postSIWE(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Message   string `json:"message"`
		Signature string `json:"signature"`
	}
	if err := Decode(w, r, maxSignInBody, &in); err != nil {
		return err
	}
	res, err := a.Auth.SignIn(r.Context(), auth.SignInRequest{
		Message: in.Message, Signature: in.Signature, Origins: auth.OriginsOf(r), UserAgent: r.UserAgent(), IP: auth.ClientIP(r),
	})
	if err != nil {
		return err
	}
	if res.Challenge != "" {
		WriteJSON(w, http.StatusOK, map[string]any{"twoFactorRequired": true, "challenge": res.Challenge})
		return nil
	}
	a.startSession(w, r, res)
	return nil
}

func (a *API) postTwoFactor(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Challenge string `json:"challenge"`
		Code      string `json:"code"`
	}
	if err := Decode(w, r, maxSignInBody, &in); err != nil {
		return err
	}
	res, err := a.Auth.FinishTwoFactor(r.Context(), auth.TwoFactorRequest{
		Challenge: in.Challenge, Code: in.Code, UserAgent: r.UserAgent(), IP: auth.ClientIP(r),
	})
	if err != nil {
		return err
	}
	a.startSession(w, r, res)
	return nil
}

func (a *API) startSession(w http.ResponseWriter, r *http.Request, res auth.SignInResult) {
	auth.SetCookie(w, r, res.Session)
	WriteNoStore(w, http.StatusOK, sessionBody{User: a.SelfJSON(r.Context(), res.User), CSRFToken: res.Session.CSRFToken})
}

func (a *API) getSession(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	WriteNoStore(w, http.StatusOK, sessionBody{User: a.SelfJSON(r.Context(), id.User), CSRFToken: id.CSRFToken})
	return nil
}

func (a *API) postLogout(w http.ResponseWriter, r *http.Request) error {
	if err := a.Auth.Logout(r.Context(), auth.IdentityFrom(r.Context())); err != nil {
		return err
	}
	auth.ClearCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
