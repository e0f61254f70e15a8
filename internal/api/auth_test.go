package api_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/logtest"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/web"
)

const testChainID = 7771

// clock is the auth service's time, moved by the tests. It starts on a TOTP
// step boundary so codes made "now" stay valid for a whole step.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// node is the real HTTP handler over a fresh SQLite store, with a fake
// chain id source and clock instead of a running chain.
type node struct {
	t     *testing.T
	srv   *httptest.Server
	clock *clock
}

type nodeOpts struct {
	signInPerMinute int
	names           auth.Names
	tls             bool
	publicURL       string // the node behind a TLS-terminating proxy
	allowedOrigins  []string
	logs            io.Writer // the node's log, as text; nil drops it
}

func newNode(t *testing.T, opts ...nodeOpts) *node {
	t.Helper()
	forgetest.Long(t)
	var o nodeOpts
	if len(opts) > 0 {
		o = opts[0]
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "api.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := o.logs
	if logs == nil {
		logs = io.Discard
	}
	log := slog.New(slog.NewTextHandler(logs, nil))
	clk := &clock{now: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)}
	svc := auth.New(st, auth.Config{ChainID: testChainID, Names: o.names, Now: clk.Now, Log: log})
	h, err := web.NewHandler(web.Deps{
		Log: log, API: routes.New(log, api.Services{Auth: svc}, "test"), DB: st, Version: "test",
		Dist: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>dForge</title>")}},
		Auth: svc, SignInPerMinute: o.signInPerMinute,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	origins, err := auth.NewOrigins(o.publicURL, o.allowedOrigins, srv.Listener.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if o.tls && o.publicURL == "" {
		origins.Public.Scheme = "https" // what `serve --public-url https://...` would say
	}
	srv.Config.Handler = auth.WithOrigins(h, origins)
	if o.tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return &node{t: t, srv: srv, clock: clk}
}

// host is the node's Host, which SIWE messages must name as their domain.
func (n *node) host() string {
	u, _ := url.Parse(n.srv.URL)
	return u.Host
}

// user is a browser with a wallet: its key signs, and it keeps the session
// cookie and CSRF token the node hands out.
type user struct {
	n       *node
	key     *ecdsa.PrivateKey
	addr    common.Address
	cookie  string
	csrf    string
	login   string
	headers map[string]string // sent with every request (Authorization)
}

func (n *node) newUser() *user {
	key, err := crypto.GenerateKey()
	if err != nil {
		n.t.Fatal(err)
	}
	return &user{n: n, key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// another browser of the same wallet, without a session.
func (u *user) anotherBrowser() *user {
	return &user{n: u.n, key: u.key, addr: u.addr, login: u.login}
}

type response struct {
	*http.Response
	body []byte
}

func (r response) json() map[string]any {
	var v map[string]any
	json.Unmarshal(r.body, &v)
	return v
}

func (r response) code() string {
	c, _ := r.json()["code"].(string)
	return c
}

// do sends a request as u: with its cookie and, on writes, its CSRF token.
func (u *user) do(method, path string, body any, header ...string) response {
	u.n.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, u.n.srv.URL+path, rd)
	if err != nil {
		u.n.t.Fatal(err)
	}
	if u.cookie != "" {
		req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.cookie})
	}
	if u.csrf != "" && method != "GET" {
		req.Header.Set(auth.CSRFHeader, u.csrf)
	}
	for k, v := range u.headers {
		req.Header.Set(k, v)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" { // net/http sends req.Host, not the header
			req.Host = header[i+1]
			continue
		}
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := u.n.srv.Client().Do(req)
	if err != nil {
		u.n.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res, b}
}

// siwe is an EIP-4361 message under construction.
type siwe struct {
	scheme, domain, statement, uri, nonce string
	address                               common.Address
	chainID                               uint64
	issuedAt, expires                     time.Time
}

func (m siwe) String() string {
	var b strings.Builder
	if m.scheme != "" {
		b.WriteString(m.scheme + "://")
	}
	fmt.Fprintf(&b, "%s wants you to sign in with your Ethereum account:\n%s\n\n", m.domain, m.address.Hex())
	if m.statement != "" {
		b.WriteString(m.statement + "\n")
	}
	fmt.Fprintf(&b, "\nURI: %s\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s", m.uri, m.chainID, m.nonce, m.issuedAt.UTC().Format(time.RFC3339Nano))
	if !m.expires.IsZero() {
		fmt.Fprintf(&b, "\nExpiration Time: %s", m.expires.UTC().Format(time.RFC3339))
	}
	return b.String()
}

// message is the message a correct client builds for u, with a fresh nonce.
func (u *user) message() siwe {
	u.n.t.Helper()
	res := u.do("GET", "/api/v1/auth/nonce", nil)
	nonce, _ := res.json()["nonce"].(string)
	if res.StatusCode != 200 || nonce == "" {
		u.n.t.Fatalf("nonce = %d %s", res.StatusCode, res.body)
	}
	scheme := "http"
	if u.n.srv.TLS != nil {
		scheme = "https"
	}
	return siwe{
		domain: u.n.host(), statement: "Sign in to dForge.", uri: scheme + "://" + u.n.host() + "/", nonce: nonce,
		address: u.addr, chainID: testChainID, issuedAt: u.n.clock.Now(),
	}
}

// sign is personal_sign (EIP-191) as a wallet does it, with v = 27 or 28.
func sign(key *ecdsa.PrivateKey, msg string) string {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		panic(err)
	}
	sig[crypto.RecoveryIDOffset] += 27
	return hexutil.Encode(sig)
}

// postSIWE sends a signed message and keeps the session it starts.
func (u *user) postSIWE(msg, signature string) response {
	u.n.t.Helper()
	res := u.do("POST", "/api/v1/auth/siwe", map[string]string{"message": msg, "signature": signature})
	u.keepSession(res)
	return res
}

func (u *user) keepSession(res response) {
	for _, c := range res.Cookies() {
		if c.Name == auth.CookieName {
			u.cookie = c.Value
		}
	}
	body := res.json()
	if csrf, ok := body["csrfToken"].(string); ok {
		u.csrf = csrf
	}
	if usr, ok := body["user"].(map[string]any); ok {
		u.login, _ = usr["login"].(string)
	}
}

// signIn signs u in and fails the test unless a session starts.
func (u *user) signIn() {
	u.n.t.Helper()
	m := u.message().String()
	res := u.postSIWE(m, sign(u.key, m))
	if res.StatusCode != 200 || u.cookie == "" || u.csrf == "" {
		u.n.t.Fatalf("sign in = %d %s", res.StatusCode, res.body)
	}
}

// signedInUser is a new user already signed in.
func (n *node) signedInUser() *user {
	n.t.Helper()
	u := n.newUser()
	u.signIn()
	return u
}

func sessionCookie(res response) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == auth.CookieName {
			return c
		}
	}
	return nil
}

