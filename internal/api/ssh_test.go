package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// addKey registers a new key for u and returns its private key file and id.
func addKey(t *testing.T, n *forgetest.Node, u *forgetest.User) (string, int64) {
	t.Helper()
	private, pub := n.SSHKey()
	k := walletAddKey(t, n, u, "key", pub)
	return private, k.ID
}

// walletAddKey adds an SSH key as the web app does: adding a key is never
// delegated, so the node hands the action to the user's wallet to sign
// (403 wallet_signature_required with the transaction), which submits it.
func walletAddKey(t *testing.T, n *forgetest.Node, u *forgetest.User, title, pub string) keyOut {
	t.Helper()
	if res := n.Call("POST", "/api/v1/user/keys", u, map[string]any{"title": title, "key": pub}); res.Status != http.StatusForbidden ||
		!strings.Contains(string(res.Body), `"wallet_signature_required"`) || !strings.Contains(string(res.Body), `"sign"`) {
		t.Fatalf("a delegate adding a key: %d %s", res.Status, res.Body)
	}
	res := n.WalletCall("POST", "/api/v1/user/keys", u, map[string]any{"title": title, "key": pub})
	var k keyOut
	if res.Status != http.StatusCreated || json.Unmarshal(res.Body, &k) != nil || k.Title != title {
		t.Fatalf("the wallet adding a key: %d %s", res.Status, res.Body)
	}
	return k
}

