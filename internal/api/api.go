// Package api is the base of the node's JSON API: the API with the services
// it calls, the handler adapter (serve), decoding, paging, scopes, errors
// and Gitea's JSON shapes. Handlers decode, validate through a service, and
// write the response. The resources' handlers live in its subpackages, and
// every route is listed in one table, internal/api/routes.
package api

import (
	"github.com/dforge/dforge/internal/api/itemjson"
	"log/slog"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/codesearch"
	"github.com/dforge/dforge/internal/deploykeys"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/markdown"
	"github.com/dforge/dforge/internal/market"
	"github.com/dforge/dforge/internal/messages"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/orglabels"
	"github.com/dforge/dforge/internal/pages"
	"github.com/dforge/dforge/internal/support"
	"github.com/dforge/dforge/internal/timetrack"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/vitals"
	"github.com/dforge/dforge/internal/webhook"
)

// API holds the services the handlers call.
type API struct {
	Log      *slog.Logger
	vitals   *vitals.Service
	Support  *support.Service
	pages    *pages.Service
	Markdown *markdown.Renderer
	Chain    *chain.Chain
	Index    *index.Index
	Auth     *auth.Service
	Forge    *forge.Service
	git      *gitstore.Store
	blocks   *blocks.Store
	Hosting  *gitrepos.Repos   // the forge's repositories with their git data
	Pulls    *forge.Pulls      // the git side of pull requests
	Replicas gitrepos.Replicas // nil: this node replicates nothing
	Hooks    *webhook.Service  // nil serves no webhook routes
	Mod      *moderation.Service
	Messages *messages.Service // nil serves no direct message routes
	market   *market.Service   // nil serves no marketplace routes
	// deployKeys, trackedTimes and orgLabels are node-local Gitea
	// resources; nil serves none of their routes.
	DeployKeys   *deploykeys.Service
	TrackedTimes *timetrack.Service
	OrgLabels    *orglabels.Service
	CodeSearch   *codesearch.Service
	Actions      *actions.Service
	// maintainers are the node's team (serve --maintainer), shown at /node/team.
	Maintainers []common.Address
	// admins are the node's admins and moderators (serve --admin).
	admins []common.Address
	// settings are what the node runs with, for the admin console;
	// dataDir is where it keeps its data (its disk is reported).
	Settings []Setting
	DataDir  string
	Version  string
	sshPort  int // 0: no git over SSH
	// items keeps the JSON of list items by their content (IssuesJSON);
	// commits keeps commits' (CommitsJSON), apart, as a page of them can
	// weigh a hundred pages of issues.
	items, commits *itemjson.Cache
}

// Services are what the API calls into.
type Services struct {
	Vitals   *vitals.Service
	Support  *support.Service
	Pages    *pages.Service
	Markdown *markdown.Renderer
	Chain    *chain.Chain    // nil serves no chain routes
	Index    *index.Index    // the SQL projection of the chain; nil serves no chain reads
	Auth     *auth.Service   // nil serves no sign-in, user or settings routes
	Forge    *forge.Service  // nil serves no forge routes
	Git      *gitstore.Store // the bare repositories; needed with Forge
	Blocks   *blocks.Store   // public repositories' objects as IPFS blocks; nil stores none
	// Repos is the forge's repositories with their git data, the one the
	// git server shares (its locks guard a transferred repository's
	// move); Pulls the git side of pull requests over it. Both are needed
	// with Forge: nil serves no repository, issue or pull request routes.
	Repos *gitrepos.Repos
	Pulls *forge.Pulls
	// Replicas reports the copying of public repositories' git data from
	// other nodes (replica.Replicator); nil: none is copied.
	Replicas gitrepos.Replicas
	// Hooks are the node's webhooks (node-local, never on chain); nil
	// serves no webhook routes.
	Hooks *webhook.Service
	// Messages are the direct messages between this node's users
	// (node-local, never on chain); nil serves no message routes.
	Messages *messages.Service
	// Market is the marketplace (listings on chain, installs as
	// webhooks); nil serves no marketplace routes.
	Market *market.Service
	// DeployKeys are repositories' deploy keys, TrackedTimes the time
	// tracked on issues and OrgLabels organizations' labels: node-local,
	// never on chain; nil serves none of their routes.
	DeployKeys   *deploykeys.Service
	TrackedTimes *timetrack.Service
	OrgLabels    *orglabels.Service
	// CodeSearch is the code search index; nil serves no code search.
	CodeSearch *codesearch.Service
	// Actions is Gitea Actions (node-local); nil serves none of its routes.
	Actions *actions.Service
	// Maintainers are the wallets of the people who run the node, listed
	// at /node/team; none lists no one.
	Maintainers []common.Address
	// Admins are the node's admins and moderators (serve --admin); the
	// Admin and moderation routes answer 404 to everyone else.
	Admins []common.Address
	// SSHPort is the port of git over SSH, for ssh_url; 0: none.
	SSHPort int
	// Moderation is the node's reports, hidden list and suspensions; nil
	// serves no report routes and hides nothing.
	Moderation *moderation.Service
	// Settings are the settings the node runs with, minus secrets, shown
	// read-only in the admin console.
	Settings []Setting
	// DataDir is the node's data directory, whose disk the admin console
	// reports; "" reports none.
	DataDir string
}