func TestSignInStartsASession(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.newUser()
	m := alice.message().String()
	res := alice.postSIWE(m, sign(alice.key, m))
	if res.StatusCode != 200 {
		t.Fatalf("siwe = %d %s", res.StatusCode, res.body)
	}
	var body struct {
		User      map[string]any
		CSRFToken string
	}
	json.Unmarshal(res.body, &body)
	wantLogin := "user-" + strings.ToLower(alice.addr.Hex()[2:22]) // no index here: the wide default
	if body.User["login"] != wantLogin || body.User["wallet_address"] != alice.addr.Hex() || body.CSRFToken == "" ||
		body.User["email"] != "" || body.User["two_factor_enabled"] != false || body.User["created"] != "2030-01-01T12:00:00Z" {
		t.Fatalf("siwe body = %s", res.body)
	}

	// The cookie is HttpOnly, SameSite=Lax, for the whole site, for 30 days,
	// and not Secure over plain HTTP.
	c := sessionCookie(res)
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure || c.MaxAge != 30*24*3600 {
		t.Fatalf("cookie = %+v (Set-Cookie %q)", c, res.Header.Values("Set-Cookie"))
	}

	// The cookie alone is the session; the CSRF token comes back with it.
	res = alice.do("GET", "/api/v1/auth/session", nil)
	if res.StatusCode != 200 || !strings.Contains(string(res.body), `"csrfToken":"`+body.CSRFToken+`"`) {
		t.Fatalf("session = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("GET", "/api/v1/user", nil); res.StatusCode != 200 || res.json()["login"] != wantLogin {
		t.Fatalf("user = %d %s", res.StatusCode, res.body)
	}
	// Signed-in requests still count under their route in the metrics.
	if res := alice.do("GET", "/metrics", nil); !strings.Contains(string(res.body), `route="GET /api/v1/user"`) {
		t.Fatalf("metrics lost the route of a signed-in request")
	}

	// Signing in again from another browser finds the same user.
	again := alice.anotherBrowser()
	again.signIn()
	if again.cookie == alice.cookie || again.csrf == alice.csrf || again.login != wantLogin {
		t.Fatalf("second sign-in reused the session or changed the user")
	}
}

func TestSessionCookieIsSecureOverTLS(t *testing.T) {
	t.Parallel()
	n := newNode(t, nodeOpts{tls: true})
	alice := n.newUser()
	m := alice.message().String()
	res := alice.postSIWE(m, sign(alice.key, m))
	if c := sessionCookie(res); res.StatusCode != 200 || c == nil || !c.Secure || !c.HttpOnly {
		t.Fatalf("siwe over TLS = %d %s, cookie %+v", res.StatusCode, res.body, c)
	}
}

// Behind a proxy that ends TLS, the node sees plain HTTP but browsers sign
// for the public origin: messages must name it, and the cookie is Secure.
func TestSignInBehindAProxyUsesThePublicOrigin(t *testing.T) {
	t.Parallel()
	n := newNode(t, nodeOpts{publicURL: "https://forge.example.org"})
	alice := n.newUser()
	local := alice.message()
	if res := alice.postSIWE(local.String(), sign(alice.key, local.String())); res.StatusCode != 401 || res.code() != "siwe_domain_mismatch" {
		t.Fatalf("a message for the node's own address = %d %s, want 401 siwe_domain_mismatch", res.StatusCode, res.body)
	}
	public := alice.message()
	public.domain, public.uri = "forge.example.org", "https://forge.example.org/"
	res := alice.postSIWE(public.String(), sign(alice.key, public.String()))
	if c := sessionCookie(res); res.StatusCode != 200 || c == nil || !c.Secure {
		t.Fatalf("a message for the public origin = %d %s, cookie %+v", res.StatusCode, res.body, c)
	}
}

func TestOriginsMustBeOrigins(t *testing.T) {
	t.Parallel()
	listen := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3000}
	for _, bad := range []string{"forge.example.org", "ftp://forge.example.org", "https://", "https://forge.example.org/sub",
		"https://u:p@forge.example.org", "https://forge.example.org?x=1"} {
		if _, err := auth.NewOrigins(bad, nil, listen); err == nil {
			t.Errorf("NewOrigins accepted the public URL %q", bad)
		}
		if _, err := auth.NewOrigins("", []string{bad}, listen); err == nil {
			t.Errorf("NewOrigins accepted the allowed origin %q", bad)
		}
	}
}

