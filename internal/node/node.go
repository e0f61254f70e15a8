// Package node is the composition root: Build opens everything a dForge
// node runs on and builds each service once, in one place, as miniflux's
// daemon start-up and Gitea's routers/init do, then hands them to the HTTP
// layer. `dforge serve` (and so every `dforge testnet` node) and the
// in-process test node (forgetest) are built by it, so tests run the node
// as it is wired in production.
//
// One service of each kind means one lock of each kind: the API and the
// git server share the one *gitrepos.Repos, whose locks guard a
// transferred repository's directory move and a repository's pushes.
package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/multiformats/go-multiaddr"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/codesearch"
	"github.com/dforge/dforge/internal/deploykeys"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/forge/private"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/lfslock"
	"github.com/dforge/dforge/internal/market"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/privfiles"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/webhook"
)

// Config is what Build opens a node with.
type Config struct {
	DataDir string
	DB      string // DSN; empty means SQLite in DataDir
	RPCAddr string // CometBFT RPC listen address ("" keeps config.toml's)
	P2PAddr string // CometBFT peer-to-peer listen address ("" keeps config.toml's)
	// SSHAddr is where git over SSH listens ("" runs no SSH server); when
	// it is DefaultSSHAddr and that port is taken, a free loopback port.
	SSHAddr string
	// EmptyBlocks, when not zero, is how often the idle chain makes a block.
	EmptyBlocks time.Duration
	// Genesis is a new chain's genesis, given this node's operator; nil
	// means app.TreasuryGenesis(operator).
	Genesis func(operator common.Address) app.Genesis
	// IPFS runs the libp2p host (bitswap over the blockstore) and the
	// replication of public repositories; nil runs neither (a test node).
	IPFS *IPFSConfig
	Site Site
	// Webhooks are how the node delivers its repositories' webhooks.
	Webhooks WebhookConfig
	// ActionsTaskTimeout is how long a runner may stay silent on a task
	// before it fails (actions' default when zero).
	ActionsTaskTimeout time.Duration
	Log                *slog.Logger // nil: slog.Default()
}

// WebhookConfig is the node's webhook delivery.
type WebhookConfig struct {
	// BaseURL is the node's public address, for links in payloads.
	BaseURL string
	// AllowPrivate lets hooks target loopback, private and link-local
	// addresses (serve --webhook-allow-private), refused by default.
	AllowPrivate bool
	// RetryBase is the first pause before a failed delivery is retried
	// (webhook's default when zero).
	RetryBase time.Duration
}

// IPFSConfig is the node's IPFS host and what it replicates.
type IPFSConfig struct {
	// Listen are the host's listen multiaddrs (TCP); none means
	// p2p.DefaultListen, or a free loopback port when that one is taken.
	Listen []multiaddr.Multiaddr
	// Peers are IPFS peers to keep connected (/p2p/<id> addresses).
	Peers []multiaddr.Multiaddr
	// Seed is which public repositories the node replicates.
	Seed replica.Policy
}

// Node is a running node: its services and its HTTP surface. Close stops
// it.
type Node struct {
	*Services
	// Operator is the address of the node's operator key
	// (<data>/operator.key), which relays its forge actions.
	Operator common.Address
	// API is the JSON API, over the same services.
	API *routes.API
	// Handler is the node's whole HTTP surface. Sign-in needs the node's
	// origins around it (auth.WithOrigins), known once it listens.
	Handler http.Handler

	closers []func() // run in reverse by Close
	stop    context.CancelFunc
}

