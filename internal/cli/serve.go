package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/getsentry/sentry-go"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/web"
	ui "github.com/dforge/dforge/web"
)

// ServeConfig is what `dforge serve` runs with.
type ServeConfig struct {
	Addr    string
	DataDir string
	DB      string // DSN; empty means SQLite in DataDir
	RPCAddr string // CometBFT RPC listen address
	P2PAddr string // CometBFT peer-to-peer listen address
	// PublicURL is the node's origin as browsers reach it, e.g. behind a
	// reverse proxy (https://forge.example.org); empty means
	// http://<listen address>. Sign-in accepts it and AllowedOrigins only.
	PublicURL string
	// AllowedOrigins are further origins sign-in accepts (a dev proxy).
	AllowedOrigins []string
	// Maintainers are the wallets of the people who run the node, shown
	// as its team on the home page.
	Maintainers []common.Address
	// IPFSListen are the libp2p host's listen multiaddrs (TCP); none means
	// p2p.DefaultListen, or a free loopback port when that one is taken.
	IPFSListen []string
	// IPFSPeers are IPFS peers to keep connected, /ip4/.../tcp/.../p2p/<id>.
	IPFSPeers []string
	// Seed is which public repositories the node replicates (replica.Policy
	// terms); none means all.
	Seed []string
	// EmptyBlocks, when not zero, is how often the idle chain makes a block.
	EmptyBlocks time.Duration
	Dist        fs.FS // the web app; nil means the embedded build
}

func parseServe(args []string) (ServeConfig, error) {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := ServeConfig{}
	fl.StringVar(&cfg.Addr, "addr", envOr("DFORGE_ADDR", "127.0.0.1:3000"), "listen address (env DFORGE_ADDR)")
	fl.StringVar(&cfg.DataDir, "data", envOr("DFORGE_DATA", "./data"), "data directory (env DFORGE_DATA)")
	fl.StringVar(&cfg.DB, "db", os.Getenv("DFORGE_DB"), "database DSN: a SQLite path or postgres://... (env DFORGE_DB; default SQLite in the data dir)")
	fl.StringVar(&cfg.RPCAddr, "rpc-addr", envOr("DFORGE_RPC_ADDR", node.DefaultRPCAddr), "CometBFT RPC listen address (env DFORGE_RPC_ADDR)")
	fl.StringVar(&cfg.P2PAddr, "p2p-addr", envOr("DFORGE_P2P_ADDR", node.DefaultP2PAddr), "CometBFT peer-to-peer listen address (env DFORGE_P2P_ADDR)")
	fl.StringVar(&cfg.PublicURL, "public-url", os.Getenv("DFORGE_PUBLIC_URL"), "the node's origin as browsers reach it, e.g. https://forge.example.org behind a proxy; sign-in accepts only it and --allowed-origin (env DFORGE_PUBLIC_URL; default http://<addr>)")
	allowed := &stringList{values: &cfg.AllowedOrigins}
	allowed.parse(os.Getenv("DFORGE_ALLOWED_ORIGINS"))
	fl.Var(allowed, "allowed-origin", "another `origin` sign-in accepts, e.g. http://localhost:5173 for the Vite dev server; repeat it or separate origins with commas (env DFORGE_ALLOWED_ORIGINS)")
	maintainers := &addressList{addrs: &cfg.Maintainers}
	if err := maintainers.parse(os.Getenv("DFORGE_MAINTAINERS")); err != nil {
		return cfg, fmt.Errorf("DFORGE_MAINTAINERS: %w", err)
	}
	fl.Var(maintainers, "maintainer", "wallet `address` of a maintainer of this node, shown as its team; repeat it or separate addresses with commas (env DFORGE_MAINTAINERS)")
	emptyBlocks, err := envDuration("DFORGE_EMPTY_BLOCKS")
	if err != nil {
		return cfg, err
	}
	fl.DurationVar(&cfg.EmptyBlocks, "empty-blocks", emptyBlocks, "how often an idle chain makes a block, e.g. 2s; 0 keeps config.toml's (6s when new) (env DFORGE_EMPTY_BLOCKS)")
	ipfsListen := &stringList{values: &cfg.IPFSListen}
	ipfsListen.parse(os.Getenv("DFORGE_P2P_LISTEN"))
	fl.Var(ipfsListen, "p2p-listen", "IPFS (libp2p, bitswap) listen `multiaddr`, TCP; repeat it or separate with commas (env DFORGE_P2P_LISTEN; default "+p2p.DefaultListen+", or a free port when that one is taken)")
	ipfsPeers := &stringList{values: &cfg.IPFSPeers}
	ipfsPeers.parse(os.Getenv("DFORGE_IPFS_PEERS"))
	fl.Var(ipfsPeers, "ipfs-peer", "IPFS peer to keep connected and fetch blocks from, a `multiaddr` ending in /p2p/<peer id> (a Kubo node, another dForge node); repeat it or separate with commas (env DFORGE_IPFS_PEERS)")
	seed := &stringList{values: &cfg.Seed}
	seed.parse(os.Getenv("DFORGE_SEED"))
	fl.Var(seed, "seed", "which public repositories to replicate: all (the default), none, owner:<name or address>, repo:<owner>/<name>, or ! before a rule to block it; repeat it or separate with commas (env DFORGE_SEED)")
	home := fl.String("home", "", "node `dir` written by dforge testnet: the data dir plus the settings in its dforge.env (flags and env override them)")
	if err := fl.Parse(args); err != nil {
		return cfg, err
	}
	if fl.NArg() > 0 {
		return cfg, fmt.Errorf("serve: unexpected argument %q", fl.Arg(0))
	}
	if *home != "" {
		if err := applyHome(fl, *home); err != nil {
			return cfg, err
		}
	}
	// Check the origins now, so a typo stops the node before it starts;
	// the listen address only fills in the default.
	if _, err := auth.NewOrigins(cfg.PublicURL, cfg.AllowedOrigins, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}); err != nil {
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if _, _, err := ipfsAddrs(cfg); err != nil {
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if _, err := replica.ParsePolicy(cfg.Seed...); err != nil {
		return cfg, fmt.Errorf("serve: --seed: %w", err)
	}
	if cfg.DB == "" {
		cfg.DB = store.DefaultDSN(cfg.DataDir)
	}
	return cfg, nil
}

// envDuration reads a duration such as "2s" from the environment; unset is 0.
func envDuration(key string) (time.Duration, error) {
	v := os.Getenv(key)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q is not a duration such as 2s or 500ms", key, v)
	}
	return d, nil
}

