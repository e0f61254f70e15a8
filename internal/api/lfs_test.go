package api_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Git LFS with the real git-lfs client: a tracked file pushed by a writer
// is stored (as a UnixFS file, recorded on chain by its oid) and comes
// back whole in another clone; the batch API refuses an upload from
// someone who may not write, and answers a missing object per object.
func TestGitLFSPushAndClone(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git-lfs"); err != nil {
		t.Fatal("git-lfs is not installed: run scripts/ensure-git-lfs.sh")
	}
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "assets", false)
	n.Git("", "lfs", "install", "--skip-repo")
	remote := n.Remote(alice, alice.Name(), "assets")

	// 1. A tracked file of two chunks and a bit, pushed.
	dir := n.Clone(remote)
	n.Git(dir, "lfs", "track", "*.bin")
	data := make([]byte, 2<<20+4321)
	rand.Read(data)
	if err := os.WriteFile(filepath.Join(dir, "model.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	n.Git(dir, "add", ".gitattributes", "model.bin")
	n.Git(dir, "commit", "--quiet", "-m", "Add the model")
	n.Git(dir, "push", "--quiet", "origin", "main")

	// 2. The pointer is what git holds; the clone gets the bytes.
	pointer := n.Git(dir, "show", "HEAD:model.bin")
	sum := sha256.Sum256(data)
	oid := hex.EncodeToString(sum[:])
	if !strings.Contains(pointer, "oid sha256:"+oid) {
		t.Fatalf("git holds %q, not an LFS pointer to %s", pointer, oid)
	}
	other := n.Clone(n.Remote(nil, alice.Name(), "assets"))
	got, err := os.ReadFile(filepath.Join(other, "model.bin"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("cloned model.bin: %d bytes (%v), want the %d pushed", len(got), err, len(data))
	}

	// 3. The batch API: bob may download but not upload; a missing object
	// is an error of that object.
	batch := func(u *forgetest.User, op string, oids ...string) (int, string) {
		var objs []map[string]any
		for _, o := range oids {
			objs = append(objs, map[string]any{"oid": o, "size": 3})
		}
		body, _ := json.Marshal(map[string]any{"operation": op, "transfers": []string{"basic"}, "objects": objs})
		req, _ := http.NewRequest("POST", n.URL+"/"+alice.Name()+"/assets.git/info/lfs/objects/batch", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/vnd.git-lfs+json")
		req.Header.Set("Accept", "application/vnd.git-lfs+json")
		if u != nil {
			req.SetBasicAuth("git", u.Token)
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
	missing := strings.Repeat("ab", 32)
	if code, body := batch(bob, "upload", missing); code != http.StatusForbidden {
		t.Fatalf("bob's upload batch: %d %s", code, body)
	}
	if code, body := batch(nil, "upload", missing); code != http.StatusUnauthorized {
		t.Fatalf("an anonymous upload batch: %d %s", code, body)
	}
	code, body := batch(bob, "download", oid, missing)
	if code != http.StatusOK || !strings.Contains(body, `"download"`) || !strings.Contains(body, `"code":404`) {
		t.Fatalf("bob's download batch: %d %s", code, body)
	}
	if code, body := batch(alice, "upload", oid); code != http.StatusOK || strings.Contains(body, `"upload"`) {
		t.Fatalf("an upload batch of an object already here: %d %s", code, body)
	}
}
