package api_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// Releases through Gitea's SDK: a release of a new tag makes the tag in
// git, an asset uploaded as Gitea's multipart form is served back whole at
// its browser_download_url (counted) and through the IPFS gateway by its
// CID, and edits and deletes behave as Gitea's.
func TestReleasesWithAssets(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "shipped", false)
	c, err := gitea.NewClient(n.URL, gitea.SetToken(alice.Token))
	check(t, "NewClient", err)
	owner := alice.Name()

	// 1. A release of a tag that does not exist makes it at the target.
	rel, resp, err := c.CreateRelease(owner, "shipped", gitea.CreateReleaseOption{TagName: "v1.0", Target: "main", Title: "First", Note: "# Notes\n\n- one"})
	check(t, "CreateRelease", err)
	if resp.StatusCode != http.StatusCreated || rel.TagName != "v1.0" || rel.Title != "First" || rel.Note != "# Notes\n\n- one" || rel.IsDraft {
		t.Fatalf("CreateRelease: %d %+v", resp.StatusCode, rel)
	}
	var tags []struct {
		Name string `json:"name"`
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/tags", nil, nil, http.StatusOK, &tags)
	if len(tags) != 1 || tags[0].Name != "v1.0" {
		t.Fatalf("tags after the release: %+v", tags)
	}
	dir := n.Clone(n.Remote(alice, owner, "shipped"))
	if got := n.Git(dir, "tag", "--list"); strings.TrimSpace(got) != "v1.0" {
		t.Fatalf("cloned tags: %q", got)
	}
	_, resp, err = c.CreateRelease(owner, "shipped", gitea.CreateReleaseOption{TagName: "v1.0", Title: "Again"})
	if resp == nil || resp.StatusCode != http.StatusConflict {
		t.Fatalf("a second release of v1.0: %v %v", resp, err)
	}
	n.JSON("POST", repoPath(alice, "shipped")+"/releases", alice, map[string]any{"tag_name": "v9", "target_commitish": "nope"}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", repoPath(alice, "shipped")+"/releases", bob, map[string]any{"tag_name": "v2"}, http.StatusForbidden, nil)
	n.JSON("POST", repoPath(alice, "shipped")+"/releases", alice, map[string]any{"tag_name": "v3", "name": "bad\x00title"}, http.StatusUnprocessableEntity, nil)

	// 2. An asset of three chunks and a bit, uploaded as Gitea's form.
	data := make([]byte, 3<<20+12345)
	rand.Read(data)
	sum := sha256.Sum256(data)
	att, resp, err := c.CreateReleaseAttachment(owner, "shipped", rel.ID, bytes.NewReader(data), "tool.bin")
	check(t, "CreateReleaseAttachment", err)
	if resp.StatusCode != http.StatusCreated || att.Name != "tool.bin" || att.Size != int64(len(data)) || att.DownloadCount != 0 {
		t.Fatalf("CreateReleaseAttachment: %d %+v", resp.StatusCode, att)
	}
	var raw struct {
		CID    string `json:"cid"`
		SHA256 string `json:"sha256"`
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/releases/"+itoa(rel.ID)+"/assets/"+itoa(att.ID), nil, nil, http.StatusOK, &raw)
	if raw.SHA256 != hex.EncodeToString(sum[:]) || !strings.HasPrefix(raw.CID, "bafy") {
		t.Fatalf("asset digest and CID: %+v", raw)
	}
	for range 2 {
		got := download(t, att.DownloadURL)
		if !bytes.Equal(got, data) {
			t.Fatalf("download: %d bytes, not the %d uploaded", len(got), len(data))
		}
	}
	// A ranged read (a resumed download) and HEAD are not counted again.
	res := n.Call("HEAD", strings.TrimPrefix(att.DownloadURL, n.URL), nil, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("HEAD of the asset: %d", res.Status)
	}
	req, _ := http.NewRequest("GET", att.DownloadURL, nil)
	req.Header.Set("Range", "bytes=100-199")
	part, err := http.DefaultClient.Do(req)
	check(t, "ranged download", err)
	chunk, _ := io.ReadAll(part.Body)
	part.Body.Close()
	if part.StatusCode != http.StatusPartialContent || !bytes.Equal(chunk, data[100:200]) {
		t.Fatalf("ranged download: %d, %d bytes", part.StatusCode, len(chunk))
	}
	list, _, err := c.ListReleaseAttachments(owner, "shipped", rel.ID, gitea.ListReleaseAttachmentsOptions{})
	check(t, "ListReleaseAttachments", err)
	if len(list) != 1 || list[0].DownloadCount != 2 {
		t.Fatalf("ListReleaseAttachments: %+v", list)
	}
	// The gateway serves the file's root block by its CID (trustless).
	req, _ = http.NewRequest("GET", n.URL+"/ipfs/"+raw.CID+"?format=raw", nil)
	gw, err := http.DefaultClient.Do(req)
	check(t, "gateway", err)
	gw.Body.Close()
	if gw.StatusCode != http.StatusOK {
		t.Fatalf("gateway /ipfs/%s: %d", raw.CID, gw.StatusCode)
	}
	// A second asset by ?name=, over the raw body; a clashing name is refused.
	n.JSON("POST", repoPath(alice, "shipped")+"/releases/"+itoa(rel.ID)+"/assets?name=TOOL.bin", alice, "x", http.StatusConflict, nil)
	_, resp, err = c.CreateReleaseAttachment(owner, "shipped", rel.ID, strings.NewReader("hi"), "")
	if resp == nil || resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an asset without a name: %v %v", resp, err)
	}

	// 3. Reads by tag, latest, list; edits; deletes.
	byTag, _, err := c.GetReleaseByTag(owner, "shipped", "v1.0")
	check(t, "GetReleaseByTag", err)
	if byTag.ID != rel.ID || len(byTag.Attachments) != 1 {
		t.Fatalf("GetReleaseByTag: %+v", byTag)
	}
	_, _, err = c.CreateRelease(owner, "shipped", gitea.CreateReleaseOption{TagName: "v2.0-rc", Title: "RC", IsPrerelease: true})
	check(t, "CreateRelease rc", err)
	draft, _, err := c.CreateRelease(owner, "shipped", gitea.CreateReleaseOption{TagName: "v3.0", Title: "Draft", IsDraft: true})
	check(t, "CreateRelease draft", err)
	var latest struct {
		TagName string `json:"tag_name"`
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/releases/latest", nil, nil, http.StatusOK, &latest)
	if latest.TagName != "v1.0" {
		t.Fatalf("latest: %+v", latest)
	}
	all, _, err := c.ListReleases(owner, "shipped", gitea.ListReleasesOptions{})
	check(t, "ListReleases", err)
	if len(all) != 3 || all[0].TagName != "v3.0" {
		t.Fatalf("ListReleases by the owner: %+v", all)
	}
	var public []struct {
		TagName string `json:"tag_name"`
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/releases", nil, nil, http.StatusOK, &public)
	if len(public) != 2 {
		t.Fatalf("releases shown to anyone (no draft): %+v", public)
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/releases/"+itoa(draft.ID), nil, nil, http.StatusNotFound, nil)
	edited, _, err := c.EditRelease(owner, "shipped", rel.ID, gitea.EditReleaseOption{Title: "First, renamed", Note: "new notes"})
	check(t, "EditRelease", err)
	if edited.Title != "First, renamed" || edited.Note != "new notes" || edited.TagName != "v1.0" {
		t.Fatalf("EditRelease: %+v", edited)
	}
	renamed, _, err := c.EditReleaseAttachment(owner, "shipped", rel.ID, att.ID, gitea.EditAttachmentOptions{Name: "tool-linux.bin"})
	check(t, "EditReleaseAttachment", err)
	if renamed.Name != "tool-linux.bin" || renamed.DownloadCount != 2 {
		t.Fatalf("EditReleaseAttachment: %+v", renamed)
	}
	_, err = c.DeleteReleaseAttachment(owner, "shipped", rel.ID, att.ID)
	check(t, "DeleteReleaseAttachment", err)
	res = n.Call("GET", strings.TrimPrefix(renamed.DownloadURL, n.URL), nil, nil)
	if res.Status != http.StatusNotFound {
		t.Fatalf("download of a deleted asset: %d", res.Status)
	}
	_, err = c.DeleteRelease(owner, "shipped", rel.ID)
	check(t, "DeleteRelease", err)
	n.JSON("GET", repoPath(alice, "shipped")+"/releases/tags/v1.0", nil, nil, http.StatusNotFound, nil)
	n.JSON("DELETE", repoPath(alice, "shipped")+"/releases/tags/v2.0-rc", alice, nil, http.StatusNoContent, nil)
	n.JSON("GET", repoPath(alice, "shipped")+"/tags", nil, nil, http.StatusOK, &tags)
	if len(tags) != 2 { // the tags stay, as in Gitea; the draft has none yet
		t.Fatalf("tags after deleting their releases: %+v", tags)
	}
	// Publishing the draft makes its tag.
	published, _, err := c.EditRelease(owner, "shipped", draft.ID, gitea.EditReleaseOption{IsDraft: ptrBool(false)})
	check(t, "EditRelease publish", err)
	if published.IsDraft {
		t.Fatalf("published draft: %+v", published)
	}
	n.JSON("GET", repoPath(alice, "shipped")+"/tags", nil, nil, http.StatusOK, &tags)
	if len(tags) != 3 {
		t.Fatalf("tags after publishing the draft: %+v", tags)
	}
}

func download(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	check(t, "download", err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	check(t, "download", err)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return body
}

func ptrBool(b bool) *bool { return &b }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A private repository's releases are its readers' alone (404 to anyone
// else), its assets included (privfiles_test.go has more).
func TestPrivateReleases(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "hidden", true)
	var rel struct {
		ID int64 `json:"id"`
	}
	n.JSON("POST", repoPath(alice, "hidden")+"/releases", alice, map[string]any{"tag_name": "v1", "name": "One"}, http.StatusCreated, &rel)
	n.JSON("GET", repoPath(alice, "hidden")+"/releases", alice, nil, http.StatusOK, nil)
	for _, who := range []*forgetest.User{nil, bob} {
		n.JSON("GET", repoPath(alice, "hidden")+"/releases", who, nil, http.StatusNotFound, nil)
		n.JSON("GET", repoPath(alice, "hidden")+"/releases/tags/v1", who, nil, http.StatusNotFound, nil)
	}
	n.JSON("POST", repoPath(alice, "hidden")+"/releases/"+itoa(rel.ID)+"/assets?name=a.bin", alice, "bytes", http.StatusCreated, nil)
	res := n.Call("GET", "/"+alice.Name()+"/hidden/releases/download/v1/a.bin", nil, nil)
	if res.Status != http.StatusNotFound {
		t.Fatalf("an anonymous download from a private repository: %d", res.Status)
	}
}
