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
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/getsentry/sentry-go"

	"github.com/dforge/dforge/internal/auth"
	chainnode "github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/web"
)

// ServeConfig is what `dforge serve` runs with.
type ServeConfig struct {
	Addr    string
	DataDir string
	DB      string // DSN; empty means SQLite in DataDir
	RPCAddr string // CometBFT RPC listen address
	P2PAddr string // CometBFT peer-to-peer listen address
	// SSHAddr is where git over SSH listens; "" turns it off.
	SSHAddr string
	// PublicURL is the node's origin as browsers reach it, e.g. behind a
	// reverse proxy (https://forge.example.org); empty means
	// http://<listen address>. Sign-in accepts it and AllowedOrigins only.
	PublicURL string
	// AllowedOrigins are further origins sign-in accepts (a dev proxy).
	AllowedOrigins []string
	// Maintainers are the wallets of the people who run the node, shown
	// as its team on the home page.
	Maintainers []common.Address
	// Admins are the wallets of the node's admins and moderators: they see
	// the admin console, the report queue and the support tickets.
	Admins []common.Address
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
	// WebhookAllowPrivate lets webhooks target loopback, private and
	// link-local addresses; refused by default (SSRF).
	WebhookAllowPrivate bool
	Dist                fs.FS // the web app; nil means the embedded build
	// PprofAddr, when set, serves Go's profiles there (loopback only).
	PprofAddr string
}

func parseServe(args []string) (ServeConfig, error) {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := ServeConfig{}
	fl.StringVar(&cfg.Addr, "addr", envOr("DFORGE_ADDR", "127.0.0.1:3000"), "listen address (env DFORGE_ADDR)")
	fl.StringVar(&cfg.DataDir, "data", envOr("DFORGE_DATA", "./data"), "data directory (env DFORGE_DATA)")
	fl.StringVar(&cfg.DB, "db", os.Getenv("DFORGE_DB"), "database DSN: a SQLite path or postgres://... (env DFORGE_DB; default SQLite in the data dir)")
	fl.StringVar(&cfg.RPCAddr, "rpc-addr", envOr("DFORGE_RPC_ADDR", chainnode.DefaultRPCAddr), "CometBFT RPC listen address (env DFORGE_RPC_ADDR)")
	fl.StringVar(&cfg.P2PAddr, "p2p-addr", envOr("DFORGE_P2P_ADDR", chainnode.DefaultP2PAddr), "CometBFT peer-to-peer listen address (env DFORGE_P2P_ADDR)")
	fl.StringVar(&cfg.SSHAddr, "ssh-addr", envOr("DFORGE_SSH_ADDR", node.DefaultSSHAddr), "git over SSH listen address; \"\" turns it off (env DFORGE_SSH_ADDR; the default falls back to a free loopback port when taken)")
	fl.StringVar(&cfg.PublicURL, "public-url", os.Getenv("DFORGE_PUBLIC_URL"), "the node's origin as browsers reach it, e.g. https://forge.example.org behind a proxy; sign-in accepts only it and --allowed-origin (env DFORGE_PUBLIC_URL; default http://<addr>)")
	allowed := &stringList{values: &cfg.AllowedOrigins}
	allowed.parse(os.Getenv("DFORGE_ALLOWED_ORIGINS"))
	fl.Var(allowed, "allowed-origin", "another `origin` sign-in accepts, e.g. http://localhost:5173 for the Vite dev server; repeat it or separate origins with commas (env DFORGE_ALLOWED_ORIGINS)")
	maintainers := &addressList{addrs: &cfg.Maintainers}
	if err := maintainers.parse(os.Getenv("DFORGE_MAINTAINERS")); err != nil {
		return cfg, fmt.Errorf("DFORGE_MAINTAINERS: %w", err)
	}
	fl.Var(maintainers, "maintainer", "wallet `address` of a maintainer of this node, shown as its team; repeat it or separate addresses with commas (env DFORGE_MAINTAINERS)")
	admins := &addressList{addrs: &cfg.Admins}
	if err := admins.parse(os.Getenv("DFORGE_ADMINS")); err != nil {
		return cfg, fmt.Errorf("DFORGE_ADMINS: %w", err)
	}
	fl.Var(admins, "admin", "wallet `address` of an admin and moderator of this node (the admin console, reports, support tickets); repeat it or separate addresses with commas (env DFORGE_ADMINS)")
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
	fl.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", os.Getenv("DFORGE_WEBHOOK_ALLOW_PRIVATE") == "true", "let webhooks reach loopback, private and link-local addresses (refused by default, against SSRF) (env DFORGE_WEBHOOK_ALLOW_PRIVATE=true)")
	fl.StringVar(&cfg.PprofAddr, "pprof-addr", os.Getenv("DFORGE_PPROF_ADDR"), "serve Go's profiles (/debug/pprof/) on this loopback `address`, e.g. 127.0.0.1:6060; off by default (env DFORGE_PPROF_ADDR)")
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
	if err := checkPprofAddr(cfg.PprofAddr); err != nil {
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

// Serve runs a node until ctx is cancelled, then shuts down gracefully.
func Serve(ctx context.Context, cfg ServeConfig, log *slog.Logger, out io.Writer) error {
	// 1. Build the node: store, chain, index, services, git, IPFS, and
	// the HTTP surface over them (internal/node).
	ncfg, err := nodeConfig(cfg, log)
	if err != nil {
		return err
	}
	n, err := node.Build(ctx, ncfg)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil // asked to stop while starting
		}
		return err
	}
	defer n.Close() // after the HTTP server: in-flight requests use it all
	if cfg.PprofAddr != "" {
		if _, err := servePprof(ctx, cfg.PprofAddr, log); err != nil {
			return err
		}
	}

	// 2. Listen, announce the URL, and serve until asked to stop. The
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
	handler := auth.WithOrigins(n.Handler, origins)
	if n.SSH != nil {
		n.SSH.SetHTTPURL(origins.Public.String()) // git-lfs-authenticate's href
	}
	log.Info("sign-in origins", "public", origins.Public.String(), "allowed", origins.Allowed)
	// The node registry: the node registers itself again when it runs with
	// another URL or other IPFS addresses than its entry says.
	stopRegistration := startNodeRegistration(ctx, log, n.Chain, n.Index, n.Forge, runningNode(n.Operator, origins.Public.String(), n.IPFS))
	defer stopRegistration()
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	log.Info("dforge node listening", "url", "http://"+ln.Addr().String(), "data", cfg.DataDir, "db", n.Store.Dialect())
	fmt.Fprintf(out, "dForge is running at http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case err := <-n.Chain.Halted():
		log.Error("the chain halted on this release", "err", err)
		srv.Close()
		return fmt.Errorf("halted: %w", err)
	case <-ctx.Done():
	}
	// 3. Graceful shutdown: finish in-flight requests, then close the
	// node (its background work, the index, the chain, the store).
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down http: %w", err)
	}
	return nil
}