// The phishing attack of issue 11: a page on evil.example fetches a real
// nonce, has the victim sign a message for evil.example, and posts it with
// Host: evil.example. The node's origins are its configuration, so the
// Host header cannot make it accept the message.
func TestSignInRefusesAnotherDomainWhateverTheHostHeader(t *testing.T) {
	t.Parallel()
	var logs logtest.Buffer
	n := newNode(t, nodeOpts{logs: &logs})
	victim := n.newUser()
	m := victim.message()
	m.domain, m.uri = "evil.example", "http://evil.example/"
	res := victim.do("POST", "/api/v1/auth/siwe", map[string]string{"message": m.String(), "signature": sign(victim.key, m.String())},
		"Host", "evil.example")
	if res.StatusCode != 401 || res.code() != "siwe_domain_mismatch" || sessionCookie(res) != nil {
		t.Fatalf("a message for evil.example sent with Host evil.example = %d %s, cookie %v; want 401 siwe_domain_mismatch and no session",
			res.StatusCode, res.body, sessionCookie(res))
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "claimed=evil.example") {
		t.Fatalf("the refusal was not logged at warn with the claimed domain:\n%s", logs.String())
	}
	// The victim's own sign-in on the real node still works.
	victim.signIn()
}

// A node on a loopback address answers to each loopback name, and an
// operator can allow more origins (a dev proxy); nothing else passes.
func TestSignInAcceptsTheConfiguredOrigins(t *testing.T) {
	t.Parallel()
	n := newNode(t, nodeOpts{allowedOrigins: []string{"http://localhost:5173"}})
	_, port, _ := net.SplitHostPort(n.host())
	for _, tc := range []struct {
		host string
		want int
	}{
		{"localhost:" + port, 200},
		{"[::1]:" + port, 200},
		{"localhost:5173", 200},
		{"127.0.0.1:5173", 401},
		{"localhost:" + port + "0", 401},
	} {
		u := n.newUser()
		m := u.message()
		m.domain, m.uri = tc.host, "http://"+tc.host+"/"
		if res := u.postSIWE(m.String(), sign(u.key, m.String())); res.StatusCode != tc.want {
			t.Errorf("a message for %s = %d %s, want %d", tc.host, res.StatusCode, res.body, tc.want)
		}
	}
}