// Build opens the node in cfg.DataDir and builds its services. ctx bounds
// the start-up only: the node's background work (the index, the IPFS
// host, settling pushes, replication) runs until Close. On error, what was
// opened is closed again.
func Build(ctx context.Context, cfg Config) (_ *Node, err error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	n := &Node{Services: &Services{Log: log, DataDir: cfg.DataDir, Metrics: prometheus.NewRegistry()}, stop: stop}
	defer func() {
		if err != nil {
			n.Close()
		}
	}()
	s := n.Services

	// 1. The database, migrated.
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	dsn := cfg.DB
	if dsn == "" {
		dsn = store.DefaultDSN(cfg.DataDir)
	}
	if s.Store, err = store.Open(ctx, dsn); err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	n.onClose(func() { s.Store.Close() })
	// The node's moderation (reports, hidden list, suspensions): the
	// forge and the git server refuse suspended accounts' writes.
	if s.Moderation, err = moderation.New(ctx, s.Store); err != nil {
		return nil, fmt.Errorf("load moderation: %w", err)
	}

	// 2. The chain: CometBFT in process around the dForge app. A new
	// chain lists this node's operator key, created on first start.
	key, err := chain.LoadOrCreateOperatorKey(chain.OperatorKeyFile(cfg.DataDir))
	if err != nil {
		return nil, fmt.Errorf("load the operator key: %w", err)
	}
	n.Operator = crypto.PubkeyToAddress(key.PublicKey)
	genesis := app.TreasuryGenesis(n.Operator)
	if cfg.Genesis != nil {
		genesis = cfg.Genesis(n.Operator)
	}
	if s.Chain, err = chain.Open(ctx, chain.Config{
		Dir: filepath.Join(cfg.DataDir, "chain"), RPCAddr: cfg.RPCAddr, P2PAddr: cfg.P2PAddr,
		Genesis: genesis, Logger: log, EmptyBlockInterval: cfg.EmptyBlocks, Metrics: s.Metrics,
	}); err != nil {
		return nil, fmt.Errorf("open the chain: %w", err)
	}
	n.onClose(func() { s.Chain.Close() })

	// 3. The chain projected into SQL as blocks commit. The index stops
	// after the HTTP server, whose last relays wait on it, and before the
	// chain closes. Pages read SQL, so the node serves once it holds the
	// chain as it stands (after a restart, the few blocks since).
	s.Index = index.New(log, s.Store, s.Chain.Client())
	// Webhooks queue their deliveries as the index projects forge events,
	// so they observe it before it starts; they deliver from step 11.
	s.Hooks = webhook.New(webhook.Config{Store: s.Store, Index: s.Index, Dirs: repoDirs{s}, BaseURL: cfg.Webhooks.BaseURL,
		AllowPrivate: cfg.Webhooks.AllowPrivate, RetryBase: cfg.Webhooks.RetryBase, Log: log, Metrics: s.Metrics})
	s.Index.ObserveForge(s.Hooks)
	// Code search follows the same projection: a push to a default
	// branch, here or on another node, queues its repository. Its worker
	// starts with the git data (step 8).
	if s.CodeSearch, err = codesearch.Open(codesearch.Config{Dir: filepath.Join(cfg.DataDir, "codesearch"), Index: s.Index,
		RepoDir: repoDirs{s}.Of, Log: log}); err != nil {
		return nil, fmt.Errorf("open the code search index: %w", err)
	}
	n.onClose(func() { s.CodeSearch.Close() })
	s.Index.ObserveForge(s.CodeSearch)
	// Actions note the pushes this node relays as they are projected;
	// their worker starts with the git data (step 8).
	actionsKey, err := loadOrCreateActionsKey(actionsKeyFile(cfg.DataDir))
	if err != nil {
		return nil, err
	}
	s.Actions = actions.New(actions.Config{DB: s.Store.DB(), Index: s.Index, RepoDir: repoDirs{s}.Dir, Operator: n.Operator,
		BaseURL: cfg.Webhooks.BaseURL, Log: log, TaskTimeout: cfg.ActionsTaskTimeout, SecretKey: actionsKey,
		// Artifacts of public repositories go into the blockstore (opened
		// in step 5, before any job can finish an upload).
		ArtifactDir: filepath.Join(cfg.DataDir, "artifacts"), PutFile: func(_ context.Context, r io.Reader, limit int64) (string, error) {
			f, err := s.Blocks.PutFile(r, limit)
			return f.CID.String(), err
		}, PostStatus: func(ctx context.Context, actor common.Address, st chainforge.StatusCreate) error {
			_, err := s.Forge.Do(ctx, actor, st)
			return err
		}})
	s.Index.ObserveForge(s.Actions)
	ixDone := make(chan error, 1)
	ixCtx, stopIndex := context.WithCancel(context.WithoutCancel(ctx))
	go func() { ixDone <- s.Index.Run(ixCtx) }()
	n.onClose(func() {
		stopIndex()
		<-ixDone
	})
	if err := catchUpIndex(ctx, s.Index, log); err != nil {
		return nil, err
	}

	// 4. The forge: actions relayed with the operator key, private
	// repositories in the node's private store.
	priv, err := private.Open(filepath.Join(cfg.DataDir, "private"))
	if err != nil {
		return nil, fmt.Errorf("open the private store: %w", err)
	}
	if s.Forge, err = forge.New(ctx, forge.Config{Chain: s.Chain, Index: s.Index, OperatorKey: key, Private: priv, Log: log, Drafts: s.Store, Writers: s.Moderation}); err != nil {
		priv.Close()
		return nil, fmt.Errorf("start the forge service: %w", err)
	}
	n.onClose(func() { s.Forge.Close() })

	// 5. The git data: bare repositories and their objects as IPFS
	// blocks. The blockstore closes after the git server, whose last
	// pushes queue jobs.
	if s.GitStore, err = gitstore.Open(filepath.Join(cfg.DataDir, "git")); err != nil {
		return nil, fmt.Errorf("open the git store: %w", err)
	}
	// The pooled cat-file processes end with the node, after every
	// server that reads through them has stopped.
	n.onClose(gitstore.StopBatches)
	if s.Blocks, err = blocks.Open(filepath.Join(cfg.DataDir, "blocks"), log); err != nil {
		return nil, fmt.Errorf("open the blockstore: %w", err)
	}
	n.onClose(func() { s.Blocks.Close() })

	// 6. The IPFS host: bitswap over the blockstore, so peers (Kubo,
	// other nodes) fetch public git objects by CID, and this node from
	// them; it keeps the nodes the registry lists connected.
	if cfg.IPFS != nil {
		if s.IPFS, err = startIPFS(ctx, cfg.DataDir, *cfg.IPFS, s.Blocks, log); err != nil {
			return nil, err
		}
		n.onClose(func() { s.IPFS.Close() }) // before the blockstore closes
		s.Metrics.MustRegister(s.IPFS.Metrics())
		n.onClose(startRegistryPeers(bg, log, s.Index, s.IPFS))
	}

	// 7. The services over the store, the chain and the index: identity,
	// web-vitals, support, pages, Markdown. Owners in git URLs resolve as
	// in the API: through the index, and the default names of people who
	// signed in here (auth's users).
	s.addBase(s.Store, s.Chain, s.Index)
	// The one bridge of the forge and its git data, for the API and the
	// git server alike, and the git side of pull requests over it.
	// Private repositories' assets and LFS objects, and draft releases,
	// stay on this node, off the (public) blockstore and the chain.
	pfiles, err := privfiles.Open(filepath.Join(cfg.DataDir, "privfiles"))
	if err != nil {
		return nil, fmt.Errorf("open the private files: %w", err)
	}
	s.Repos = gitrepos.New(s.Forge, s.GitStore, s.Blocks, log).WithUsers(s.Auth).WithPrivateFiles(pfiles).WithReleaseDrafts(s.Store)
	// Manifests of pushes' big objects, built as their blocks are stored,
	// go on chain in the pusher's name (blocks: record.go).
	s.Blocks.RecordManifests(s.Repos.RecordManifest)
	s.Pulls = forge.NewPulls(s.Forge, forge.PullsConfig{Dir: s.Repos.Dir, QueueBlocks: func(dir string, include, exclude []string) error {
		return s.Blocks.Enqueue(blocks.Job{Dir: dir, Include: include, Exclude: exclude})
	}})
	// The marketplace: listings on chain, installs as this node's webhooks.
	s.Market = market.New(s.Forge, s.Hooks, s.Index, s.Store)

	// 8. Before any push: git data as the chain has it, whatever a crash
	// left. A push whose outcome was unknown then settles once the chain
	// decides it, not at the next start.
	if err := s.Repos.Reconcile(ctx); err != nil {
		return nil, err
	}
	settling := make(chan struct{})
	settleCtx, stopSettling := context.WithCancel(bg)
	go func() {
		defer close(settling)
		s.Repos.FollowUnsettled(settleCtx)
	}()
	n.onClose(func() {
		stopSettling()
		<-settling
	})
	// Code search catches up with what changed while the node was down,
	// then follows the projection.
	searching := make(chan struct{})
	searchCtx, stopSearching := context.WithCancel(bg)
	go func() {
		defer close(searching)
		s.CodeSearch.Run(searchCtx)
	}()
	n.onClose(func() {
		stopSearching()
		<-searching
	})
	acting := make(chan struct{})
	actCtx, stopActing := context.WithCancel(bg)
	go func() {
		defer close(acting)
		s.Actions.Run(actCtx)
	}()
	n.onClose(func() {
		stopActing()
		<-acting
	})

	// 9. The public repositories this node seeds follow the chain's refs,
	// fetched from other nodes; a clone of one still on its way is told
	// to retry.
	gitRepos := gitrepos.Seeded{Repos: s.Repos}
	if s.IPFS != nil {
		var stopReplica func()
		// A replicated repository is indexed for code search once its
		// git data is here.
		s.Replicator, stopReplica = startReplica(bg, cfg.IPFS.Seed, n.Operator, s.Index, s.GitStore, s.Repos, s.Blocks, s.IPFS, log, s.Metrics,
			func(id uint64) { s.CodeSearch.Notify(id) })
		n.onClose(stopReplica)
		gitRepos.Replicas = s.Replicator
	}
	// 10. Smart HTTP over the git data, the forge deciding access.
	s.Git = gitserver.New(gitserver.Config{Repos: gitRepos, Store: s.GitStore, Blocks: s.Blocks, Log: log, Writers: s.Moderation, Locks: lfslock.New(s.Store), Jobs: s.Actions})
	n.onClose(func() { s.Git.Close() }) // after the HTTP server: in-flight pushes call their hooks
	if cfg.SSHAddr != "" {
		if s.SSH, err = listenSSH(cfg, s.Git, s.Forge, s.DeployKeys, log, s.Metrics); err != nil {
			return nil, err
		}
		n.onClose(func() { s.SSH.Close() }) // before the git server: its pushes call their hooks
	}

	// 11. Webhook deliveries: what a previous run left queued, then each
	// new event. They stop before the index and the git data they read.
	hooksDone := make(chan struct{})
	hooksCtx, stopHooks := context.WithCancel(bg)
	go func() {
		defer close(hooksDone)
		s.Hooks.Run(hooksCtx)
	}()
	n.onClose(func() {
		stopHooks()
		<-hooksDone
	})

	// 12. The HTTP surface over all of it.
	n.API = s.api(cfg.Site)
	if n.Handler, err = s.handler(n.API, cfg.Site); err != nil {
		return nil, fmt.Errorf("build handler: %w", err)
	}
	return n, nil
}

