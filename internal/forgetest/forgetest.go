// Package forgetest runs a whole dForge node in a test, built as serve
// builds it (internal/node): a single-validator chain whose genesis lists
// the node's operator, the SQL index following it, the forge service, the
// git store, the blockstore, the git server with the forge deciding
// access, and the HTTP handler in an httptest server. Tests drive it as
// clients do: the JSON API with access tokens, and the git binary over
// Smart HTTP.
//
// A test package using it calls forgetest.Main from TestMain, so the test
// binary can stand in for the dforge binary in git's hooks.
package forgetest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/longtest"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/store/storetest"
)

// Main runs the tests, or, when git runs the test binary as a hook
// (`<exe> hook <name>` with a push's token), the hook.
func Main(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "hook" && os.Getenv("DFORGE_HOOK_TOKEN") != "" {
		if err := gitserver.RunHook(context.Background(), os.Args[2], os.Stdin, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "dforge:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Quiet is a logger that drops everything.
var Quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Node is a running node.
type Node struct {
	// Node is the node as internal/node built it: every service, once.
	Node *node.Node
	t    testing.TB
	URL  string
	// SSHAddr is where git over SSH listens (WithSSH); "" without it.
	SSHAddr string
	Dir     string
	// DB is the node's SQL DSN: a SQLite path in Dir, or the PostgreSQL
	// database made for it.
	DB       string
	Chain    *chain.Chain
	Store    *store.Store
	Index    *index.Index
	Forge    *forge.Service
	GitStore *gitstore.Store
	Blocks   *blocks.Store
	Repos    *gitrepos.Repos
	auth     *auth.Service
	home     string // HOME of the git client
}

// Option changes how Start builds the node.
type Option func(*options)

type options struct {
	maintainers []common.Address
	admins      []common.Address
	postgres    string // admin DSN of a PostgreSQL server; "" is SQLite
	webhooks    node.WebhookConfig
	ssh         bool // serve git over SSH on a free loopback port
	genesis     func(*app.Genesis)
	taskTimeout time.Duration
}

// WithActionsTaskTimeout sets how long a runner may stay silent on a
// task before it fails.
func WithActionsTaskTimeout(d time.Duration) Option {
	return func(o *options) { o.taskTimeout = d }
}

// WithGenesis lets the test change the node's genesis (parameters,
// allocations) before the chain starts.
func WithGenesis(change func(*app.Genesis)) Option {
	return func(o *options) { o.genesis = change }
}

// WithWebhooks sets how the node delivers webhooks (serve
// --webhook-allow-private opens private targets, which a test's local
// receiver is).
func WithWebhooks(cfg node.WebhookConfig) Option {
	return func(o *options) { o.webhooks = cfg }
}

// WithMaintainers names the node's maintainers (serve --maintainer).
func WithMaintainers(addrs ...common.Address) Option {
	return func(o *options) { o.maintainers = addrs }
}

// WithAdmins names the node's admins and moderators (serve --admin).
func WithAdmins(addrs ...common.Address) Option {
	return func(o *options) { o.admins = addrs }
}

// WithPostgres keeps the node's SQL in a fresh database on the PostgreSQL
// server adminDSN points at (DFORGE_TEST_PG), instead of a SQLite file.
func WithPostgres(adminDSN string) Option {
	return func(o *options) { o.postgres = adminDSN }
}

// Stores names the SQL stores a test should run a node on, each with its
// option: SQLite always, PostgreSQL when DFORGE_TEST_PG points at a
// server (as the store and index tests do).
func Stores() map[string][]Option {
	out := map[string][]Option{"sqlite": nil}
	if admin := os.Getenv("DFORGE_TEST_PG"); admin != "" {
		out["postgres"] = []Option{WithPostgres(admin)}
	}
	return out
}

// Start runs a node for the test; it stops when the test ends.
func Start(t testing.TB, opts ...Option) *Node {
	t.Helper()
	Long(t)
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the forge tests need the git binary on PATH (apt-get install git)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	n := &Node{t: t, Dir: dir, home: filepath.Join(dir, "home")}
	// The node as serve builds it (internal/node), with a genesis of its
	// own, free ports, and neither an IPFS host nor replication; its SQL
	// in dir, or in a fresh PostgreSQL database.
	cfg := node.Config{
		DataDir: dir, DB: filepath.Join(dir, "dforge.db"), RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0",
		Genesis: func(operator common.Address) app.Genesis {
			g := app.Genesis{Params: app.Params{ChainID: 7771, Symbol: "DFG", Decimals: 6, UnbondingBlocks: 2},
				Operators: []common.Address{operator}, Upgrades: upgrade.All()}
			if o.genesis != nil {
				o.genesis(&g)
			}
			return g
		},
		Site:               node.Site{Dist: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>dForge</title>")}}, Version: "test", Maintainers: o.maintainers, Admins: o.admins},
		Webhooks:           o.webhooks,
		ActionsTaskTimeout: o.taskTimeout,
		Log:                Quiet,
	}
	if o.postgres != "" {
		cfg.DB = storetest.TestDatabase(t, o.postgres)
	}
	if o.ssh {
		cfg.SSHAddr = "127.0.0.1:0"
	}
	built, err := node.Build(ctx, cfg)
	if err != nil {
		t.Fatalf("build the node: %v", err)
	}
	t.Cleanup(built.Close)
	n.Node, n.DB = built, cfg.DB
	n.Chain, n.Store, n.Index, n.Forge = built.Chain, built.Store, built.Index, built.Forge
	n.GitStore, n.Blocks, n.Repos, n.auth = built.GitStore, built.Blocks, built.Repos, built.Auth
	h := built.Handler
	// Sign-in accepts the node's configured origins only: here, the
	// test server's own address, as `serve` defaults to its listen address.
	srv := httptest.NewUnstartedServer(nil)
	origins, err := auth.NewOrigins("", nil, srv.Listener.Addr())
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = auth.WithOrigins(h, origins)
	srv.Start()
	t.Cleanup(srv.Close)
	n.URL = srv.URL
	if built.SSH != nil {
		n.SSHAddr = built.SSH.Addr().String()
		built.SSH.SetHTTPURL(srv.URL)
	}
	if err := os.MkdirAll(n.home, 0o755); err != nil {
		t.Fatal(err)
	}
	return n
}

// User is someone signed in on the node, with an access token.
type User struct {
	Address common.Address
	Token   string
	ID      int64
	// Key is the wallet's key, to sign the user's own transactions.
	Key *ecdsa.PrivateKey

	node *Node // whose chain names the user
}

// Name is the user's username: their default name (they claim none) as
// the node's chain gives it: "user-" and 20 hex digits of the address on
// a chain with the own-keys upgrade, 12 on the harness's default chain,
// which keeps the rules before it (the operator relays for anyone).
func (u *User) Name() string {
	if u.node == nil {
		return names.Default(u.Address)
	}
	name, err := u.node.Index.DefaultName(context.Background(), u.Address)
	if err != nil {
		u.node.t.Fatal(err)
	}
	return name
}

// NewUser signs up a new wallet and gives it a token of scopes (write
// when none are given).
func (n *Node) NewUser(scopes ...string) *User {
	n.t.Helper()
	key, _ := crypto.GenerateKey()
	return n.NewUserWith(key, scopes...)
}

// NewUserWith signs up the wallet of key (one a genesis funded, say) as
// NewUser does.
func (n *Node) NewUserWith(key *ecdsa.PrivateKey, scopes ...string) *User {
	n.t.Helper()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	keyring.Store(addr, key)
	return n.UserAt(addr, scopes...)
}

// keyring holds the keys of the wallets NewAddress and NewUserWith made,
// so UserAt can sign their delegations.
var keyring sync.Map // common.Address -> *ecdsa.PrivateKey

// NewAddress is a fresh wallet address, for a user named before the node
// starts (WithAdmins) and signed up with UserAt.
func NewAddress() common.Address {
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	keyring.Store(addr, key)
	return addr
}

// WalletCall makes the request as Call does. When the node answers that
// the action needs u's own signature (403 wallet_signature_required), it
// signs the transaction that answer holds with u's wallet and sends the
// request again with it (X-Dforge-Signed-Tx), as the web app does, and
// returns that answer.
func (n *Node) WalletCall(method, path string, u *User, body any) Response {
	n.t.Helper()
	res := n.Call(method, path, u, body)
	var refusal struct {
		Code string `json:"code"`
		Sign struct {
			Type    string         `json:"type"`
			Message map[string]any `json:"message"`
		} `json:"sign"`
	}
	if res.Status != http.StatusForbidden || json.Unmarshal(res.Body, &refusal) != nil || refusal.Code != forge.CodeSignatureRequired {
		return res
	}
	if u.Key == nil {
		n.t.Fatalf("%s %s needs the wallet's signature, and the user has no key", method, path)
	}
	env, err := tx.Sign(u.Key, tx.Kind(refusal.Sign.Type), refusal.Sign.Message, n.Chain.Params().ChainID)
	if err != nil {
		n.t.Fatalf("sign %s: %v", refusal.Sign.Type, err)
	}
	raw, err := tx.Encode(env)
	if err != nil {
		n.t.Fatal(err)
	}
	return n.CallWith(method, path, u, body, http.Header{"X-Dforge-Signed-Tx": {base64.StdEncoding.EncodeToString(raw)}})
}

// Nonce is the nonce addr's next transaction needs: committed plus
// waiting in the mempool, as a wallet asks its node.
func (n *Node) Nonce(addr common.Address) uint64 {
	n.t.Helper()
	nonce, err := n.Chain.PendingNonce(addr)
	if err != nil {
		n.t.Fatal(err)
	}
	return nonce
}

// delegate signs, as the wallet of key, a delegation of every scope to
// the node's operator key, as a finished sign-in does, and waits for it.
func (n *Node) delegate(key *ecdsa.PrivateKey) {
	n.t.Helper()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	if d, ok, err := n.Chain.Delegation(addr, n.Forge.Operator()); err != nil {
		n.t.Fatal(err)
	} else if ok && d.Expiry > n.Chain.Height()+1000 {
		return
	}
	nonce, err := n.Chain.PendingNonce(addr)
	if err != nil {
		n.t.Fatal(err)
	}
	env, err := tx.Sign(key, tx.KindDelegate, map[string]any{
		"from": addr.Hex(), "delegate": n.Forge.Operator().Hex(), "scopes": strings.Join(delegation.Scopes, ","),
		"expiry": n.Chain.Height() + 1_000_000, "nonce": nonce,
	}, n.Chain.Params().ChainID)
	if err != nil {
		n.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := n.Chain.Submit(ctx, env)
	if err != nil || res.Code != 0 {
		n.t.Fatalf("delegate %s to the node: %v %+v", addr.Hex(), err, res)
	}
}

// UserAt signs up the wallet addr and gives it a token of scopes (write
// when none are given); its Key is nil.
func (n *Node) UserAt(addr common.Address, scopes ...string) *User {
	n.t.Helper()
	if len(scopes) == 0 {
		scopes = []string{"write"}
	}
	ctx := context.Background()
	su, err := n.Store.EnsureUser(ctx, strings.ToLower(addr.Hex()), time.Now())
	if err != nil {
		n.t.Fatal(err)
	}
	// The first token is "test"; another for the same wallet (a token of
	// other scopes) needs a name of its own.
	have, err := n.Store.AccessTokensOf(ctx, su.ID)
	if err != nil {
		n.t.Fatal(err)
	}
	name := "test"
	if len(have) > 0 {
		name = fmt.Sprintf("test-%d", len(have)+1)
	}
	tok, err := n.auth.CreateToken(ctx, auth.User{ID: su.ID, Address: addr}, name, scopes)
	if err != nil {
		n.t.Fatal(err)
	}
	u := &User{Address: addr, Token: tok.Secret, ID: su.ID, node: n}
	if key, ok := keyring.Load(addr); ok {
		u.Key = key.(*ecdsa.PrivateKey)
		n.delegate(u.Key)
	}
	return u
}

// Response is an answer of the API.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode reads the body as JSON into v.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Call sends a request as u (nil: anonymous) with body as JSON (nil: none).
func (n *Node) Call(method, path string, u *User, body any) Response {
	n.t.Helper()
	return n.CallWith(method, path, u, body, nil)
}

// CallWith is Call with extra request headers.
func (n *Node) CallWith(method, path string, u *User, body any, header http.Header) Response {
	n.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			n.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, n.URL+path, rd)
	if err != nil {
		n.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "token "+u.Token)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		n.t.Fatal(err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// JSON sends a request, checks its status is want and decodes the answer
// into out (when not nil).
func (n *Node) JSON(method, path string, u *User, body any, want int, out any) Response {
	n.t.Helper()
	res := n.Call(method, path, u, body)
	if res.Status != want {
		n.t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.Status, want, res.Body)
	}
	if out != nil {
		res.Decode(n.t, out)
	}
	return res
}

// Remote is the clone URL of owner/name, with u's token as the password
// (nil: anonymous).
func (n *Node) Remote(u *User, owner, name string) string {
	base, _ := url.Parse(n.URL)
	base.Path = "/" + owner + "/" + name + ".git"
	if u != nil {
		base.User = url.UserPassword("git", u.Token)
	}
	return base.String()
}

// gitEnv is a git client's environment: no user or system config, no
// prompts, a fixed identity.
func (n *Node) gitEnv() []string {
	return append(gitstore.CleanEnv(os.Environ()),
		"HOME="+n.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_AUTHOR_NAME=Tester", "GIT_AUTHOR_EMAIL=tester@example.org",
		"GIT_COMMITTER_NAME=Tester", "GIT_COMMITTER_EMAIL=tester@example.org")
}

// TryGit runs git in dir and returns its combined output and error.
func (n *Node) TryGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = n.gitEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// Git runs git in dir, failing the test on error, and returns its output.
func (n *Node) Git(dir string, args ...string) string {
	n.t.Helper()
	out, err := n.TryGit(dir, args...)
	if err != nil {
		n.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// GitAt runs git in dir as Git does, with env added (GIT_COMMITTER_DATE,
// say), and returns its output.
func (n *Node) GitAt(dir string, env []string, args ...string) string {
	n.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(n.gitEnv(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		n.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Clone clones remote into a new directory and returns it.
func (n *Node) Clone(remote string, args ...string) string {
	n.t.Helper()
	dir := filepath.Join(n.t.TempDir(), "clone")
	n.Git("", append(append([]string{"clone", "--quiet"}, args...), remote, dir)...)
	return dir
}

// Commit writes files in the work tree dir and commits them, returning
// the commit id.
func (n *Node) Commit(dir, msg string, files map[string]string) string {
	n.t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			n.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			n.t.Fatal(err)
		}
	}
	n.Git(dir, "add", "-A")
	n.Git(dir, "commit", "--quiet", "-m", msg)
	return strings.TrimSpace(n.Git(dir, "rev-parse", "HEAD"))
}

// SignIn starts a browser session for u, as a finished sign-in does, and
// returns the session cookie's value.
func (n *Node) SignIn(u *User) string {
	n.t.Helper()
	secret := fmt.Sprintf("%x", sha256.Sum256([]byte(u.Token+time.Now().String())))
	sum := sha256.Sum256([]byte(secret))
	now := time.Now()
	_, err := n.Store.AddSession(context.Background(), hex.EncodeToString(sum[:]), store.Session{
		UserID: u.ID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(auth.SessionTTL), UserAgent: "forgetest",
	})
	if err != nil {
		n.t.Fatal(err)
	}
	return secret
}

// Long marks a test that starts a whole node (a chain, a store, git), the
// bulk of the suite's time. `make test-short` (go test -short) leaves it
// out for the inner loop; `make test` runs it.
func Long(t testing.TB) {
	t.Helper()
	longtest.Mark(t, "starts a whole node")
}