// stringList is a flag of strings, repeated or comma-separated. The first
// use of the flag replaces what the environment gave.
type stringList struct {
	values  *[]string
	flagSet bool
}

func (l *stringList) String() string {
	if l == nil || l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l *stringList) Set(v string) error {
	if !l.flagSet {
		*l.values, l.flagSet = nil, true
	}
	l.parse(v)
	return nil
}

// parse adds the comma-separated values of v.
func (l *stringList) parse(v string) {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l.values = append(*l.values, part)
		}
	}
}

// addressList is a flag of wallet addresses, repeated or comma-separated.
// The first use of the flag replaces what the environment gave.
type addressList struct {
	addrs   *[]common.Address
	flagSet bool
}

func (l *addressList) String() string {
	if l == nil || l.addrs == nil {
		return ""
	}
	parts := make([]string, len(*l.addrs))
	for i, a := range *l.addrs {
		parts[i] = a.Hex()
	}
	return strings.Join(parts, ",")
}

func (l *addressList) Set(v string) error {
	if !l.flagSet {
		*l.addrs, l.flagSet = nil, true
	}
	return l.parse(v)
}

// parse adds the comma-separated addresses of v.
func (l *addressList) parse(v string) error {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !common.IsHexAddress(part) {
			return fmt.Errorf("%q is not a wallet address (0x followed by 40 hex digits)", part)
		}
		*l.addrs = append(*l.addrs, common.HexToAddress(part))
	}
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func serve(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := parseServe(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	flushSentry := initSentry(log)
	defer flushSentry()
	return Serve(ctx, cfg, log, out)
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
	case err == nil || ctx.Err() != nil:
		return err
	case errors.As(err, &stall):
		log.Warn("serving with the chain index stuck; /healthz reports it", "height", stall.Height, "err", stall.Err)
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		log.Warn("serving before the chain index has caught up", "indexed", ix.Height(), "waited", catchUpTimeout)
		return nil
	}
	return fmt.Errorf("catch up the chain index: %w", err)
}

