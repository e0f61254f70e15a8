package gitserver

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// Job tokens: a running Actions job's token (a JWT the actions service
// signs, internal/actions/runtime_token.go) reads its own run's
// repository over Smart HTTP, as GitHub's GITHUB_TOKEN lets
// actions/checkout clone. Authenticate leaves any credential shaped as a
// JWT (access tokens are hex) to the git server, which asks Jobs about
// it: a token that is not a running job's is challenged; one that is
// reads that repository only, never pushes, and opens no LFS.

// JobTokens tells a running job's token from anything else.
type JobTokens interface {
	// JobRepository is the id of the repository the job's token may read.
	JobRepository(ctx context.Context, secret string) (uint64, bool)
}

// jobTokenOf is the JWT-shaped credential an Authorization header carries
// (Bearer or token, or Basic with it as the password or, with no
// password, the user), if any.
func jobTokenOf(header string) (string, bool) {
	kind, value := authScheme(header)
	switch strings.ToLower(kind) {
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			return "", false
		}
		user, password, _ := strings.Cut(string(raw), ":")
		value = password
		if value == "" {
			value = user
		}
	case "bearer", "token":
	default:
		return "", false
	}
	if !strings.HasPrefix(value, "eyJ") || strings.Count(value, ".") != 2 {
		return "", false
	}
	return value, true
}

type jobGrantKey struct{}

// jobGrant is the repository (repoaccess.Repo.ID) a job's token reads.
func withJobGrant(ctx context.Context, repoID string) context.Context {
	return context.WithValue(ctx, jobGrantKey{}, repoID)
}

func jobGrantFrom(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(jobGrantKey{}).(string)
	return id, ok
}

// checkJobToken puts the grant of the job token r carries into its
// context, or answers r itself (false) when the token is no running job's
// or is used for LFS.
func (s *Server) checkJobToken(w http.ResponseWriter, r *http.Request, secret string, isLFS bool) (*http.Request, bool) {
	var repo uint64
	valid := false
	if s.jobs != nil {
		repo, valid = s.jobs.JobRepository(r.Context(), secret)
	}
	if !valid || isLFS {
		challenge(w)
		return nil, false
	}
	return r.WithContext(withJobGrant(r.Context(), strconv.FormatUint(repo, 10))), true
}