// DefaultSSHAddr is where `dforge serve` listens for git over SSH.
const DefaultSSHAddr = "127.0.0.1:2222"

// listenSSH starts git over SSH, keys looked up in the chain's projection
// and the host key kept in <data>/ssh.
func listenSSH(cfg Config, git *gitserver.Server, f *forge.Service, dk *deploykeys.Service, log *slog.Logger, reg prometheus.Registerer) (*gitserver.SSHServer, error) {
	sc := gitserver.SSHConfig{
		Addr: cfg.SSHAddr, HostKeyFile: filepath.Join(cfg.DataDir, "ssh", "host_ed25519_key"), Metrics: reg,
		Keys: func(ctx context.Context, fingerprint string) (*auth.User, bool, error) {
			owner, name, ok, err := f.KeyOwner(ctx, fingerprint)
			if err != nil || !ok {
				return nil, ok, err
			}
			return &auth.User{Address: owner, Username: name}, true, nil
		},
		DeployKeys: func(ctx context.Context, fingerprint string) ([]gitserver.DeployGrant, error) {
			grants, err := dk.Grants(ctx, fingerprint)
			if err != nil {
				return nil, err
			}
			out := make([]gitserver.DeployGrant, 0, len(grants))
			for _, g := range grants {
				name, err := f.Index().Username(ctx, g.AddedBy)
				if err != nil {
					return nil, err
				}
				out = append(out, gitserver.DeployGrant{Repo: strconv.FormatUint(g.Repo, 10), ReadOnly: g.ReadOnly,
					AddedBy: auth.User{Address: g.AddedBy, Username: name}})
			}
			return out, nil
		},
	}
	srv, err := git.ListenSSH(sc)
	if err != nil && cfg.SSHAddr == DefaultSSHAddr {
		log.Warn("the default ssh port is taken; git over SSH listens on a free loopback port", "err", err)
		sc.Addr = "127.0.0.1:0"
		srv, err = git.ListenSSH(sc)
	}
	if err != nil {
		return nil, fmt.Errorf("start git over ssh: %w", err)
	}
	log.Info("git over ssh", "addr", srv.Addr().String())
	return srv, nil
}

