package node

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/content"
	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/codesearch"
	"github.com/dforge/dforge/internal/deploykeys"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/markdown"
	"github.com/dforge/dforge/internal/market"
	"github.com/dforge/dforge/internal/messages"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/orglabels"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/pages"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/support"
	"github.com/dforge/dforge/internal/timetrack"
	"github.com/dforge/dforge/internal/vitals"
	"github.com/dforge/dforge/internal/web"
	"github.com/dforge/dforge/internal/webhook"
	ui "github.com/dforge/dforge/web"
)

// Services are a node's services, each built once: by Build for a node,
// or by NewServices for a test of the HTTP layer over a store alone.
type Services struct {
	Log   *slog.Logger
	Store *store.Store
	Chain *chain.Chain // nil: no chain routes
	Index *index.Index // the chain's SQL projection; nil: no chain reads

	Auth     *auth.Service
	Vitals   *vitals.Service
	Support  *support.Service
	Pages    *pages.Service
	Markdown *markdown.Renderer
	// Moderation is the node's reports, hidden list and suspensions.
	Moderation *moderation.Service
	Messages   *messages.Service // direct messages, node-local
	// DeployKeys, TrackedTimes and OrgLabels are Gitea's resources kept
	// node-local: repositories' deploy keys (credentials, which also open
	// git over SSH here), time tracked on issues, organizations' labels.
	DeployKeys   *deploykeys.Service
	TrackedTimes *timetrack.Service
	OrgLabels    *orglabels.Service

	// The forge and its git data; nil Forge: no forge routes, no git.
	Forge    *forge.Service
	GitStore *gitstore.Store
	Blocks   *blocks.Store
	// Repos is the forge's repositories with their git data: the one the
	// API and the git server share.
	Repos *gitrepos.Repos
	Pulls *forge.Pulls         // the git side of pull requests, over Repos
	Git   *gitserver.Server    // Smart HTTP over Repos
	SSH   *gitserver.SSHServer // git over SSH, the same core; nil: none

	// CodeSearch is the code search index of the default branches; nil:
	// no code search.
	CodeSearch *codesearch.Service

	// Actions is Gitea Actions: workflows, runs and the runner protocol;
	// nil: none.
	Actions *actions.Service

	// Hooks are the node's webhooks and their deliveries; nil: none.
	Hooks *webhook.Service
	// Market is the marketplace over the forge and the webhooks; nil: none.
	Market *market.Service

	// DataDir is the node's data directory; "" when built without one.
	DataDir string

	IPFS       *p2p.Node           // nil: no IPFS host
	Replicator *replica.Replicator // nil: no public repository is replicated

	// Metrics holds the services' own metrics (dforge_ssh_*,
	// dforge_webhook_*, dforge_relay_*, dforge_replica_*,
	// dforge_bitswap_*), served on /metrics. A registry per node, not
	// Prometheus's default one, as tests run several nodes in a process.
	Metrics *prometheus.Registry
}

// NewServices builds the services over st and, when not nil, the chain
// ch and its projection ix: identity, web-vitals, support, pages and
// Markdown. The forge is Build's.
func NewServices(log *slog.Logger, st *store.Store, ch *chain.Chain, ix *index.Index) *Services {
	s := &Services{Log: log}
	// Build loads moderation with its start-up context; here a failed
	// load only leaves the moderation routes out (logged).
	if mod, err := moderation.New(context.Background(), st); err != nil {
		log.Error("load moderation", "err", err)
	} else {
		s.Moderation = mod
	}
	s.addBase(st, ch, ix)
	return s
}

