package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
)

// childEnv marks the test binary, re-executed, as a dforge process.
const childEnv = "DFORGE_TEST_CLI_CHILD"

// TestMain lets the test binary stand in for the dforge binary: the tests
// run nodes as real child processes (so killing one is a real SIGKILL)
// without a `go build` step, and under -race the nodes are checked too.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild is cmd/dforge's main, plus one thing: the parent holds the
// child's stdin open, so EOF means the test process died (a panic or a
// -timeout) and the node stops instead of outliving it. A git hook the
// node runs (the same binary, `hook <name>`) reads its stdin itself.
func runChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 || os.Args[1] != "hook" {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	if err := Run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dforge:", err)
		return 1
	}
	return 0
}

// nodeProc is a `dforge serve` child process.
type nodeProc struct {
	name string
	url  string // the HTTP API, from the node's start-up line
	rpc  string // CometBFT's RPC, http://host:port (a --home node's)
	cmd  *exec.Cmd
	log  string // the child's stderr
	done chan struct{}
}

// startNodeProc runs `dforge serve --home home` with args (more serve
// flags) and waits for the line that says it listens. The process is
// killed when the test ends.
func startNodeProc(t *testing.T, ctx context.Context, home, name string, args ...string) *nodeProc {
	t.Helper()
	forgetest.Long(t)
	rpc, _, err := node.ListenAddrs(cometHome(home))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--home", home}, args...)...)
	cmd.Env = append(withoutDForgeEnv(os.Environ()), childEnv+"=1")
	if _, err := cmd.StdinPipe(); err != nil { // held open until we exit
		t.Fatal(err)
	}
	p := startProc(t, ctx, name, cmd)
	p.rpc = strings.Replace(rpc, "tcp://", "http://", 1)
	return p
}

// startProc starts cmd, a `dforge serve`, as the node name and waits for
// the line that says it listens. The process is killed when the test ends.
func startProc(t *testing.T, ctx context.Context, name string, cmd *exec.Cmd) *nodeProc {
	t.Helper()
	p := &nodeProc{name: name, cmd: cmd, done: make(chan struct{})}
	p.log = filepath.Join(t.TempDir(), name+".log")
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the child has its own descriptor
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	t.Cleanup(func() { p.report(t) })
	p.url = waitListening(t, ctx, p, stdout)
	return p
}

// waitListening reads the child's stdout until it announces its URL.
func waitListening(t *testing.T, ctx context.Context, p *nodeProc, stdout io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "running at "); ok {
				found <- strings.TrimSpace(url)
				break
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-found:
		return url
	case <-p.done:
		t.Fatalf("%s exited before listening: %s", p.name, p.cmd.ProcessState)
	case <-ctx.Done():
		t.Fatalf("%s did not start: %v", p.name, ctx.Err())
	}
	return ""
}

// kill sends SIGKILL, as a crash or power loss would, and waits for the
// exit. A node leading its own process group takes the git processes it
// started down with it.
func (p *nodeProc) kill() {
	if a := p.cmd.SysProcAttr; a != nil && a.Setpgid {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	} else {
		p.cmd.Process.Kill()
	}
	<-p.done
}

// stop stops the node as SIGTERM does and waits for it.
func (p *nodeProc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not stop on SIGTERM", p.name)
	}
}

// report shows the end of the node's log when the test failed, and fails it
// when the race detector reported a race in the node.
func (p *nodeProc) report(t *testing.T) {
	data, _ := os.ReadFile(p.log)
	if bytes.Contains(data, []byte("WARNING: DATA RACE")) {
		t.Errorf("%s: the race detector reported a race:\n%s", p.name, data)
		return
	}
	if t.Failed() {
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		t.Logf("%s log (last lines):\n%s", p.name, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
}

// withoutDForgeEnv drops DFORGE_* variables, which would override the
// settings the node dirs hold.
func withoutDForgeEnv(env []string) []string {
	kept := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DFORGE_") {
			kept = append(kept, kv)
		}
	}
	return kept
}