// Serve runs a node until ctx is cancelled, then shuts down gracefully.
func Serve(ctx context.Context, cfg ServeConfig, log *slog.Logger, out io.Writer) error {
	// 1. Open the database and apply migrations.
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	st, err := store.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()

	// 2. Start the chain: CometBFT in process around the dForge app. A new
	// chain lists this node's operator key, created on first start.
	operator, err := operatorAddress(cfg.DataDir)
	if err != nil {
		return err
	}
	ch, err := chain.Open(ctx, chain.Config{
		Dir: filepath.Join(cfg.DataDir, "chain"), RPCAddr: cfg.RPCAddr, P2PAddr: cfg.P2PAddr,
		Genesis: app.TreasuryGenesis(operator), Logger: log, EmptyBlockInterval: cfg.EmptyBlocks,
	})
	if err != nil {
		return err
	}
	defer ch.Close()

	// 3. Project the chain into SQL as blocks commit. The index has its own
	// context: it stops after the HTTP server, whose last relays wait on it,
	// and before the chain closes (defers run in reverse).
	ix := index.New(log, st, ch.Client())
	ixCtx, stopIndex := context.WithCancel(context.WithoutCancel(ctx))
	ixDone := make(chan error, 1)
	go func() { ixDone <- ix.Run(ixCtx) }()
	defer func() {
		stopIndex()
		<-ixDone
	}()
	// Pages read SQL, so serve once it holds the chain as it stands (after
	// a restart that is the few blocks since the last run).
	if err := catchUpIndex(ctx, ix, log); err != nil {
		if ctx.Err() != nil {
			return nil // asked to stop while catching up
		}
		return err
	}

	// The forge: actions relayed with the operator key, private
	// repositories in the node's private store.
	forgeSvc, err := openForge(ctx, cfg.DataDir, ch, ix, log)
	if err != nil {
		return err
	}
	defer forgeSvc.Close()

	// 4. Build the services and the HTTP surface over them.
	dist := cfg.Dist
	if dist == nil {
		dist = ui.Dist()
	}
	// The git layer: bare repositories, their objects as IPFS blocks, and
	// Smart HTTP over them, with the forge deciding access (gitrepos).
	gitRepos, err := gitstore.Open(filepath.Join(cfg.DataDir, "git"))
	if err != nil {
		return err
	}
	blockStore, err := blocks.Open(filepath.Join(cfg.DataDir, "blocks"), log)
	if err != nil {
		return err
	}
	defer blockStore.Close() // after the git server: its last pushes queue jobs
	// The IPFS host: bitswap over the blockstore, so peers (Kubo, other
	// nodes) fetch public git objects by CID, and this node from them.
	ipfsNode, err := startIPFS(ctx, cfg, blockStore, log)
	if err != nil {
		return err
	}
	defer ipfsNode.Close() // before the blockstore closes
	// It keeps the nodes the registry lists connected, its bitswap peers.
	stopRegistryPeers := startRegistryPeers(ctx, log, ix, ipfsNode)
	defer stopRegistryPeers() // before the IPFS node closes
	// Owners in git URLs resolve as in the API: through the index, and the
	// default names of people who signed in here (auth's users).
	users := auth.New(st, auth.Config{ChainID: ch.Params().ChainID, Names: ix, Log: log})
	hosting := gitrepos.New(forgeSvc, gitRepos, blockStore, log).WithUsers(users)
	blockStore.RecordManifests(hosting.RecordManifest)
	// Before any push: git data as the chain has it, whatever a crash left.
	if err := hosting.Reconcile(ctx); err != nil {
		return err
	}
	// A push whose outcome was unknown settles once the chain decides it,
	// not at the next start; stopped before the blockstore closes.
	settleCtx, stopSettling := context.WithCancel(ctx)
	settling := make(chan struct{})
	go func() {
		defer close(settling)
		hosting.FollowUnsettled(settleCtx)
	}()
	defer func() {
		stopSettling()
		<-settling
	}()
	// The public repositories this node seeds follow the chain's refs,
	// fetched from other nodes; stopped before the IPFS node and the
	// blockstore close. A clone of one still on its way is told to retry.
	policy, _ := replica.ParsePolicy(cfg.Seed...) // checked by parseServe
	replicator, stopReplica := startReplica(ctx, policy, operator, ix, gitRepos, hosting, blockStore, ipfsNode, log)
	defer stopReplica()
	gitSrv := gitserver.New(gitserver.Config{Repos: gitrepos.Seeded{Repos: hosting, Replicas: replicator}, Store: gitRepos, Blocks: blockStore, Log: log})
	defer gitSrv.Close() // after the HTTP server: in-flight pushes call their hooks
	handler, err := web.NewNodeHandler(log, st, ch, ix, dist, Version,
		web.WithGit(gitSrv, blockStore.Gateway(log)), web.WithForge(forgeSvc, gitRepos, blockStore), web.WithMaintainers(cfg.Maintainers),
		web.WithReplicas(replicator))
	if err != nil {
		return fmt.Errorf("build handler: %w", err)
	}

	// 5. Listen, announce the URL, and serve until asked to stop. The
	// node's origins need the listen address when no public URL is set.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	origins, err := auth.NewOrigins(cfg.PublicURL, cfg.AllowedOrigins, ln.Addr())
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	handler = auth.WithOrigins(handler, origins)
	log.Info("sign-in origins", "public", origins.Public.String(), "allowed", origins.Allowed)
	// The node registry: the node registers itself again when it runs with
	// another URL or other IPFS addresses than its entry says.
	stopRegistration := startNodeRegistration(ctx, log, ch, ix, forgeSvc, runningNode(operator, origins.Public.String(), ipfsNode))
	defer stopRegistration()
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	log.Info("dforge node listening", "url", "http://"+ln.Addr().String(), "data", cfg.DataDir, "db", st.Dialect())
	fmt.Fprintf(out, "dForge is running at http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	// 6. Graceful shutdown: finish in-flight requests, then stop the index
	// and the chain and close the store.
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down http: %w", err)
	}
	return nil
}

// initSentry turns on error reporting when SENTRY_DSN is set.
func initSentry(log *slog.Logger) func() {
	dsn := os.Getenv("SENTRY_DSN")
	if dsn == "" {
		return func() {}
	}
	if err := sentry.Init(sentry.ClientOptions{Dsn: dsn, Release: "dforge@" + Version, Environment: envOr("SENTRY_ENVIRONMENT", "production")}); err != nil {
		log.Error("sentry disabled", "err", err)
		return func() {}
	}
	log.Info("sentry error reporting enabled")
	return func() { sentry.Flush(2 * time.Second) }
}
