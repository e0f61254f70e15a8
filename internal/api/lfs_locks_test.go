package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// needLFS fails the test without the git-lfs binary.
func needLFS(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git-lfs"); err != nil {
		t.Fatal("git-lfs is not installed: run scripts/ensure-git-lfs.sh")
	}
}

// Git LFS file locking with the real git-lfs client: a writer locks a
// file and pushes changes to it with lock verification on (no warning);
// another writer cannot lock it, and their push of a change to it is
// refused, by git-lfs and by the node (git push --no-verify); only the holder unlocks it, or the repository's admin with
// --force (not another writer), after which the push goes through.
func TestGitLFSLocks(t *testing.T) {
	t.Parallel()
	needLFS(t)
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "art", false)
	n.JSON("PUT", repoPath(alice, "art")+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	n.Git("", "lfs", "install", "--skip-repo")
	endpoint := n.Remote(nil, alice.Name(), "art") + "/info/lfs"

	// 1. alice adds two tracked files.
	aliceDir := n.Clone(n.Remote(alice, alice.Name(), "art"))
	n.Git(aliceDir, "config", "lfs."+endpoint+".locksverify", "true")
	n.Git(aliceDir, "lfs", "track", "*.bin")
	n.Commit(aliceDir, "Add the art", map[string]string{"file.bin": "one\n", "other.bin": "two\n"})
	n.Git(aliceDir, "push", "--quiet", "origin", "main")

	// 2. bob locks file.bin; the lock is listed, in his name.
	bobDir := n.Clone(n.Remote(bob, alice.Name(), "art"))
	n.Git(bobDir, "config", "lfs."+endpoint+".locksverify", "true")
	if out := n.Git(bobDir, "lfs", "lock", "file.bin"); !strings.Contains(out, "Locked file.bin") {
		t.Fatalf("git lfs lock: %s", out)
	}
	for _, dir := range []string{bobDir, aliceDir} {
		if out := n.Git(dir, "lfs", "locks"); !strings.Contains(out, "file.bin") || !strings.Contains(out, bob.Name()) {
			t.Fatalf("git lfs locks: %q, want file.bin held by %s", out, bob.Name())
		}
	}

	// 3. bob changes it and pushes with lock verification: no warning
	// (git-lfs only reminds him he holds it).
	n.Commit(bobDir, "Change the locked file", map[string]string{"file.bin": "bob's\n"})
	if out := n.Git(bobDir, "push", "origin", "main"); strings.Contains(strings.ToLower(out), "warning") || strings.Contains(out, "does not support") || !strings.Contains(out, "main -> main") {
		t.Fatalf("bob's push warned:\n%s", out)
	}

	// 4. alice may not lock it, nor push a change to it.
	if out, err := n.TryGit(aliceDir, "lfs", "lock", "file.bin"); err == nil || !strings.Contains(out, "already") {
		t.Fatalf("alice locking bob's file: %v\n%s", err, out)
	}
	n.Git(aliceDir, "pull", "--quiet", "--rebase", "origin", "main")
	n.Commit(aliceDir, "Change bob's file", map[string]string{"file.bin": "alice's\n"})
	out, err := n.TryGit(aliceDir, "push", "origin", "main")
	if err == nil || !strings.Contains(out, "locked") {
		t.Fatalf("alice's push of a file bob locked: %v\n%s", err, out)
	}
	// The node refuses it too, to a client that skips git-lfs's check.
	out, err = n.TryGit(aliceDir, "push", "--no-verify", "origin", "main")
	if err == nil || !strings.Contains(out, "file.bin is locked by "+bob.Name()) {
		t.Fatalf("alice's push of a file bob locked, unverified: %v\n%s", err, out)
	}

	// 5. Unlocking: alice cannot without --force; bob, a writer but no
	// Admin, cannot force alice's lock; alice, the owner, forces bob's.
	if out, err := n.TryGit(aliceDir, "lfs", "unlock", "file.bin"); err == nil {
		t.Fatalf("alice unlocked bob's lock without --force:\n%s", out)
	}
	n.Git(aliceDir, "lfs", "lock", "other.bin")
	n.Git(bobDir, "pull", "--quiet", "origin", "main")
	if out, err := n.TryGit(bobDir, "lfs", "unlock", "--force", "other.bin"); err == nil || !strings.Contains(out, "admin") {
		t.Fatalf("bob forcing alice's lock: %v\n%s", err, out)
	}
	n.Git(aliceDir, "lfs", "unlock", "--force", "file.bin")
	n.Git(aliceDir, "lfs", "unlock", "other.bin")
	if out := n.Git(aliceDir, "lfs", "locks"); strings.TrimSpace(out) != "" {
		t.Fatalf("locks left: %q", out)
	}
	n.Git(aliceDir, "push", "--quiet", "origin", "main")
}