// rpcResult calls a CometBFT RPC method over HTTP and decodes its result.
func rpcResult(ctx context.Context, base, path string, result any) error {
	var envelope struct {
		Result json.RawMessage
		Error  *struct{ Message, Data string }
	}
	if err := getJSON(ctx, base+path, &envelope); err != nil {
		return err
	}
	if envelope.Error != nil {
		return fmt.Errorf("%s: %s %s", path, envelope.Error.Message, envelope.Error.Data)
	}
	return json.Unmarshal(envelope.Result, result)
}

func getJSON(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w in %s", url, err, body)
	}
	return nil
}

// eventually polls check until it reports done, and fails the test with the
// last state it described when that takes longer than within.
func eventually(t *testing.T, ctx context.Context, what string, within time.Duration, check func() (state string, done bool)) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		state, done := check()
		if done {
			return state
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("%s: still %s after %v", what, state, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// crUser is a signed-in wallet with a write token.
type crUser struct{ login, token string }

// remote is the URL of the repository name on the node at base, with the
// token as the password.
func (u crUser) remote(base, name string) string {
	r, _ := url.Parse(repoURL(base, u.login, name))
	r.User = url.UserPassword("git", u.token)
	return r.String()
}

func repoURL(base, owner, name string) string {
	return base + "/" + owner + "/" + name + ".git"
}

// crSignIn signs key in with SIWE on the node at base and makes a write token.
func crSignIn(t *testing.T, ctx context.Context, base string, key *ecdsa.PrivateKey) crUser {
	t.Helper()
	return crSignInAt(t, ctx, base, base, key)
}

// crSignInAt signs key in on the node at base whose configured origin
// (--public-url) is origin: the message names origin, as a wallet on that
// page would sign it, and goes to base.
func crSignInAt(t *testing.T, ctx context.Context, base, origin string, key *ecdsa.PrivateKey) crUser {
	t.Helper()
	var nonce struct{ Nonce string }
	if err := getJSON(ctx, base+"/api/v1/auth/nonce", &nonce); err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nSign in to dForge.\n\nURI: %s/\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s",
		strings.TrimPrefix(origin, "http://"), crypto.PubkeyToAddress(key.PublicKey).Hex(), origin, app.DefaultParams().ChainID, nonce.Nonce,
		time.Now().UTC().Format(time.RFC3339))
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[crypto.RecoveryIDOffset] += 27
	res, body := crPost(t, ctx, base+"/api/v1/auth/siwe", nil, "", map[string]string{"message": msg, "signature": hexutil.Encode(sig)})
	var session struct {
		CSRF string `json:"csrfToken"`
		User struct{ Login string }
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &session) != nil {
		t.Fatalf("sign in: %d %s", res.StatusCode, body)
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == auth.CookieName {
			cookie = c
		}
	}
	crDelegate(t, ctx, base, key, cookie)
	res, body = crPost(t, ctx, base+"/api/v1/users/"+session.User.Login+"/tokens", cookie, session.CSRF,
		map[string]any{"name": "git", "scopes": []string{"write"}})
	var tok struct{ SHA1 string }
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &tok) != nil {
		t.Fatalf("create token: %d %s", res.StatusCode, body)
	}
	return crUser{login: session.User.Login, token: tok.SHA1}
}

