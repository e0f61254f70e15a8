package api_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/forgetest"
)

// rawCID is the CID a one-chunk file gets as a public asset: its bytes are
// the one raw leaf.
func rawCID(t *testing.T, data []byte) string {
	t.Helper()
	mh, err := multihash.Sum(data, multihash.SHA2_256, -1)
	check(t, "multihash", err)
	return cid.NewCidV1(cid.Raw, mh).String()
}

// privateFile is where the node keeps a private file of that digest.
func privateFile(n *forgetest.Node, digest string) string {
	return filepath.Join(n.Dir, "privfiles", digest[:2], digest)
}

// A private repository's release asset, through Gitea's SDK: uploaded and
// downloaded whole by its readers, 404 to anyone else, never an IPFS block
// (no CID, the gateway does not serve its bytes), and its file removed
// when the last asset naming it goes.
func TestPrivateReleaseAssets(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	create(t, n, alice, "open", false)
	c, err := gitea.NewClient(n.URL, gitea.SetToken(alice.Token))
	check(t, "NewClient", err)
	owner := alice.Name()

	// 1. A public asset of one chunk is served by the gateway at its raw
	// CID: what a leak would look like.
	pubRel, _, err := c.CreateRelease(owner, "open", gitea.CreateReleaseOption{TagName: "v1", Title: "Open"})
	check(t, "CreateRelease open", err)
	pub := []byte("public bytes " + rand.Text())
	pubAtt, _, err := c.CreateReleaseAttachment(owner, "open", pubRel.ID, bytes.NewReader(pub), "pub.txt")
	check(t, "CreateReleaseAttachment open", err)
	if pubAtt.UUID != rawCID(t, pub) {
		t.Fatalf("the public asset's CID %s, not the raw leaf %s", pubAtt.UUID, rawCID(t, pub))
	}
	if res := n.Call("GET", "/ipfs/"+rawCID(t, pub)+"?format=raw", nil, nil); res.Status != http.StatusOK {
		t.Fatalf("gateway of the public asset: %d", res.Status)
	}

	// 2. The private asset: stored, read back whole, no CID.
	rel, _, err := c.CreateRelease(owner, "secret", gitea.CreateReleaseOption{TagName: "v1", Title: "Secret"})
	check(t, "CreateRelease secret", err)
	data := make([]byte, 600<<10)
	rand.Read(data)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	att, resp, err := c.CreateReleaseAttachment(owner, "secret", rel.ID, bytes.NewReader(data), "key.bin")
	check(t, "CreateReleaseAttachment secret", err)
	if resp.StatusCode != http.StatusCreated || att.Size != int64(len(data)) || att.Name != "key.bin" {
		t.Fatalf("CreateReleaseAttachment: %d %+v", resp.StatusCode, att)
	}
	got, _, err := c.GetReleaseAttachment(owner, "secret", rel.ID, att.ID)
	check(t, "GetReleaseAttachment", err)
	if got.ID != att.ID || got.Size != att.Size || got.DownloadURL != att.DownloadURL {
		t.Fatalf("GetReleaseAttachment: %+v, uploaded %+v", got, att)
	}
	var raw struct {
		CID    string `json:"cid"`
		SHA256 string `json:"sha256"`
	}
	n.JSON("GET", repoPath(alice, "secret")+"/releases/"+itoa(rel.ID)+"/assets/"+itoa(att.ID), alice, nil, http.StatusOK, &raw)
	if raw.CID != "" || raw.SHA256 != digest {
		t.Fatalf("the private asset's CID and digest: %+v", raw)
	}
	req, _ := http.NewRequest("GET", att.DownloadURL, nil)
	req.SetBasicAuth(owner, alice.Token)
	req.Header.Set("Authorization", "token "+alice.Token)
	res, err := http.DefaultClient.Do(req)
	check(t, "download", err)
	var body bytes.Buffer
	body.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Equal(body.Bytes(), data) || res.Header.Get("X-Ipfs-Roots") != "" {
		t.Fatalf("the owner's download: %d, %d bytes, roots %q", res.StatusCode, body.Len(), res.Header.Get("X-Ipfs-Roots"))
	}

	// 3. Strangers get 404 everywhere; the gateway has no block of it.
	path := "/" + owner + "/secret/releases/download/v1/key.bin"
	for _, who := range []*forgetest.User{nil, bob} {
		if res := n.Call("GET", path, who, nil); res.Status != http.StatusNotFound {
			t.Fatalf("a stranger's download: %d", res.Status)
		}
		n.JSON("GET", repoPath(alice, "secret")+"/releases/"+itoa(rel.ID)+"/assets/"+itoa(att.ID), who, nil, http.StatusNotFound, nil)
	}
	n.JSON("POST", repoPath(alice, "secret")+"/releases/"+itoa(rel.ID)+"/assets?name=x.bin", bob, "x", http.StatusNotFound, nil)
	small := []byte("a private note " + rand.Text())
	second, _, err := c.CreateReleaseAttachment(owner, "secret", rel.ID, bytes.NewReader(small), "note.txt")
	check(t, "CreateReleaseAttachment small", err)
	if res := n.Call("GET", "/ipfs/"+rawCID(t, small)+"?format=raw", nil, nil); res.Status == http.StatusOK {
		t.Fatalf("the gateway serves a private asset's bytes")
	}

	// 4. The same bytes twice: deleting one keeps the file for the other;
	// deleting the last removes it.
	twin, _, err := c.CreateReleaseAttachment(owner, "secret", rel.ID, bytes.NewReader(data), "key-copy.bin")
	check(t, "CreateReleaseAttachment twin", err)
	_, err = c.DeleteReleaseAttachment(owner, "secret", rel.ID, att.ID)
	check(t, "DeleteReleaseAttachment", err)
	if _, err := os.Stat(privateFile(n, digest)); err != nil {
		t.Fatalf("the file another asset names was removed: %v", err)
	}
	if res := n.Call("GET", "/"+owner+"/secret/releases/download/v1/key-copy.bin", alice, nil); res.Status != http.StatusOK {
		t.Fatalf("the twin's download after the first went: %d", res.Status)
	}
	_, err = c.DeleteReleaseAttachment(owner, "secret", rel.ID, twin.ID)
	check(t, "DeleteReleaseAttachment twin", err)
	if _, err := os.Stat(privateFile(n, digest)); !os.IsNotExist(err) {
		t.Fatalf("the file no asset names is still there: %v", err)
	}
	if res := n.Call("GET", "/"+owner+"/secret/releases/download/v1/"+second.Name, alice, nil); res.Status != http.StatusOK {
		t.Fatalf("the other asset's download: %d", res.Status)
	}
}

