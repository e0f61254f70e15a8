package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/usererr"
)

// Identity is who a request acts for and with what credential.
type Identity struct {
	User      User
	SessionID int64    // set when signed in with the session cookie
	CSRFToken string   // the session's CSRF token
	TokenID   int64    // set when signed in with an access token
	Scope     Scope    // what the credential allows; sessions have ScopeAdmin
	Scopes    []string // a token's scope names, for Grants

	secret string // the session cookie's value, to check the CSRF token
}

type ctxKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// IdentityFrom returns the request's identity; nil when it is anonymous.
func IdentityFrom(ctx context.Context) *Identity {
	id, _ := ctx.Value(ctxKey{}).(*Identity)
	return id
}

// UserFrom returns the signed-in user, if any.
func UserFrom(ctx context.Context) (User, bool) {
	if id := IdentityFrom(ctx); id != nil {
		return id.User, true
	}
	return User{}, false
}

var errSignedOut = unauthenticated("unauthenticated", "You need to sign in first.")

// Require returns the request's identity, or an error when there is none
// or its credential's scope is below need.
func Require(ctx context.Context, need Scope) (*Identity, error) {
	id := IdentityFrom(ctx)
	if id == nil {
		return nil, errSignedOut
	}
	if id.Scope < need {
		return nil, forbidden("insufficient_scope", "This access token's scopes are not enough; this needs a token with "+need.hint()+".")
	}
	return id, nil
}

// signInPaths never act as the session's user, so they neither need its
// CSRF token nor see it: signing in again with a stale token must work.
var signInPaths = map[string]bool{"/api/v1/auth/siwe": true, "/api/v1/auth/2fa": true}

// Middleware resolves the request's user from an access token in the
// Authorization header (`token <t>`, `Bearer <t>`, or HTTP Basic with the
// token as the password, as git sends it) or from the session cookie, and
// puts the identity in the request's context. It refuses a bad token (401),
// a token's write beyond its scope (403), a cookie-authenticated write
// without the session's X-CSRF-Token (403) and any write of a suspended
// account but signing out (403 suspended).
func (s *Service) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if signInPaths[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		id, err := s.identify(r)
		if err == nil && id != nil {
			err = allow(r, id)
		}
		if err == nil && id != nil {
			err = s.allowWriter(r, id)
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if id == nil {
			next.ServeHTTP(w, r)
			return
		}
		withID := r.WithContext(WithIdentity(r.Context(), id))
		next.ServeHTTP(w, withID)
		// The mux records the matched route on the request it was given;
		// outer middleware (metrics, logs) reads it from the original.
		r.Pattern = withID.Pattern
	})
}

var errAuthorization = unauthenticated("invalid_authorization", "The Authorization header must be `token <access token>`, `Bearer <access token>`, or HTTP Basic with the access token as the password.")

// identify returns the request's identity, nil for an anonymous request.
func (s *Service) identify(r *http.Request) (*Identity, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		secret := tokenFromHeader(h)
		if secret == "" {
			return nil, errAuthorization
		}
		return s.identifyToken(r.Context(), secret)
	}
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	return s.identifySession(r.Context(), c.Value)
}

func tokenFromHeader(h string) string {
	kind, value, _ := strings.Cut(strings.TrimSpace(h), " ")
	value = strings.TrimSpace(value)
	switch strings.ToLower(kind) {
	case "token", "bearer":
		return value
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			return ""
		}
		user, password, _ := strings.Cut(string(raw), ":")
		// Git sends the token as the password; some clients send it as the user.
		if password != "" && password != "x-oauth-basic" {
			return password
		}
		return user
	}
	return ""
}

func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

func allow(r *http.Request, id *Identity) error {
	if safeMethod(r.Method) {
		return nil
	}
	if id.SessionID != 0 && !validCSRF(id.secret, r.Header.Get(CSRFHeader)) {
		return forbidden("csrf_invalid", "This request is missing its security token (X-CSRF-Token). Reload the page and try again.")
	}
	if id.TokenID != 0 && id.Scope < ScopeWrite {
		return forbidden("insufficient_scope", "This access token may only read. Create a token with "+ScopeWrite.hint()+" to make changes.")
	}
	return nil
}

// signingOut tells whether r stays open to a suspended account: signing
// out, and revoking its own sessions and tokens (it may still need to cut
// off a stolen credential), which write nothing anyone else sees.
func signingOut(r *http.Request) bool {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/api/v1/auth/logout":
		return true
	case r.Method != http.MethodDelete:
		return false
	case strings.HasPrefix(p, "/api/v1/user/sessions/"):
		return true
	}
	parts := strings.Split(strings.TrimPrefix(p, "/api/v1/users/"), "/")
	return len(parts) == 3 && parts[1] == "tokens" && strings.HasPrefix(p, "/api/v1/users/")
}

// allowWriter refuses every write of an account this node's moderators
// suspended, in one place, so that no route (a node-local one that never
// reaches the forge service included) forgets to.
func (s *Service) allowWriter(r *http.Request, id *Identity) error {
	if s.writers == nil || safeMethod(r.Method) || signingOut(r) {
		return nil
	}
	return s.writers.CheckWriter(r.Context(), id.User.Address)
}

// fail writes an auth error; anything else is the server's fault.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, body := http.StatusInternalServerError, map[string]string{"message": "the server could not complete the request; please try again", "code": "internal"}
	if ue, ok := usererr.As(err); ok {
		status, body = http.StatusUnauthorized, map[string]string{"message": ue.Message, "code": ue.Code}
		if ue.Kind == usererr.Forbidden {
			status = http.StatusForbidden
		}
	} else {
		s.log.ErrorContext(r.Context(), "authenticate request", "path", r.URL.Path, "err", err)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// ClientIP is the address a request came from, without its port.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