// lfsCall sends a request to the LFS endpoint of owner/repo with an
// Authorization header (auth "" sends none) and returns the status and
// body.
func lfsCall(t *testing.T, n *forgetest.Node, authz, method, owner, repo, path, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, n.URL+"/"+owner+"/"+repo+".git/info/lfs/"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/vnd.git-lfs+json")
	req.Header.Set("Content-Type", "application/vnd.git-lfs+json")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(res.Body)
	return res.StatusCode, out.String()
}

func basic(u *forgetest.User) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth("git", u.Token)
	return req.Header.Get("Authorization")
}

// The locking API's answers, and its refusals: anonymous writes 401, a
// read-only token 403, a private repository 404 to strangers, JSON that
// is not 422, a path locked already 409 with the lock held, paging.
func TestLFSLocksAPI(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	reader := n.UserAt(alice.Address, "read:repository")
	create(t, n, alice, "pub", false)
	create(t, n, alice, "secret", true)
	a, o := basic(alice), alice.Name()

	// 1. Create, list, 409 with the lock held.
	code, body := lfsCall(t, n, a, "POST", o, "pub", "locks", `{"path":"a.bin","ref":{"name":"refs/heads/main"}}`)
	var created struct {
		Lock struct {
			ID, Path, LockedAt string
			Owner              struct{ Name string }
		}
	}
	if code != http.StatusCreated || json.Unmarshal([]byte(body), &created) != nil || created.Lock.Path != "a.bin" || created.Lock.ID == "" || created.Lock.Owner.Name != alice.Name() {
		t.Fatalf("create: %d %s", code, body)
	}
	if code, body := lfsCall(t, n, a, "POST", o, "pub", "locks", `{"path":"a.bin"}`); code != http.StatusConflict || !strings.Contains(body, `"id":"`+created.Lock.ID+`"`) || !strings.Contains(body, `"message"`) {
		t.Fatalf("create again: %d %s", code, body)
	}
	lfsCall(t, n, a, "POST", o, "pub", "locks", `{"path":"b.bin"}`)
	lfsCall(t, n, a, "POST", o, "pub", "locks", `{"path":"c.bin"}`)
	var page struct {
		Locks []struct {
			ID, Path string
		}
		NextCursor string `json:"next_cursor"`
	}
	code, body = lfsCall(t, n, "", "GET", o, "pub", "locks?limit=2", "")
	if code != http.StatusOK || json.Unmarshal([]byte(body), &page) != nil || len(page.Locks) != 2 || page.NextCursor == "" {
		t.Fatalf("anonymous list of a public repository, first page: %d %s", code, body)
	}
	code, body = lfsCall(t, n, "", "GET", o, "pub", "locks?limit=2&cursor="+page.NextCursor, "")
	if code != http.StatusOK || json.Unmarshal([]byte(body), &page) != nil || len(page.Locks) != 1 || page.Locks[0].Path != "c.bin" || page.NextCursor != "" {
		t.Fatalf("second page: %d %s", code, body)
	}
	if code, body := lfsCall(t, n, a, "GET", o, "pub", "locks?path=b.bin", ""); code != http.StatusOK || strings.Count(body, `"path"`) != 1 || !strings.Contains(body, "b.bin") {
		t.Fatalf("by path: %d %s", code, body)
	}
	if code, body := lfsCall(t, n, a, "GET", o, "pub", "locks?id="+created.Lock.ID, ""); code != http.StatusOK || !strings.Contains(body, `"a.bin"`) || strings.Count(body, `"path"`) != 1 {
		t.Fatalf("by id: %d %s", code, body)
	}

	// 2. Verify: ours for alice, theirs for bob (who may not push: 403).
	if code, body := lfsCall(t, n, a, "POST", o, "pub", "locks/verify", `{}`); code != http.StatusOK || !strings.Contains(body, `"theirs":[]`) || strings.Count(body, `"path"`) != 3 {
		t.Fatalf("verify: %d %s", code, body)
	}
	if code, body := lfsCall(t, n, basic(bob), "POST", o, "pub", "locks/verify", `{}`); code != http.StatusForbidden {
		t.Fatalf("verify by someone who may not push: %d %s", code, body)
	}

	// 3. Refusals.
	for _, c := range []struct {
		what, authz, method, repo, path, body string
		want                                  int
	}{
		{"anonymous create", "", "POST", "pub", "locks", `{"path":"x"}`, http.StatusUnauthorized},
		{"anonymous verify", "", "POST", "pub", "locks/verify", `{}`, http.StatusUnauthorized},
		{"anonymous unlock", "", "POST", "pub", "locks/" + created.Lock.ID + "/unlock", `{}`, http.StatusUnauthorized},
		{"a bad token", "token " + strings.Repeat("0", 40), "GET", "pub", "locks", "", http.StatusUnauthorized},
		{"read-only token creates", basic(reader), "POST", "pub", "locks", `{"path":"x"}`, http.StatusForbidden},
		{"read-only token unlocks", basic(reader), "POST", "pub", "locks/" + created.Lock.ID + "/unlock", `{}`, http.StatusForbidden},
		{"bob creates without write", basic(bob), "POST", "pub", "locks", `{"path":"x"}`, http.StatusForbidden},
		{"bob lists the private repository", basic(bob), "GET", "secret", "locks", "", http.StatusNotFound},
		{"bob creates in the private repository", basic(bob), "POST", "secret", "locks", `{"path":"x"}`, http.StatusNotFound},
		{"anonymous list of the private repository", "", "GET", "secret", "locks", "", http.StatusUnauthorized},
		{"a missing repository", basic(bob), "GET", "nothing", "locks", "", http.StatusNotFound},
		{"not JSON", a, "POST", "pub", "locks", `{"path":`, http.StatusUnprocessableEntity},
		{"no path", a, "POST", "pub", "locks", `{}`, http.StatusUnprocessableEntity},
		{"an absolute path", a, "POST", "pub", "locks", `{"path":"/etc/x"}`, http.StatusUnprocessableEntity},
		{"a bad limit", a, "GET", "pub", "locks?limit=x", "", http.StatusUnprocessableEntity},
		{"a limit too large", a, "GET", "pub", "locks?limit=100000", "", http.StatusUnprocessableEntity},
		{"a bad cursor", a, "GET", "pub", "locks?cursor=zz", "", http.StatusUnprocessableEntity},
		{"verify not JSON", a, "POST", "pub", "locks/verify", `[`, http.StatusUnprocessableEntity},
		{"unlock of no lock", a, "POST", "pub", "locks/999999/unlock", `{}`, http.StatusNotFound},
		{"DELETE", a, "DELETE", "pub", "locks", "", http.StatusMethodNotAllowed},
	} {
		if code, body := lfsCall(t, n, c.authz, c.method, o, c.repo, c.path, c.body); code != c.want {
			t.Errorf("%s: %d, want %d: %s", c.what, code, c.want, body)
		}
	}

	// 4. Unlock: the holder, with an empty body too.
	if code, body := lfsCall(t, n, a, "POST", o, "pub", "locks/"+created.Lock.ID+"/unlock", ""); code != http.StatusOK || !strings.Contains(body, `"a.bin"`) {
		t.Fatalf("unlock: %d %s", code, body)
	}
	if code, body := lfsCall(t, n, a, "GET", o, "pub", "locks?path=a.bin", ""); code != http.StatusOK || !strings.Contains(body, `"locks":[]`) {
		t.Fatalf("after unlock: %d %s", code, body)
	}
}

