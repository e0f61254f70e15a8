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
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/crash"
	"github.com/dforge/dforge/internal/gitstore"
)

// TestPushSurvivesAKillAtEachStep kills a node (dforge serve, built with
// go build, and every git process it started) with SIGKILL at each step
// of a push: before the hooks, in pre-receive once the objects are
// staged, once the chain has committed the ref updates, and while the
// objects become blocks. After each restart nothing acknowledged is lost,
// the repository's refs are the chain's, every object they reach is in
// the blockstore, git's fsck is clean and nothing of the crash is left.
func TestPushSurvivesAKillAtEachStep(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "dforge")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/dforge/dforge/cmd/dforge").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := t.TempDir()

	// A public repository with a first push.
	n := startCrashNode(t, ctx, bin, data, "")
	key, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, n.url, key)
	id := crCreateRepo(t, ctx, n.url, alice, "demo")
	repoDir := filepath.Join(data, "git", strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()), fmt.Sprint(id)+".git")
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	if out, err := work.push(ctx, alice.remote(n.url, "demo"), "main"); err != nil {
		t.Fatalf("first push: %v\n%s", err, out)
	}
	n.stop(t)

	for i, step := range []string{crash.BeforeHooks, crash.PreReceive, crash.ChainCommitted, crash.BlockStorage} {
		t.Run(step, func(t *testing.T) {
			// 1. A push that kills the node at step.
			n := startCrashNode(t, ctx, bin, data, step)
			files := map[string]string{fmt.Sprintf("src/step%d.go", i): fmt.Sprintf("package src\n\n// %s\nconst Step = %d\n", step, i)}
			for j := range 20 { // enough objects for the block worker to be caught storing them
				files[fmt.Sprintf("data/%s/%d.txt", step, j)] = strings.Repeat(fmt.Sprintf("%s %d\n", step, j), 50+j)
			}
			tip := work.commit(files)
			branch := "topic-" + step
			work.run("branch", "-f", branch)
			out, pushErr := work.push(ctx, alice.remote(n.url, "demo"), "main", branch)
			select {
			case <-n.done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the node did not die at %s; push: %v\n%s", step, pushErr, out)
			}
			var left []string
			for _, pattern := range []string{"git/*/*.git/objects/tmp_objdir-*", "git/*/*.git/dforge-push-*", "blocks/.queue/*.json"} {
				found, _ := filepath.Glob(filepath.Join(data, pattern))
				for _, f := range found {
					left = append(left, strings.TrimPrefix(f, data+"/"))
				}
			}
			t.Logf("push killed at %s: acknowledged %v; main here %s; left %v", step, pushErr == nil, crLocalRefs(t, repoDir)["refs/heads/main"], left)

			// 2. Restarted, it settles its queue and stops.
			n = startCrashNode(t, ctx, bin, data, "")
			eventually(t, ctx, "the block queue to empty", time.Minute, func() (string, bool) {
				jobs, _ := filepath.Glob(filepath.Join(data, "blocks", ".queue", "*.json"))
				return fmt.Sprint(jobs), len(jobs) == 0
			})
			n.stop(t)

			// 3. The chain and git agree; what was acknowledged is there.
			chain := crChainRefs(t, data, id)
			local := crLocalRefs(t, repoDir)
			if fmt.Sprint(chain) != fmt.Sprint(local) {
				t.Fatalf("after a kill at %s the refs differ:\nchain %v\ngit   %v", step, chain, local)
			}
			if pushErr == nil && (chain["refs/heads/main"] != tip || chain["refs/heads/"+branch] != tip) {
				t.Fatalf("an acknowledged push is lost: chain %v, pushed %s", chain, tip)
			}
			if took := chain["refs/heads/main"] == tip; took != (step == crash.ChainCommitted || step == crash.BlockStorage) {
				t.Fatalf("after a kill at %s the chain has the push: %v (%v)", step, took, chain)
			}
			// 4. Every object of the chain's refs is a block.
			var tips []string
			for _, v := range chain {
				tips = append(tips, v)
			}
			objects := strings.Fields(crGit(t, repoDir, append([]string{"rev-list", "--objects", "--no-object-names"}, tips...)...))
			for _, o := range objects {
				if _, err := os.Stat(filepath.Join(data, "blocks", o[:2], o[2:])); err != nil {
					t.Fatalf("object %s of the chain's refs is not in the blockstore", o)
				}
			}
			// 5. git is sound and nothing of the crash is left.
			crGit(t, repoDir, "fsck", "--strict", "--no-dangling")
			for _, pattern := range []string{
				"git/*/*.git/objects/tmp_objdir-*", "git/*/*.git/dforge-push-*", "git/*/*.git/*.lock", "git/*/*.git/refs/heads/*.lock",
				"git/*/*.git/objects/pack/*.keep", "git/*/.new-*", "blocks/.queue/.new-*", "blocks/??/.put-*",
			} {
				if left, _ := filepath.Glob(filepath.Join(data, pattern)); len(left) > 0 {
					t.Errorf("left after a kill at %s: %v", step, left)
				}
			}
		})
		if t.Failed() {
			return
		}
	}
}