// Git LFS on a private repository: the writer's push is kept in the node's
// private files, a reader's clone gets the bytes, a stranger cannot see it,
// and the gateway does not serve them.
func TestGitLFSPrivate(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git-lfs"); err != nil {
		t.Fatal("git-lfs is not installed: run scripts/ensure-git-lfs.sh")
	}
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "vault", true)
	n.Git("", "lfs", "install", "--skip-repo")
	remote := n.Remote(alice, alice.Name(), "vault")

	dir := n.Clone(remote)
	n.Git(dir, "lfs", "track", "*.bin")
	data := make([]byte, 300<<10)
	rand.Read(data)
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	n.Git(dir, "add", ".gitattributes", "weights.bin")
	n.Git(dir, "commit", "--quiet", "-m", "Add the weights")
	n.Git(dir, "push", "--quiet", "origin", "main")

	sum := sha256.Sum256(data)
	oid := hex.EncodeToString(sum[:])
	if pointer := n.Git(dir, "show", "HEAD:weights.bin"); !strings.Contains(pointer, "oid sha256:"+oid) {
		t.Fatalf("git holds %q, not an LFS pointer to %s", pointer, oid)
	}
	if _, err := os.Stat(privateFile(n, oid)); err != nil {
		t.Fatalf("the object is not in the node's private files: %v", err)
	}
	other := n.Clone(remote)
	got, err := os.ReadFile(filepath.Join(other, "weights.bin"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("cloned weights.bin: %d bytes (%v), want the %d pushed", len(got), err, len(data))
	}
	if res := n.Call("GET", "/ipfs/"+rawCID(t, data)+"?format=raw", nil, nil); res.Status == http.StatusOK {
		t.Fatalf("the gateway serves a private LFS object's bytes")
	}
	if _, err := n.TryGit("", "clone", "--quiet", n.Remote(bob, alice.Name(), "vault"), filepath.Join(t.TempDir(), "b")); err == nil {
		t.Fatalf("a stranger cloned the private repository")
	}
	req, _ := http.NewRequest("GET", n.URL+"/"+alice.Name()+"/vault.git/info/lfs/objects/"+oid, nil)
	req.SetBasicAuth("git", bob.Token)
	res, err := http.DefaultClient.Do(req)
	check(t, "stranger's LFS download", err)
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("a stranger's LFS download: %d", res.StatusCode)
	}
}
