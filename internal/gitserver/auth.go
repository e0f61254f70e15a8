package gitserver

import (
	"net/http"

	"github.com/dforge/dforge/internal/auth"
)

// Authenticate resolves the credential of a git request with the node's
// auth middleware (mw) and puts the identity in the request context for
// the git server (next). Git sends HTTP Basic with a personal access token
// as the password once it has been challenged. Only the Authorization
// header counts: a browser's session cookie never pushes. A credential the
// middleware refuses is answered with a fresh challenge (401), so git says
// the authentication failed.
//
// The middleware is run on a body-less GET copy of the request: it is
// asked only who sends the request, while the git server itself decides
// what the credential's scope allows (the middleware would refuse every
// POST, fetches included, of a read-only token).
func Authenticate(mw func(http.Handler) http.Handler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		h := r.Header.Get("Authorization")
		_, isTicket := ticketOf(h)
		_, isJob := jobTokenOf(h)
		if h == "" || isTicket || isJob {
			// A ticket of git-lfs-authenticate (ticket.go) or a workflow
			// job's token (jobtoken.go) is the git server's to check, not
			// the middleware's.
			next.ServeHTTP(w, r.WithContext(auth.WithIdentity(ctx, nil)))
			return
		}
		probe := r.Clone(ctx)
		probe.Method = http.MethodGet
		probe.Body = http.NoBody
		probe.ContentLength = 0
		probe.Header.Del("Cookie")
		var id *auth.Identity
		rec := &statusOnly{header: http.Header{}}
		mw(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			id = auth.IdentityFrom(r.Context())
		})).ServeHTTP(rec, probe)
		switch {
		case id != nil:
			next.ServeHTTP(w, r.WithContext(auth.WithIdentity(ctx, id)))
		case rec.status >= 500:
			textError(w, http.StatusInternalServerError, "The credentials could not be checked; please try again.")
		default:
			challenge(w)
		}
	})
}

// statusOnly is a ResponseWriter that keeps only the status.
type statusOnly struct {
	header http.Header
	status int
}

func (s *statusOnly) Header() http.Header { return s.header }

func (s *statusOnly) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return len(p), nil
}

func (s *statusOnly) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}
