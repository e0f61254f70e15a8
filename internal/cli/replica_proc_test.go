package cli

import (
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
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/gitstore"
)

// TestReplicationAcrossTwoNodes runs a two-validator testnet as processes:
// a repository pushed to node0 with the git binary clones from node1
// within seconds, with the same refs and a clean fsck; a second push
// follows; a private repository never reaches node1.
func TestReplicationAcrossTwoNodes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(ctx, []string{"testnet", "--validators", "2", "--out", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	nodes := make([]*nodeProc, 2)
	started := make(chan struct{})
	go func() { // both must run for blocks to commit
		defer close(started)
		nodes[1] = startNodeProc(t, ctx, node.TestnetHome(dir, 1), "node1")
	}()
	nodes[0] = startNodeProc(t, ctx, node.TestnetHome(dir, 0), "node0")
	<-started
	if nodes[1] == nil {
		t.FailNow()
	}
	eventually(t, ctx, "2 validators connected", time.Minute, func() (string, bool) { return connected(ctx, nodes, 1) })

	// 1. Alice signs in on node0, creates demo and pushes two branches.
	alice := signIn(t, ctx, nodes[0])
	createRepo(t, ctx, nodes[0], alice, "demo", false)
	work := gitWork(t)
	work.commit("README.md", "# demo\n")
	work.run("branch", "dev")
	work.commit("main.go", "package main\n")
	work.run("push", "--quiet", alice.remote(nodes[0], "demo"), "main", "dev")
	want := work.refs("main", "dev")

	// 2. node1 serves it soon after, as pushed.
	start := time.Now()
	anon := repoURL(nodes[1], alice.login, "demo")
	eventually(t, ctx, "node1 serves demo", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(anon)
		return got + fmt.Sprint(err), err == nil && got == want
	})
	t.Logf("replicated to node1 %v after the push", time.Since(start))
	clone := filepath.Join(t.TempDir(), "clone")
	work.run("clone", "--quiet", "--mirror", anon, clone)
	work.runIn(clone, "fsck", "--strict", "--no-dangling")

	// 3. A second push follows.
	tip := work.commit("main.go", "package main\n\nfunc main() {}\n")
	work.run("push", "--quiet", alice.remote(nodes[0], "demo"), "main")
	want = work.refs("main", "dev")
	eventually(t, ctx, "node1 has the second push", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(anon)
		return got + fmt.Sprint(err), err == nil && got == want
	})
	work.runIn(clone, "fetch", "--quiet")
	if got := work.runIn(clone, "rev-parse", "main"); got != tip {
		t.Fatalf("node1's main is %s, want %s", got, tip)
	}
	work.runIn(clone, "fsck", "--strict", "--no-dangling")

	// 4. A private repository stays on node0: node1 has no git data for it
	// once it has replicated a public one created after it.
	createRepo(t, ctx, nodes[0], alice, "secret", true)
	work.run("push", "--quiet", alice.remote(nodes[0], "secret"), "main")
	createRepo(t, ctx, nodes[0], alice, "later", false)
	work.run("push", "--quiet", alice.remote(nodes[0], "later"), "main")
	eventually(t, ctx, "node1 serves later", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(repoURL(nodes[1], alice.login, "later"))
		return got + fmt.Sprint(err), err == nil && got != ""
	})
	repos, _ := filepath.Glob(filepath.Join(node.TestnetHome(dir, 1), "git", "*", "*.git"))
	if len(repos) != 2 {
		t.Fatalf("node1 holds %d repositories, want demo and later: %v", len(repos), repos)
	}
	if out, err := lsRemote(alice.remote(nodes[1], "secret")); err == nil {
		t.Fatalf("node1 serves the private repository: %s", out)
	}
}

// person is someone signed in with a write token.
type person struct {
	login, token string
}

// remote is owner/name's URL on n with the token as the password.
func (p person) remote(n *nodeProc, name string) string {
	u, _ := url.Parse(repoURL(n, p.login, name))
	u.User = url.UserPassword("git", p.token)
	return u.String()
}

func repoURL(n *nodeProc, owner, name string) string {
	return n.url + "/" + owner + "/" + name + ".git"
}

// signIn signs a new wallet in on n with SIWE and makes a write token.
func signIn(t *testing.T, ctx context.Context, n *nodeProc) person {
	t.Helper()
	key, _ := crypto.GenerateKey()
	var nonce struct{ Nonce string }
	if err := getJSON(ctx, n.url+"/api/v1/auth/nonce", &nonce); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(n.url, "http://")
	msg := fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nSign in to dForge.\n\nURI: %s/\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s",
		host, crypto.PubkeyToAddress(key.PublicKey).Hex(), n.url, app.DefaultParams().ChainID, nonce.Nonce, time.Now().UTC().Format(time.RFC3339))
	res, body := postJSON(t, ctx, n.url+"/api/v1/auth/siwe", nil, "", map[string]string{"message": msg, "signature": signText(key, msg)})
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
	res, body = postJSON(t, ctx, n.url+"/api/v1/users/"+session.User.Login+"/tokens", cookie, session.CSRF,
		map[string]any{"name": "git", "scopes": []string{"write"}})
	var tok struct{ SHA1 string }
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &tok) != nil {
		t.Fatalf("create token: %d %s", res.StatusCode, body)
	}
	return person{login: session.User.Login, token: tok.SHA1}
}

func signText(key *ecdsa.PrivateKey, msg string) string {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		panic(err)
	}
	sig[crypto.RecoveryIDOffset] += 27
	return hexutil.Encode(sig)
}

func createRepo(t *testing.T, ctx context.Context, n *nodeProc, p person, name string, private bool) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", n.url+"/api/v1/user/repos", strings.NewReader(fmt.Sprintf(`{"name":%q,"private":%t}`, name, private)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+p.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if body, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusCreated {
		t.Fatalf("create %s: %d %s", name, res.StatusCode, body)
	}
}

func postJSON(t *testing.T, ctx context.Context, url string, cookie *http.Cookie, csrf string, body any) (*http.Response, []byte) {
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

// gitClient runs the git binary as a user would, in a work tree.
type gitClient struct {
	t    *testing.T
	dir  string
	home string
}

func gitWork(t *testing.T) *gitClient {
	g := &gitClient{t: t, dir: t.TempDir(), home: t.TempDir()}
	g.run("init", "--quiet", "--initial-branch=main")
	return g
}

func gitEnv(home string) []string {
	return append(gitstore.CleanEnv(os.Environ()), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.org", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.org")
}

func (g *gitClient) run(args ...string) string { g.t.Helper(); return g.runIn(g.dir, args...) }

func (g *gitClient) runIn(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, gitEnv(g.home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (g *gitClient) commit(name, content string) string {
	g.t.Helper()
	if err := os.WriteFile(filepath.Join(g.dir, name), []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
	g.run("add", "-A")
	g.run("commit", "--quiet", "-m", "change "+name)
	return g.run("rev-parse", "HEAD")
}

// refs lists branches as ls-remote prints them, sorted by name.
func (g *gitClient) refs(branches ...string) string {
	var lines []string
	for _, b := range branches {
		lines = append(lines, g.run("rev-parse", b)+"\trefs/heads/"+b)
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