// nodeConfig is what node.Build needs of serve's flags.
func nodeConfig(cfg ServeConfig, log *slog.Logger) (node.Config, error) {
	listen, peers, err := ipfsAddrs(cfg)
	if err != nil {
		return node.Config{}, fmt.Errorf("serve: %w", err)
	}
	seed, err := replica.ParsePolicy(cfg.Seed...)
	if err != nil {
		return node.Config{}, fmt.Errorf("serve: --seed: %w", err)
	}
	return node.Config{
		DataDir: cfg.DataDir, DB: cfg.DB, RPCAddr: cfg.RPCAddr, P2PAddr: cfg.P2PAddr, EmptyBlocks: cfg.EmptyBlocks,
		SSHAddr:  cfg.SSHAddr,
		IPFS:     &node.IPFSConfig{Listen: listen, Peers: peers, Seed: seed},
		Site:     node.Site{Dist: cfg.Dist, Version: Version, Maintainers: cfg.Maintainers, Admins: cfg.Admins, Settings: settingsSummary(cfg), ConnectSources: reporterOrigins()},
		Webhooks: node.WebhookConfig{BaseURL: webhookBase(cfg), AllowPrivate: cfg.WebhookAllowPrivate},
		Log:      log,
	}, nil
}

// webhookBase is the node's address for links in webhook payloads: the
// public URL, else the listen address.
func webhookBase(cfg ServeConfig) string {
	if cfg.PublicURL != "" {
		return cfg.PublicURL
	}
	return "http://" + cfg.Addr
}

// reporterOrigins are the Sentry hosts the app's pages may report to: the
// app's build-time DSN (VITE_SENTRY_DSN, when given to the node too) and
// the node's own, which the app is usually built with.
func reporterOrigins() []string {
	var out []string
	for _, name := range []string{"VITE_SENTRY_DSN", "SENTRY_DSN"} {
		if o := web.Origin(os.Getenv(name)); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
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