// New returns the API over the given services; it builds none of its
// own (internal/node builds each service once).
func New(log *slog.Logger, s Services, version string) *API {
	return &API{Log: log, vitals: s.Vitals, Support: s.Support, pages: s.Pages, Markdown: s.Markdown, Chain: s.Chain, Index: s.Index, Auth: s.Auth,
		Forge: s.Forge, git: s.Git, blocks: s.Blocks, Hosting: s.Repos, Pulls: s.Pulls, Replicas: s.Replicas, Hooks: s.Hooks, Mod: s.Moderation, Messages: s.Messages, market: s.Market,
		DeployKeys: s.DeployKeys, TrackedTimes: s.TrackedTimes, OrgLabels: s.OrgLabels, CodeSearch: s.CodeSearch, Actions: s.Actions,
		Maintainers: uniqueAddresses(s.Maintainers), admins: uniqueAddresses(s.Admins), Settings: s.Settings, DataDir: s.DataDir, Version: version, sshPort: s.SSHPort,
		items: itemjson.New(maxItemJSON), commits: itemjson.New(maxItemJSON)}
}

// RegisterSite adds the site's routes: web vitals, contact, version,
// pages, docs, blog, FAQ and markdown.
func (a *API) RegisterSite(mux *http.ServeMux) {
	// The web-vitals path is the one the seed client posts to, outside /api/v1.
	mux.HandleFunc("POST /api/analytics/web-vitals", a.Serve(a.postWebVital))
	mux.HandleFunc("GET /api/v1/analytics/web-vitals", a.Serve(a.getWebVitals))
	mux.HandleFunc("POST /api/v1/contact", a.Serve(a.postContact))
	mux.HandleFunc("GET /api/v1/version", a.Serve(a.getVersion))
	mux.HandleFunc("GET /api/v1/pages/{slug}", a.Serve(a.getPage))
	mux.HandleFunc("GET /api/v1/docs", a.Serve(a.listDocs))
	mux.HandleFunc("GET /api/v1/docs/{slug}", a.Serve(a.getDoc))
	mux.HandleFunc("GET /api/v1/blog", a.Serve(a.listPosts))
	mux.HandleFunc("GET /api/v1/blog/{slug}", a.Serve(a.getPost))
	mux.HandleFunc("GET /api/v1/faq", a.Serve(a.getFAQ))
	mux.HandleFunc("POST /api/v1/markdown", a.Serve(a.postMarkdown))
}

// HasChain reports whether the node runs a chain: without one it serves
// no chain routes.
func (a *API) HasChain() bool { return a.Chain != nil }

// RegisterNotFound answers 404 to every other /api/ path.
func (a *API) RegisterNotFound(mux *http.ServeMux) {
	mux.HandleFunc("/api/", a.Serve(a.notFound))
}

// giteaAPIVersion is the Gitea release whose API v1 the forge routes
// follow. Gitea's clients read /version to learn what a server can do (the
// Go SDK refuses a server older than 1.11 and picks request shapes by
// version), so version is that release with the node's own version as
// semver build metadata, e.g. "1.24.0+dforge.1.0.0-dev"; dforge is the
// node's version alone. 1.24 is the newest release whose additions the
// node serves (1.24's branch rename, PATCH .../branches/{branch}); of
// 1.23's it lacks tag protections (404), and 1.25's action routes and
// shapes are not served, so it claims no later one.
const giteaAPIVersion = "1.24.0"

func (a *API) getVersion(w http.ResponseWriter, r *http.Request) error {
	WriteJSON(w, http.StatusOK, map[string]string{"version": giteaVersion(a.Version), "dforge": a.Version})
	return nil
}

// giteaVersion is giteaAPIVersion+dforge.<node>, the node's version cut to
// what build metadata may hold (dot-separated runs of [0-9A-Za-z-]).
func giteaVersion(node string) string {
	meta := []string{"dforge"}
	for _, part := range strings.Split(node, ".") {
		part = strings.Map(func(c rune) rune {
			if c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return c
			}
			return '-'
		}, part)
		if part != "" {
			meta = append(meta, part)
		}
	}
	return giteaAPIVersion + "+" + strings.Join(meta, ".")
}

func (a *API) notFound(w http.ResponseWriter, r *http.Request) error {
	return usererr.Missingf("no such API endpoint")
}

// uniqueAddresses is list without repeats, in its order.
func uniqueAddresses(list []common.Address) []common.Address {
	seen := map[common.Address]bool{}
	var out []common.Address
	for _, addr := range list {
		if !seen[addr] {
			seen[addr] = true
			out = append(out, addr)
		}
	}
	return out
}

// Setting is one setting the node runs with, as the admin console shows
// it: secrets (the database password) are left out.
type Setting struct {
	// Name is the serve flag, e.g. "addr".
	Name string `json:"name"`
	// Value is the effective value; lists are comma-separated.
	Value string `json:"value"`
	// Env is the environment variable that also sets it.
	Env string `json:"env,omitempty"`
}