// The git server's view of the forge is gitrepos's.
var (
	_ gitserver.Repos    = (*gitrepos.Repos)(nil)
	_ gitserver.Settler  = (*gitrepos.Repos)(nil)
	_ gitserver.Pending  = gitrepos.Seeded{}
	_ gitserver.LFSStore = (*gitrepos.Repos)(nil)
)

func (n *Node) onClose(f func()) { n.closers = append(n.closers, f) }

// Close stops the node's background work and closes what Build opened,
// in the reverse order. Stop the HTTP server first: in-flight requests
// use all of it.
func (n *Node) Close() {
	n.stop()
	for i := len(n.closers) - 1; i >= 0; i-- {
		n.closers[i]()
	}
	n.closers = nil
}

// catchUpTimeout bounds the wait for the index at start: past it the node
// serves what is projected while the index goes on catching up.
const catchUpTimeout = 2 * time.Minute

// catchUpIndex waits until ix reaches the chain's tip, but never forever: a
// block the index cannot project must not keep the node from listening, or
// the operator could not even read /healthz to learn which block it is. The
// index keeps retrying in the background either way.
func catchUpIndex(ctx context.Context, ix *index.Index, log *slog.Logger) error {
	wait, cancel := context.WithTimeout(ctx, catchUpTimeout)
	defer cancel()
	err := ix.WaitForTip(wait)
	var stall *index.Stall
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("catch up the chain index: %w", ctx.Err())
	case errors.As(err, &stall):
		log.Warn("serving with the chain index stuck; /healthz reports it", "height", stall.Height, "err", stall.Err)
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		log.Warn("serving before the chain index has caught up", "indexed", ix.Height(), "waited", catchUpTimeout)
		return nil
	}
	return fmt.Errorf("catch up the chain index: %w", err)
}