// Git over SSH with the git binary and OpenSSH's client: a key registered
// through the API clones and pushes (the push on chain, as over HTTP),
// the same permission checks as HTTP hold (no push without write, a
// private repository is "not found" to others), git archive --remote
// works, and a key deleted on chain stops working.
func TestGitOverSSH(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t, forgetest.WithSSH())
	alice, bob := n.NewUser(), n.NewUser()
	aliceKey, aliceKeyID := addKey(t, n, alice)
	bobKey, _ := addKey(t, n, bob)
	r := create(t, n, alice, "hello", false)
	create(t, n, alice, "secret", true)
	var got struct {
		SSHURL string `json:"ssh_url"`
	}
	n.JSON("GET", repoPath(alice, "hello"), nil, nil, http.StatusOK, &got)
	_, port, _ := strings.Cut(n.SSHAddr, ":")
	if want := "ssh://git@127.0.0.1:" + port + "/" + r.FullName + ".git"; got.SSHURL != want {
		t.Fatalf("ssh_url %q, want %q", got.SSHURL, want)
	}

	// 1. Clone and push as alice; the push is on chain and in the API.
	dir := filepath.Join(t.TempDir(), "hello")
	n.GitSSH("", aliceKey, "clone", "--quiet", got.SSHURL, dir)
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatalf("clone has no README: %v", err)
	}
	sha := n.Commit(dir, "over ssh", map[string]string{"ssh.txt": "hello over ssh\n"})
	n.GitSSH(dir, aliceKey, "push", "--quiet", "origin", "HEAD:main")
	var branch struct {
		Commit struct {
			ID string `json:"id"`
		} `json:"commit"`
	}
	n.JSON("GET", repoPath(alice, "hello")+"/branches/main", nil, nil, http.StatusOK, &branch)
	if branch.Commit.ID != sha {
		t.Fatalf("main is %s after the push, want %s", branch.Commit.ID, sha)
	}
	// The push is on chain, in alice's name, as an HTTP push is: after
	// the README's, a second push of main.
	var activity []struct {
		Type  string `json:"type"`
		Ref   string `json:"ref"`
		Actor struct {
			Address string `json:"address"`
		} `json:"actor"`
		Height int64 `json:"height"`
	}
	n.JSON("GET", "/api/v1/activity?limit=50", nil, nil, http.StatusOK, &activity)
	pushes := 0
	for _, a := range activity {
		if a.Type == "push" && a.Ref == "refs/heads/main" && strings.EqualFold(a.Actor.Address, alice.Address.Hex()) && a.Height > 0 {
			pushes++
		}
	}
	if pushes != 2 {
		t.Fatalf("no push by alice on chain: %+v", activity)
	}
	// The path may come without its leading slash and .git (scp form).
	scp := "git@127.0.0.1:" + r.FullName
	ls := exec.Command("git", "ls-remote", scp, "refs/heads/main")
	ls.Env = append(os.Environ(), "GIT_SSH_COMMAND="+forgetest.SSHCommand(aliceKey)+" -p "+port)
	raw, err := ls.CombinedOutput()
	out := string(raw)
	if err != nil || !strings.HasPrefix(out, sha) {
		t.Fatalf("ls-remote %s: %v\n%s", scp, err, out)
	}

	// 2. bob reads the public repository but may not push to it.
	bobDir := filepath.Join(t.TempDir(), "bob")
	n.GitSSH("", bobKey, "clone", "--quiet", got.SSHURL, bobDir)
	n.Commit(bobDir, "not mine", map[string]string{"bob.txt": "no\n"})
	out, err = n.TryGitSSH(bobDir, bobKey, "push", "origin", "HEAD:main")
	if err == nil || !strings.Contains(out, "you may not push to "+r.FullName) {
		t.Fatalf("bob's push: %v\n%s", err, out)
	}
	n.JSON("GET", repoPath(alice, "hello")+"/branches/main", nil, nil, http.StatusOK, &branch)
	if branch.Commit.ID != sha {
		t.Fatalf("main moved to %s by a refused push", branch.Commit.ID)
	}

	// 3. The private repository: alice clones it, to bob it is exactly as
	// missing as a repository that does not exist.
	n.GitSSH("", aliceKey, "clone", "--quiet", n.SSHRemote(alice.Name(), "secret"), filepath.Join(t.TempDir(), "secret"))
	secretOut, err := n.TryGitSSH("", bobKey, "ls-remote", n.SSHRemote(alice.Name(), "secret"))
	if err == nil || !strings.Contains(secretOut, "not found") {
		t.Fatalf("bob reading the private repository: %v\n%s", err, secretOut)
	}
	missingOut, _ := n.TryGitSSH("", bobKey, "ls-remote", n.SSHRemote(alice.Name(), "nothing"))
	if strings.ReplaceAll(secretOut, "secret", "X") != strings.ReplaceAll(missingOut, "nothing", "X") {
		t.Fatalf("private and missing answer differently:\n%s\n%s", secretOut, missingOut)
	}

	// 4. git archive --remote (git-upload-archive).
	archive := filepath.Join(t.TempDir(), "a.tar")
	n.GitSSH("", aliceKey, "archive", "--remote="+got.SSHURL, "-o", archive, "main", "ssh.txt")
	if out, err := exec.Command("tar", "-xOf", archive, "ssh.txt").CombinedOutput(); err != nil || string(out) != "hello over ssh\n" {
		t.Fatalf("archive: %v %q", err, out)
	}

	// 5. A shell is refused; a command that is not git too.
	sh := exec.Command("ssh", append(forgetest.SSHArgs(aliceKey), "-p", port, "git@127.0.0.1", "ls")...)
	if out, err := sh.CombinedOutput(); err == nil || !strings.Contains(string(out), "serves git only") {
		t.Fatalf("ssh ls: %v\n%s", err, out)
	}

	// 6. Deleted on chain, the key no longer gets in.
	n.JSON("DELETE", "/api/v1/user/keys/"+strconv.FormatInt(aliceKeyID, 10), alice, nil, http.StatusNoContent, nil)
	if out, err := n.TryGitSSH("", aliceKey, "ls-remote", got.SSHURL); err == nil || !strings.Contains(out, "Permission denied") {
		t.Fatalf("ls-remote with a deleted key: %v\n%s", err, out)
	}
}