func TestCookieWritesNeedTheCSRFToken(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	patch := map[string]string{"location": "Lisbon"}
	for name, token := range map[string]string{"missing": "", "wrong": strings.Repeat("0", 64)} {
		res := alice.do("PATCH", "/api/v1/user/settings", patch, auth.CSRFHeader, token)
		if res.StatusCode != 403 || res.code() != "csrf_invalid" || res.json()["message"] == "" {
			t.Errorf("%s CSRF token: %d %s, want 403 csrf_invalid", name, res.StatusCode, res.body)
		}
	}
	if res := alice.do("GET", "/api/v1/user", nil); res.json()["location"] != "" {
		t.Fatalf("a refused write changed the profile: %s", res.body)
	}
	if res := alice.do("PATCH", "/api/v1/user/settings", patch); res.StatusCode != 200 || res.json()["location"] != "Lisbon" {
		t.Fatalf("write with the token = %d %s", res.StatusCode, res.body)
	}
	// Signing in again needs no token: a browser that lost it can still sign in.
	m := alice.message().String()
	if res := alice.postSIWE(m, sign(alice.key, m)); res.StatusCode != 200 {
		t.Fatalf("sign in with a session but no CSRF token = %d %s", res.StatusCode, res.body)
	}
}

func TestLogoutEndsTheSession(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	res := alice.do("POST", "/api/v1/auth/logout", nil)
	if c := sessionCookie(res); res.StatusCode != 204 || c == nil || c.MaxAge >= 0 {
		t.Fatalf("logout = %d, cookie %+v", res.StatusCode, c)
	}
	// The old cookie no longer works even if a browser kept it.
	res = alice.do("GET", "/api/v1/auth/session", nil)
	if res.StatusCode != 401 || res.code() != "unauthenticated" {
		t.Fatalf("session after logout = %d %s", res.StatusCode, res.body)
	}
}

func TestSignInRejections(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.newUser()
	mallory := n.newUser()

	// A message that signed in once, for the replay.
	used := alice.message().String()
	usedSig := sign(alice.key, used)
	if res := alice.anotherBrowser().postSIWE(used, usedSig); res.StatusCode != 200 {
		t.Fatalf("first use = %d %s", res.StatusCode, res.body)
	}

	type attempt struct{ msg, sig string }
	signed := func(change func(*siwe)) attempt {
		m := alice.message()
		change(&m)
		return attempt{m.String(), sign(alice.key, m.String())}
	}
	cases := map[string]struct {
		attempt
		code, says string
	}{
		"replayed message":   {attempt{used, usedSig}, "siwe_nonce_invalid", "already used"},
		"another domain":     {signed(func(m *siwe) { m.domain = "evil.example" }), "siwe_domain_mismatch", "another site"},
		"another port":       {signed(func(m *siwe) { m.domain = "127.0.0.1:1" }), "siwe_domain_mismatch", "another site"},
		"https scheme":       {signed(func(m *siwe) { m.scheme = "https" }), "siwe_domain_mismatch", "another site"},
		"another uri":        {signed(func(m *siwe) { m.uri = "http://evil.example/" }), "siwe_uri_mismatch", "web address"},
		"uri over https":     {signed(func(m *siwe) { m.uri = "https://" + n.host() + "/" }), "siwe_uri_mismatch", "web address"},
		"another chain":      {signed(func(m *siwe) { m.chainID = 1 }), "siwe_chain_mismatch", "another chain"},
		"unknown nonce":      {signed(func(m *siwe) { m.nonce = "0123456789abcdef" }), "siwe_nonce_invalid", "did not issue"},
		"expired message":    {signed(func(m *siwe) { m.expires = m.issuedAt.Add(-time.Second) }), "siwe_expired", "expired"},
		"old message":        {signed(func(m *siwe) { m.issuedAt = m.issuedAt.Add(-time.Hour) }), "siwe_expired", "expired"},
		"issued in future":   {signed(func(m *siwe) { m.issuedAt = m.issuedAt.Add(time.Hour) }), "siwe_not_yet_valid", "clock"},
		"malformed message":  {signed(func(m *siwe) { m.statement = "Sign in\tplease" }), "siwe_invalid_message", "line 4"},
		"someone else signs": {func() attempt { a := signed(func(*siwe) {}); a.sig = sign(mallory.key, a.msg); return a }(), "siwe_bad_signature", "signature"},
		"message edited after signing": {func() attempt {
			a := signed(func(*siwe) {})
			a.msg = strings.Replace(a.msg, "Sign in to dForge.", "Sign in to dForge!", 1)
			return a
		}(), "siwe_bad_signature", "signature"},
		"garbage signature": {func() attempt { a := signed(func(*siwe) {}); a.sig = "0x1234"; return a }(), "siwe_bad_signature", "signature"},
	}
	for name, c := range cases {
		res := n.newUser().postSIWE(c.msg, c.sig)
		msg, _ := res.json()["message"].(string)
		if res.StatusCode != 401 || res.code() != c.code || !strings.Contains(msg, c.says) || sessionCookie(res) != nil {
			t.Errorf("%s: %d %s, want 401 %s saying %q and no cookie", name, res.StatusCode, res.body, c.code, c.says)
		}
	}
	// A failed attempt does not use up its nonce: the same message, fixed, signs in.
	m := alice.message()
	bad := m
	bad.chainID = 1
	alice.postSIWE(bad.String(), sign(alice.key, bad.String()))
	if res := alice.postSIWE(m.String(), sign(alice.key, m.String())); res.StatusCode != 200 {
		t.Fatalf("sign in after a failed attempt = %d %s", res.StatusCode, res.body)
	}
}

