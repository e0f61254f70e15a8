package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// A token's scopes guard every way into a private repository, not only the
// REST routes under /api/v1/repos (issue 23): git's smart HTTP, LFS, release
// asset downloads, archives, raw files and /api/v1/repositories/{id}. A token
// without read:repository is refused as the REST routes refuse it, 403
// insufficient_scope before the repository is looked up, so a missing
// repository answers the same; a public-only token finds no private
// repository at all (404).
func TestTokenScopesOnEverySurface(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser("all")
	repo := create(t, n, alice, "vault", true)

	// The private repository's readable things: a release asset and an
	// LFS object.
	var rel struct {
		ID int64 `json:"id"`
	}
	n.JSON("POST", repoPath(alice, "vault")+"/releases", alice, map[string]any{"tag_name": "v1", "name": "One"}, http.StatusCreated, &rel)
	n.JSON("POST", repoPath(alice, "vault")+"/releases/"+itoa(rel.ID)+"/assets?name=a.bin", alice, "bytes", http.StatusCreated, nil)
	blob := []byte("large file content\n")
	sum := sha256.Sum256(blob)
	oid := hex.EncodeToString(sum[:])
	git := "/" + alice.Name() + "/vault.git"
	if code, body := rawCall(t, n, "PUT", git+"/info/lfs/objects/"+oid, alice, blob); code != http.StatusOK {
		t.Fatalf("upload the LFS object: %d %s", code, body)
	}

	token := func(scopes ...string) *forgetest.User { return n.UserAt(alice.Address, scopes...) }
	byScope := map[string]*forgetest.User{
		"read:user":                    token("read:user"),
		"read:repository":              token("read:repository"),
		"write:repository":             token("write:repository"),
		"public-only,write:repository": token("public-only", "write:repository"),
	}
	batch := func(op string) []byte {
		return fmt.Appendf(nil, `{"operation":%q,"transfers":["basic"],"objects":[{"oid":%q,"size":%d}]}`, op, oid, len(blob))
	}
	surfaces := []struct {
		name, method, path string
		body               []byte
		write              bool
	}{
		{"clone", "GET", git + "/info/refs?service=git-upload-pack", nil, false},
		{"push", "GET", git + "/info/refs?service=git-receive-pack", nil, true},
		{"LFS download batch", "POST", git + "/info/lfs/objects/batch", batch("download"), false},
		{"LFS object", "GET", git + "/info/lfs/objects/" + oid, nil, false},
		{"LFS upload batch", "POST", git + "/info/lfs/objects/batch", batch("upload"), true},
		{"asset download", "GET", "/" + alice.Name() + "/vault/releases/download/v1/a.bin", nil, false},
		{"archive", "GET", repoPath(alice, "vault") + "/archive/main.zip", nil, false},
		{"raw", "GET", repoPath(alice, "vault") + "/raw/README.md", nil, false},
		{"repositories/{id}", "GET", "/api/v1/repositories/" + itoa(int64(repo.ID)), nil, false},
	}
	for scope, u := range byScope {
		for _, s := range surfaces {
			want := http.StatusOK
			switch {
			case scope == "read:user":
				want = http.StatusForbidden
			case scope == "public-only,write:repository":
				want = http.StatusNotFound
			case scope == "read:repository" && s.write:
				want = http.StatusForbidden
			}
			code, body := rawCall(t, n, s.method, s.path, u, s.body)
			if code != want {
				t.Errorf("%s with %s = %d %.200s, want %d", s.name, scope, code, body, want)
			}
			if want != http.StatusForbidden || s.write {
				continue
			}
			// Refused before the lookup: a missing repository answers alike.
			missing := strings.ReplaceAll(strings.ReplaceAll(s.path, "/vault", "/nothing"), itoa(int64(repo.ID)), "999999")
			if code2, body2 := rawCall(t, n, s.method, missing, u, s.body); code2 != code {
				t.Errorf("%s of a missing repository with %s = %d %.200s, but %d for the private one", s.name, scope, code2, body2, code)
			}
		}
	}

	// git itself: the read-only token clones and may not push; the token
	// of another category may not even clone.
	reader, other := byScope["read:repository"], byScope["read:user"]
	if out, err := n.TryGit("", "clone", "--quiet", n.Remote(other, alice.Name(), "vault"), t.TempDir()+"/c"); err == nil {
		t.Errorf("a read:user token cloned a private repository:\n%s", out)
	}
	dir := n.Clone(n.Remote(reader, alice.Name(), "vault"))
	n.Commit(dir, "Change", map[string]string{"NOTES.md": "notes\n"})
	if out, err := n.TryGit(dir, "push", "--quiet", n.Remote(reader, alice.Name(), "vault"), "HEAD:main"); err == nil {
		t.Errorf("a read:repository token pushed:\n%s", out)
	}
}

// rawCall sends body as it is, with u's token, to any path of the node.
func rawCall(t *testing.T, n *forgetest.Node, method, path string, u *forgetest.User, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, n.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(path, "/info/lfs/") {
		req.Header.Set("Content-Type", "application/vnd.git-lfs+json")
		req.Header.Set("Accept", "application/vnd.git-lfs+json")
	}
	if u != nil {
		req.SetBasicAuth("git", u.Token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
