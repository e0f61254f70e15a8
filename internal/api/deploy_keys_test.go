package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// A deploy key (node-local) reads its repository over SSH, even a private
// one, and nothing else; a read-only one pushes nothing, another pushes in
// the name of the admin who added it; deleted, it opens nothing. The API refuses a bad key, a user's key and anyone but the
// repository's admins, and a private repository's keys are 404 to others.
func TestDeployKeyOverSSH(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t, forgetest.WithSSH())
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	create(t, n, alice, "other", true)
	private, pub := n.SSHKey()
	keys := repoPath(alice, "secret") + "/keys"

	// The API's refusals: a 4xx in Gitea's shape, and nothing stored.
	for _, c := range []struct {
		u    *forgetest.User
		body map[string]any
		want int
	}{
		{alice, map[string]any{"title": "ci", "key": "ssh-ed25519 AAAAnotakey"}, http.StatusUnprocessableEntity},
		{alice, map[string]any{"title": "", "key": pub}, http.StatusUnprocessableEntity},
		{bob, map[string]any{"title": "ci", "key": pub}, http.StatusNotFound}, // a private repository bob cannot read
	} {
		res := n.Call("POST", keys, c.u, c.body)
		if res.Status != c.want || !strings.Contains(string(res.Body), `"message"`) || !strings.Contains(string(res.Body), `"url"`) {
			t.Fatalf("POST %v: %d %s, want %d", c.body, res.Status, res.Body, c.want)
		}
	}
	_, userPub := n.SSHKey()
	walletAddKey(t, n, bob, "bob's", userPub)
	if res := n.Call("POST", keys, alice, map[string]any{"title": "bob's", "key": userPub}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a user's key as a deploy key: %d %s", res.Status, res.Body)
	}
	var list []map[string]any
	n.JSON("GET", keys, alice, nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Fatalf("refused keys were stored: %v", list)
	}

	var key struct {
		ID       int64 `json:"id"`
		ReadOnly bool  `json:"read_only"`
	}
	n.JSON("POST", keys, alice, map[string]any{"title": "ci", "key": pub, "read_only": true}, http.StatusCreated, &key)
	if res := n.Call("GET", keys+"/"+strconv.FormatInt(key.ID, 10), bob, nil); res.Status != http.StatusNotFound {
		t.Fatalf("bob reads a private repository's deploy key: %d %s", res.Status, res.Body)
	}

	// The key clones its repository over SSH, and only it.
	dir := filepath.Join(t.TempDir(), "secret")
	n.GitSSH("", private, "clone", "--quiet", n.SSHRemote(alice.Name(), "secret"), dir)
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatalf("clone has no README: %v", err)
	}
	out, err := n.TryGitSSH("", private, "clone", "--quiet", n.SSHRemote(alice.Name(), "other"), filepath.Join(t.TempDir(), "other"))
	if err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("a deploy key cloned another repository: %v\n%s", err, out)
	}
	sha := n.Commit(dir, "from ci", map[string]string{"ci.txt": "ci\n"})
	out, err = n.TryGitSSH(dir, private, "push", "origin", "HEAD:main")
	if err == nil || !strings.Contains(out, "is read-only") {
		t.Fatalf("a read-only deploy key pushed: %v\n%s", err, out)
	}

	// A key that is not read-only pushes, in the name of the admin who
	// added it (a push is a person's transaction on chain).
	writer, writerPub := n.SSHKey()
	n.JSON("POST", keys, alice, map[string]any{"title": "release bot", "key": writerPub, "read_only": false}, http.StatusCreated, nil)
	n.GitSSH(dir, writer, "push", "--quiet", "origin", "HEAD:main")
	var branch struct {
		Commit struct {
			ID     string `json:"id"`
			Author struct {
				Name string `json:"name"`
			} `json:"author"`
		} `json:"commit"`
	}
	n.JSON("GET", repoPath(alice, "secret")+"/branches/main", alice, nil, http.StatusOK, &branch)
	if branch.Commit.ID != sha {
		t.Fatalf("main is %s after the deploy key's push, want %s", branch.Commit.ID, sha)
	}
	var feed []struct {
		OpType  string `json:"op_type"`
		ActUser struct {
			Login string `json:"login"`
		} `json:"act_user"`
	}
	n.JSON("GET", repoPath(alice, "secret")+"/activities/feeds", alice, nil, http.StatusOK, &feed)
	if len(feed) == 0 || feed[0].OpType != "commit_repo" || feed[0].ActUser.Login != alice.Name() {
		t.Fatalf("the deploy key's push is not alice's: %+v", feed)
	}

	// Deleted, it opens nothing.
	n.JSON("DELETE", keys+"/"+strconv.FormatInt(key.ID, 10), alice, nil, http.StatusNoContent, nil)
	if out, err := n.TryGitSSH("", private, "ls-remote", n.SSHRemote(alice.Name(), "secret")); err == nil {
		t.Fatalf("a deleted deploy key still reads: %s", out)
	}
}