func TestExpiredNonceIsRefused(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.newUser()
	m := alice.message()
	n.clock.Advance(auth.NonceTTL + time.Second)
	m.issuedAt = n.clock.Now() // a fresh message, but its nonce is stale
	res := alice.postSIWE(m.String(), sign(alice.key, m.String()))
	if res.StatusCode != 401 || res.code() != "siwe_nonce_invalid" || !strings.Contains(res.json()["message"].(string), "expired") {
		t.Fatalf("expired nonce = %d %s", res.StatusCode, res.body)
	}
}

func TestSignInIsRateLimited(t *testing.T) {
	t.Parallel()
	n := newNode(t, nodeOpts{signInPerMinute: 3})
	alice := n.newUser()
	for i := range 3 {
		if res := alice.do("GET", "/api/v1/auth/nonce", nil); res.StatusCode != 200 {
			t.Fatalf("nonce %d = %d %s", i, res.StatusCode, res.body)
		}
	}
	res := alice.do("GET", "/api/v1/auth/nonce", nil)
	if res.StatusCode != 429 || res.code() != "rate_limited" || res.Header.Get("Retry-After") == "" || res.Header.Get("Retry-After") == "0" {
		t.Fatalf("fourth nonce = %d %s Retry-After %q", res.StatusCode, res.body, res.Header.Get("Retry-After"))
	}
	res = alice.do("POST", "/api/v1/auth/siwe", map[string]string{"message": "x", "signature": "0x"})
	for i := 0; i < 3 && res.StatusCode != 429; i++ {
		res = alice.do("POST", "/api/v1/auth/siwe", map[string]string{"message": "x", "signature": "0x"})
	}
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("sign-in attempts were not limited: %d %s", res.StatusCode, res.body)
	}
}

func TestAnonymousAndBadCredentials(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	anon := n.newUser()
	for _, path := range []string{"/api/v1/user", "/api/v1/auth/session", "/api/v1/user/sessions", "/api/v1/user/2fa"} {
		if res := anon.do("GET", path, nil); res.StatusCode != 401 || res.code() != "unauthenticated" {
			t.Errorf("GET %s anonymously = %d %s", path, res.StatusCode, res.body)
		}
	}
	cases := map[string]struct{ header, code string }{
		"unknown token":  {"token " + strings.Repeat("ab", 20), "invalid_token"},
		"not a token":    {"token hunter2", "invalid_token"},
		"unknown scheme": {"Digest abc", "invalid_authorization"},
		"broken basic":   {"Basic !!!", "invalid_authorization"},
	}
	for name, c := range cases {
		if res := anon.do("GET", "/api/v1/version", nil, "Authorization", c.header); res.StatusCode != 401 || res.code() != c.code {
			t.Errorf("%s: %d %s, want 401 %s", name, res.StatusCode, res.body, c.code)
		}
	}
	// A cookie naming no session is simply anonymous.
	anon.cookie = "stale"
	if res := anon.do("GET", "/api/v1/version", nil); res.StatusCode != 200 {
		t.Fatalf("stale cookie on a public route = %d %s", res.StatusCode, res.body)
	}
}