// Git LFS over an SSH remote: git-lfs asks git-lfs-authenticate for the
// HTTP endpoint and a ticket, then pushes, clones and locks with it. The
// ticket is good for its repository and operation only, on the LFS
// endpoint only.
func TestGitLFSOverSSH(t *testing.T) {
	t.Parallel()
	needLFS(t)
	n := forgetest.Start(t, forgetest.WithSSH())
	alice, bob := n.NewUser(), n.NewUser()
	aliceKey, _ := addKey(t, n, alice)
	bobKey, _ := addKey(t, n, bob)
	create(t, n, alice, "big", false)
	create(t, n, alice, "other", false)
	create(t, n, alice, "secret", true)
	n.Git("", "lfs", "install", "--skip-repo")
	remote := n.SSHRemote(alice.Name(), "big")

	// 1. Push a tracked file over SSH; a clone over SSH gets its bytes.
	dir := filepath.Join(t.TempDir(), "big")
	n.GitSSH("", aliceKey, "clone", "--quiet", remote, dir)
	n.Git(dir, "lfs", "track", "*.bin")
	data := bytes.Repeat([]byte("dforge lfs over ssh\n"), 50000)
	if err := os.WriteFile(filepath.Join(dir, "blob.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	n.Git(dir, "add", ".gitattributes", "blob.bin")
	n.Git(dir, "commit", "--quiet", "-m", "Add a blob")
	n.GitSSH(dir, aliceKey, "push", "--quiet", "origin", "main")
	if pointer := n.Git(dir, "show", "HEAD:blob.bin"); !strings.Contains(pointer, "oid sha256:") {
		t.Fatalf("git holds %q, not an LFS pointer", pointer)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	n.GitSSH("", bobKey, "clone", "--quiet", remote, clone)
	if got, err := os.ReadFile(filepath.Join(clone, "blob.bin")); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("cloned blob.bin: %d bytes (%v), want %d", len(got), err, len(data))
	}

	// 2. Locks over SSH too.
	n.GitSSH(dir, aliceKey, "lfs", "lock", "blob.bin")
	if out := n.GitSSH(clone, bobKey, "lfs", "locks"); !strings.Contains(out, "blob.bin") || !strings.Contains(out, alice.Name()) {
		t.Fatalf("git lfs locks over ssh: %q", out)
	}
	n.GitSSH(dir, aliceKey, "lfs", "unlock", "blob.bin")

	// 3. The tickets themselves.
	authenticate := func(key, path, op string) (string, string, error) {
		_, port, _ := strings.Cut(n.SSHAddr, ":")
		cmd := exec.Command("ssh", append(forgetest.SSHArgs(key), "-p", port, "git@127.0.0.1", "git-lfs-authenticate", path, op)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	ticket := func(key, path, op string) (authz, href string) {
		t.Helper()
		out, errOut, err := authenticate(key, path, op)
		var got struct {
			Href      string            `json:"href"`
			Header    map[string]string `json:"header"`
			ExpiresIn int               `json:"expires_in"`
		}
		if err != nil || json.Unmarshal([]byte(out), &got) != nil || got.Header["Authorization"] == "" || got.ExpiresIn <= 0 || got.ExpiresIn > 600 {
			t.Fatalf("git-lfs-authenticate %s %s: %v %s %s", path, op, err, out, errOut)
		}
		return got.Header["Authorization"], got.Href
	}
	download, href := ticket(bobKey, "/"+alice.Name()+"/big.git", "download")
	if want := n.URL + "/" + alice.Name() + "/big.git/info/lfs"; href != want {
		t.Fatalf("href %q, want %q", href, want)
	}
	upload, _ := ticket(aliceKey, "'"+alice.Name()+"/big.git'", "upload")
	o := alice.Name()
	for _, c := range []struct {
		what, authz, method, repo, path, body string
		want                                  int
	}{
		{"a download ticket lists", download, "GET", "big", "locks", "", http.StatusOK},
		{"a download ticket downloads", download, "POST", "big", "objects/batch", `{"operation":"download","objects":[]}`, http.StatusOK},
		{"a download ticket uploads", download, "POST", "big", "objects/batch", `{"operation":"upload","objects":[]}`, http.StatusForbidden},
		{"a download ticket locks", download, "POST", "big", "locks", `{"path":"x"}`, http.StatusForbidden},
		{"an upload ticket locks", upload, "POST", "big", "locks", `{"path":"x"}`, http.StatusCreated},
		{"a ticket for another repository", upload, "GET", "other", "locks", "", http.StatusNotFound},
		{"a tampered ticket", upload + "x", "GET", "big", "locks", "", http.StatusUnauthorized},
	} {
		if code, body := lfsCall(t, n, c.authz, c.method, o, c.repo, c.path, c.body); code != c.want {
			t.Errorf("%s: %d, want %d: %s", c.what, code, c.want, body)
		}
	}
	// Not a credential for git itself.
	req, _ := http.NewRequest("GET", n.URL+"/"+o+"/big.git/info/refs?service=git-upload-pack", nil)
	req.Header.Set("Authorization", upload)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a ticket on info/refs: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	// No ticket for what the key's owner may not do.
	for _, c := range []struct{ key, path, op, want string }{
		{bobKey, o + "/big.git", "upload", "may not push"},
		{bobKey, o + "/secret.git", "download", "not found"},
		{aliceKey, o + "/big.git", "delete", "upload or download"},
	} {
		if out, errOut, err := authenticate(c.key, c.path, c.op); err == nil || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("git-lfs-authenticate %s %s: %v %q %q, want %q", c.path, c.op, err, out, errOut, c.want)
		}
	}
}