// crashNode is a `dforge serve` process leading its own process group, so
// that a crash point takes the git processes it started down with it.
type crashNode struct {
	url  string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

func startCrashNode(t *testing.T, ctx context.Context, bin, data, crashAt string) *crashNode {
	t.Helper()
	n := &crashNode{done: make(chan struct{}), log: filepath.Join(t.TempDir(), "node.log")}
	logFile, err := os.Create(n.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	n.cmd = exec.Command(bin, "serve", "--data", data, "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--p2p-listen", "/ip4/127.0.0.1/tcp/0")
	n.cmd.Env = withoutDForgeEnv(os.Environ())
	if crashAt != "" {
		n.cmd.Env = append(n.cmd.Env, crash.Env+"="+crashAt)
	}
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	n.cmd.Stderr = logFile
	stdout, err := n.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		n.cmd.Wait()
		close(n.done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
		<-n.done
		if t.Failed() {
			data, _ := os.ReadFile(n.log)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			t.Logf("node log (last lines):\n%s", strings.Join(lines[max(0, len(lines)-20):], "\n"))
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "running at "); ok {
				found <- strings.TrimSpace(u)
			}
		}
	}()
	select {
	case n.url = <-found:
	case <-n.done:
		data, _ := os.ReadFile(n.log)
		t.Fatalf("the node exited before listening: %s\n%s", n.cmd.ProcessState, data)
	case <-ctx.Done():
		t.Fatal("the node did not start")
	}
	return n
}

// stop stops the node as SIGTERM does and waits for it.
func (n *crashNode) stop(t *testing.T) {
	t.Helper()
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the node did not stop on SIGTERM")
	}
}

// crUser is a signed-in wallet with a write token.
type crUser struct{ login, token string }

func (u crUser) remote(base, name string) string {
	r, _ := url.Parse(base + "/" + u.login + "/" + name + ".git")
	r.User = url.UserPassword("git", u.token)
	return r.String()
}

// crSignIn signs key in with SIWE and makes a write token.
func crSignIn(t *testing.T, ctx context.Context, base string, key *ecdsa.PrivateKey) crUser {
	t.Helper()
	var nonce struct{ Nonce string }
	if err := getJSON(ctx, base+"/api/v1/auth/nonce", &nonce); err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nSign in to dForge.\n\nURI: %s/\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s",
		strings.TrimPrefix(base, "http://"), crypto.PubkeyToAddress(key.PublicKey).Hex(), base, app.DefaultParams().ChainID, nonce.Nonce,
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
	res, body = crPost(t, ctx, base+"/api/v1/users/"+session.User.Login+"/tokens", cookie, session.CSRF,
		map[string]any{"name": "git", "scopes": []string{"write"}})
	var tok struct{ SHA1 string }
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &tok) != nil {
		t.Fatalf("create token: %d %s", res.StatusCode, body)
	}
	return crUser{login: session.User.Login, token: tok.SHA1}
}

// crCreateRepo creates an empty public repository and returns its id.
func crCreateRepo(t *testing.T, ctx context.Context, base string, u crUser, name string) uint64 {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/user/repos", strings.NewReader(fmt.Sprintf(`{"name":%q}`, name)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+u.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var repo struct{ ID uint64 }
	if res.StatusCode != http.StatusCreated || json.Unmarshal(body, &repo) != nil || repo.ID == 0 {
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

// crChainRefs reads the repository's refs from the stopped node's chain
// state.
func crChainRefs(t *testing.T, data string, repo uint64) map[string]string {
	t.Helper()
	st, err := state.Open(filepath.Join(data, "chain", "app"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	refs, err := chainforge.Refs(st, repo)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range refs {
		out[r.Name] = r.ID
	}
	return out
}

func crLocalRefs(t *testing.T, dir string) map[string]string {
	t.Helper()
	refs, err := gitstore.Refs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range refs {
		out[r.Name] = r.ID
	}
	return out
}

func crGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := gitstore.Command(context.Background(), dir, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// crWork is a git client's work tree.
type crWork struct {
	t         *testing.T
	dir, home string
}

func crGitWork(t *testing.T) *crWork {
	w := &crWork{t: t, dir: t.TempDir(), home: t.TempDir()}
	w.run("init", "--quiet", "--initial-branch=main")
	return w
}

func (w *crWork) cmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = w.dir
	cmd.Env = append(gitstore.CleanEnv(os.Environ()), "HOME="+w.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.org", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.org")
	return cmd
}

func (w *crWork) run(args ...string) string {
	w.t.Helper()
	out, err := w.cmd(context.Background(), args...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

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