// Site is what the HTTP surface serves besides the services.
type Site struct {
	Dist    fs.FS  // the built web app; nil means the embedded build
	Version string // the node's version, at /api/v1/version and /healthz
	// Maintainers are the wallets of the people who run the node, listed
	// as its team at /api/v1/node/team.
	Maintainers []common.Address
	// Admins are the wallets of the node's admins and moderators.
	Admins []common.Address
	// Settings are the settings the node runs with, minus secrets, shown
	// read-only in the admin console (serve's flags).
	Settings []api.Setting
	// ConnectSources are origins the app's pages may call besides this
	// node (the browser's Sentry DSN host), for their Content-Security-Policy.
	ConnectSources []string
}

// repoDirs finds a repository's git directory for webhook payloads,
// through the forge's repositories (built after the webhook service).
type repoDirs struct{ s *Services }

func (d repoDirs) Dir(ctx context.Context, id uint64) (string, error) {
	if d.s.Repos == nil {
		return "", errors.New("no git data yet")
	}
	rec, err := d.s.Index.RepoByID(ctx, id)
	if err != nil {
		return "", err
	}
	return d.s.Repos.Dir(rec)
}

// Of is where rec's git directory is, for code search.
func (d repoDirs) Of(rec index.Repo) (string, error) {
	if d.s.Repos == nil {
		return "", errors.New("no git data yet")
	}
	return d.s.Repos.Dir(rec)
}
