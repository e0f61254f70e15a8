package api

import (
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
)

// tokenCategory is the Gitea token scope category of an API path, grouped
// as Gitea groups its routes: issues and labels are issue, the rest of a
// repository and your repositories, stars and watches are repository, your
// account is user, organizations and teams (yours too) are organization,
// and your credentials (tokens, 2FA, sessions) and the admin console are admin,
// the category dForge's admin level has always guarded. "" is a path any
// token may call (version, markdown, chain and other public reads).
func tokenCategory(path string) string {
	p := strings.Split(strings.TrimPrefix(path, "/api/v1/"), "/")
	switch p[0] {
	case "repositories": // a repository by its id
		return "repository"
	case "repos":
		if len(p) > 3 && (p[3] == "issues" || p[3] == "labels" || p[3] == "milestones") || len(p) == 3 && p[1] == "issues" && p[2] == "search" {
			return "issue"
		}
		return "repository"
	case "issues":
		return "issue"
	case "orgs", "org", "teams":
		return "organization"
	case "notifications":
		return "notification"
	case "messages": // direct messages are the account's own, as Gitea's /user is
		return "user"
	case "admin":
		return "admin" // Gitea's read:admin / write:admin
	case "users":
		if len(p) > 2 && p[2] == "tokens" {
			return "admin"
		}
		if len(p) > 2 && p[2] == "orgs" {
			return "organization"
		}
		return "user"
	case "user":
		if len(p) == 1 {
			return "user"
		}
		switch p[1] {
		case "repos", "starred", "subscriptions":
			return "repository"
		case "2fa", "sessions":
			return "admin"
		case "orgs", "teams":
			return "organization"
		}
		return "user"
	case "auth":
		if len(p) > 1 && p[1] == "session" {
			return "user"
		}
	}
	return ""
}

// checkTokenScope refuses a request made with an access token whose scopes
// do not cover the path's category: read for GET, HEAD and OPTIONS, write
// otherwise. Sessions, anonymous requests and uncategorised paths pass;
// the route's own level (signedIn) is checked besides.
func checkTokenScope(r *http.Request) error {
	id := auth.IdentityFrom(r.Context())
	if id == nil || id.TokenID == 0 {
		return nil
	}
	category := tokenCategory(r.URL.Path)
	if IsDownloadPath(r.URL.EscapedPath()) { // Gitea's browser_download_url, outside /api/v1
		category = "repository"
	}
	if category == "" {
		return nil
	}
	need, verb := auth.ScopeWrite, "write:"
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		need, verb = auth.ScopeRead, "read:"
	}
	if id.Grants(category, need) {
		return nil
	}
	return usererr.New(usererr.Forbidden, "insufficient_scope",
		"This access token's scopes do not cover this request; it needs "+verb+category+" (or "+need.String()+", or all).")
}