// addBase builds the services that need only the store, the chain and
// the index.
func (s *Services) addBase(st *store.Store, ch *chain.Chain, ix *index.Index) {
	s.Store, s.Chain, s.Index = st, ch, ix
	s.Markdown = markdown.New()
	s.Vitals, s.Pages = vitals.New(st), pages.New(content.FS, s.Markdown)
	s.Support = support.New(st, nil)
	// SIWE messages must name the chain's EIP-712 chain id (the default
	// chain's when there is none), and usernames come from the index
	// when there is one.
	cfg := auth.Config{ChainID: app.DefaultParams().ChainID, Log: s.Log}
	if ch != nil {
		cfg.ChainID = ch.Params().ChainID
	}
	if ix != nil { // a nil *index.Index in the interface would not read as nil
		cfg.Names = ix
		s.Support = support.New(st, ix) // answers to tickets notify their users
	}
	if s.Moderation != nil { // suspended accounts write nothing (auth's middleware)
		cfg.Writers = s.Moderation
	}
	s.Auth = auth.New(st, cfg)
	var notify messages.Notifier
	if ix != nil { // a nil *index.Index in the interface would not read as nil
		notify = ix
	}
	s.Messages = messages.New(s.Log, st, notify)
	// A user's SSH key (on chain, the forge's) is no deploy key; the
	// forge is built after these, so the check looks it up when asked.
	s.DeployKeys = deploykeys.New(st, func(ctx context.Context, fingerprint string) (bool, error) {
		if s.Forge == nil {
			return false, nil
		}
		_, _, ok, err := s.Forge.KeyOwner(ctx, fingerprint)
		return ok, err
	})
	s.TrackedTimes, s.OrgLabels = timetrack.New(st), orglabels.New(st)
}

// Handler returns the node's whole HTTP surface over s: the API, the git
// server and the IPFS gateway when there is a forge, /healthz, /metrics
// and the app in site.Dist.
func (s *Services) Handler(site Site) (http.Handler, error) {
	return s.handler(s.api(site), site)
}

// api is the JSON API over s.
func (s *Services) api(site Site) *routes.API {
	svc := api.Services{
		Vitals: s.Vitals, Support: s.Support, Pages: s.Pages, Markdown: s.Markdown, Chain: s.Chain, Index: s.Index, Auth: s.Auth,
		Forge: s.Forge, Git: s.GitStore, Blocks: s.Blocks, Repos: s.Repos, Pulls: s.Pulls, Maintainers: site.Maintainers, Admins: site.Admins,
		Hooks: s.Hooks, Market: s.Market, Moderation: s.Moderation, Messages: s.Messages, Settings: site.Settings, DataDir: s.DataDir,
		DeployKeys: s.DeployKeys, TrackedTimes: s.TrackedTimes, OrgLabels: s.OrgLabels, CodeSearch: s.CodeSearch, Actions: s.Actions,
	}
	if s.Replicator != nil { // a nil pointer in the interface would not read as nil
		svc.Replicas = s.Replicator
	}
	if s.SSH != nil {
		if a, ok := s.SSH.Addr().(*net.TCPAddr); ok {
			svc.SSHPort = a.Port
		}
	}
	return routes.New(s.Log, svc, site.Version)
}

// handler is the HTTP surface over s with a.
func (s *Services) handler(a *routes.API, site Site) (http.Handler, error) {
	d := web.Deps{Log: s.Log, API: a, DB: s.Store, Dist: site.Dist, Version: site.Version, Auth: s.Auth, ConnectSources: site.ConnectSources}
	if s.Metrics != nil { // a nil registry in the interface would not read as nil
		d.Metrics = s.Metrics
	}
	if d.Dist == nil {
		d.Dist = ui.Dist()
	}
	if s.Index != nil {
		d.Index = s.Index
		d.Peers = s.peerOrigins
	}
	if s.Git != nil {
		d.Git = s.Git
	}
	if s.Blocks != nil {
		d.IPFS = s.Blocks.Gateway(s.Log)
	}
	return web.NewHandler(d)
}

// peerOrigins are the registered nodes' origins, which the app's pages ask
// about a repository's replicas (their Content-Security-Policy names them).
func (s *Services) peerOrigins(ctx context.Context) []string {
	nodes, err := s.Index.Nodes(ctx)
	if err != nil {
		s.Log.WarnContext(ctx, "list the nodes for the page policy", "err", err)
		return nil
	}
	var out []string
	for _, n := range nodes {
		if o := web.Origin(n.URL); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}