// crDelegate is sign-in's second signature: the Delegate message the node
// offers, signed by the wallet and submitted to the chain.
func crDelegate(t *testing.T, ctx context.Context, base string, key *ecdsa.PrivateKey, cookie *http.Cookie) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/user/delegation", nil)
	req.AddCookie(cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var ask struct {
		Needed  bool           `json:"needed"`
		Message map[string]any `json:"message"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &ask) != nil {
		t.Fatalf("delegation request: %d %s", res.StatusCode, body)
	}
	if !ask.Needed {
		return
	}
	env, err := tx.Sign(key, tx.KindDelegate, ask.Message, app.DefaultParams().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	// A stalled network commits no delegation: the user's writes are then
	// refused as the network's (503), which the tests of a stall expect.
	if res, body := crPost(t, ctx, base+"/api/v1/chain/txs", nil, "", env); res.StatusCode != http.StatusOK && res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("delegate: %d %s", res.StatusCode, body)
	}
}

// crCreateRepo creates an empty public repository and returns its id.
func crCreateRepo(t *testing.T, ctx context.Context, base string, u crUser, name string) uint64 {
	t.Helper()
	return crNewRepo(t, ctx, base, u, name, false)
}

// crNewRepo creates an empty repository, private or public, and returns
// its id.
func crNewRepo(t *testing.T, ctx context.Context, base string, u crUser, name string, private bool) uint64 {
	t.Helper()
	res, body := crTokenPost(t, ctx, base+"/api/v1/user/repos", u, map[string]any{"name": name, "private": private})
	var repo struct{ ID uint64 }
	if res.StatusCode != http.StatusCreated || json.Unmarshal([]byte(body), &repo) != nil || repo.ID == 0 {
		t.Fatalf("create %s: %d %s", name, res.StatusCode, body)
	}
	return repo.ID
}

func crPost(t *testing.T, ctx context.Context, url string, cookie *http.Cookie, csrf string, body any) (*http.Response, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if cookie != nil {
		req.AddCookie(cookie)
		req.Header.Set(auth.CSRFHeader, csrf)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, out
}

// crWork is a git client's work tree: the git binary run as a user would.
type crWork struct {
	t         *testing.T
	dir, home string
}

func crGitWork(t *testing.T) *crWork {
	w := &crWork{t: t, dir: t.TempDir(), home: t.TempDir()}
	w.run("init", "--quiet", "--initial-branch=main")
	return w
}

func gitEnv(home string) []string {
	return append(gitstore.CleanEnv(os.Environ()), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.org", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.org")
}

func (w *crWork) cmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = w.dir, gitEnv(w.home)
	return cmd
}

func (w *crWork) run(args ...string) string { w.t.Helper(); return w.runIn(w.dir, args...) }

// runIn runs git in dir (a clone, say) as w's user.
func (w *crWork) runIn(dir string, args ...string) string {
	w.t.Helper()
	cmd := w.cmd(context.Background(), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (name -> content) and commits them all.
func (w *crWork) commit(files map[string]string) string {
	w.t.Helper()
	for name, content := range files {
		p := filepath.Join(w.dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
	w.run("add", "-A")
	w.run("commit", "--quiet", "-m", "change")
	return w.run("rev-parse", "HEAD")
}

// push pushes refs to remote; the error is git's failure, if any.
func (w *crWork) push(ctx context.Context, remote string, refs ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := w.cmd(ctx, append([]string{"push", "--porcelain", remote}, refs...)...).CombinedOutput()
	return string(out), err
}

// refs lists branches as ls-remote prints them, sorted by name.
func (w *crWork) refs(branches ...string) string {
	var lines []string
	for _, b := range branches {
		lines = append(lines, w.run("rev-parse", b)+"\trefs/heads/"+b)
	}
	sort.Slice(lines, func(i, j int) bool { return strings.Split(lines[i], "\t")[1] < strings.Split(lines[j], "\t")[1] })
	return strings.Join(lines, "\n")
}

// lsRemote lists a remote's branches, anonymously unless the URL holds a token.
func lsRemote(remote string) (string, error) {
	cmd := exec.Command("git", "ls-remote", "--heads", remote)
	cmd.Env = gitEnv(os.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
	}
	return strings.TrimSpace(string(out)), nil
}

// crTokenPost POSTs body as JSON with u's token.
func crTokenPost(t *testing.T, ctx context.Context, url string, u crUser, body any) (*http.Response, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+u.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, string(out)
}
