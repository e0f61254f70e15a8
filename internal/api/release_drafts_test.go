package api_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/cli"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/store"
)

// draftOut is the part of a release these tests read.
type draftOut struct {
	ID      int64  `json:"id"`
	TagName string `json:"tag_name"`
	Title   string `json:"name"`
	Note    string `json:"body"`
	Draft   bool   `json:"draft"`
	Assets  []struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		CID         string `json:"cid"`
		SHA256      string `json:"sha256"`
		DownloadURL string `json:"browser_download_url"`
	} `json:"assets"`
}

// TestReleaseDraftsStayLocal: a draft release and its asset are this node's
// alone until published. Nothing of them is in any block of the chain nor
// served by the IPFS gateway; only writers see them (404 to anyone else);
// publishing puts them on chain and in the blockstore; a reindex keeps a
// draft; a draft whose tag a chain release took meanwhile is refused on
// publish with nothing lost.
func TestReleaseDraftsStayLocal(t *testing.T) {
	t.Parallel()
	onStores(t, testReleaseDraftsStayLocal)
}

func testReleaseDraftsStayLocal(t *testing.T, opts []forgetest.Option) {
	n := forgetest.Start(t, opts...)
	alice, bob := n.NewUser(), n.NewUser()
	repo := create(t, n, alice, "tool", false)
	base := repoPath(alice, "tool")

	// 1. A draft with an asset; every string of it is unique to it.
	secret := strings.ToLower(rand.Text())
	tag, title, note := "v9-"+secret, "Title "+secret, "Notes "+secret
	data := []byte("asset bytes " + secret)
	sum := sha256.Sum256(data)
	digest, assetCID := hex.EncodeToString(sum[:]), rawCID(t, data)
	var draft draftOut
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": tag, "name": title, "body": note, "draft": true}, http.StatusCreated, &draft)
	rel := base + "/releases/" + itoa(draft.ID)
	var asset struct {
		ID     int64  `json:"id"`
		CID    string `json:"cid"`
		SHA256 string `json:"sha256"`
	}
	postAsset(t, n, rel+"/assets?name=tool.bin", alice, data, http.StatusCreated).Decode(t, &asset)

	// (a) No block's transactions or results name any of it, nor does
	// the projection.
	for _, s := range []string{tag, title, note, secret, digest, assetCID, string(data)} {
		if bytes.Contains(chainText(t, n), []byte(s)) {
			t.Fatalf("the chain holds %q of a draft", s)
		}
	}
	// Drafts' ids are apart from the chain's; their assets have no CID.
	if !draft.Draft || draft.TagName != tag || draft.Title != title || draft.ID <= 1<<50 {
		t.Fatalf("created draft: %+v", draft)
	}
	if asset.CID != "" || asset.SHA256 != digest || asset.ID <= 1<<50 {
		t.Fatalf("draft asset: %+v", asset)
	}
	var projected int
	if err := n.Store.DB().QueryRow(`SELECT COUNT(*) FROM forge_releases WHERE tag_name = $1`, tag).Scan(&projected); err != nil || projected != 0 {
		t.Fatalf("projected releases of the draft's tag: %d %v", projected, err)
	}
	// (b) The gateway has no block of the asset.
	for _, format := range []string{"raw", "car"} {
		if res := n.Call("GET", "/ipfs/"+assetCID+"?format="+format, nil, nil); res.Status != http.StatusNotFound {
			t.Fatalf("gateway ?format=%s of a draft's asset: %d", format, res.Status)
		}
	}

	// (c) Writers see the draft; anyone else gets 404, never 403.
	var mine []draftOut
	n.JSON("GET", base+"/releases", alice, nil, http.StatusOK, &mine)
	if len(mine) != 1 || mine[0].ID != draft.ID || !mine[0].Draft || len(mine[0].Assets) != 1 {
		t.Fatalf("the writer's list: %+v", mine)
	}
	n.JSON("GET", base+"/releases/tags/"+tag, alice, nil, http.StatusOK, nil)
	if got := readAsset(t, n, mine[0].Assets[0].DownloadURL, alice); !bytes.Equal(got, data) {
		t.Fatalf("the writer's download of the draft's asset: %q", got)
	}
	for _, who := range []*forgetest.User{nil, bob} {
		var theirs []draftOut
		n.JSON("GET", base+"/releases", who, nil, http.StatusOK, &theirs)
		if len(theirs) != 0 {
			t.Fatalf("a non-writer's list: %+v", theirs)
		}
		for _, p := range []string{rel, base + "/releases/tags/" + tag, rel + "/assets", rel + "/assets/" + itoa(asset.ID)} {
			n.JSON("GET", p, who, nil, http.StatusNotFound, nil)
		}
		if res := n.Call("GET", strings.TrimPrefix(mine[0].Assets[0].DownloadURL, n.URL), who, nil); res.Status != http.StatusNotFound {
			t.Fatalf("a non-writer's download of the draft's asset: %d", res.Status)
		}
	}
	n.JSON("PATCH", rel, bob, map[string]any{"draft": false}, http.StatusNotFound, nil)
	n.JSON("DELETE", rel, bob, nil, http.StatusNotFound, nil)
	n.JSON("POST", rel+"/assets?name=x.bin", bob, "x", http.StatusNotFound, nil)

	// Bad input: a tag a draft or a chain release has, a bad tag or title,
	// and a published release made a draft again.
	var pub draftOut
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v1", "name": "One"}, http.StatusCreated, &pub)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": tag, "draft": true}, http.StatusConflict, nil)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": tag}, http.StatusConflict, nil)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v1", "draft": true}, http.StatusConflict, nil)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "bad..tag", "draft": true}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v5", "name": "bad\x00title", "draft": true}, http.StatusUnprocessableEntity, nil)
	n.JSON("PATCH", base+"/releases/"+itoa(pub.ID), alice, map[string]any{"draft": true}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", rel+"/assets?name=TOOL.bin", alice, "x", http.StatusConflict, nil)

	// (f) A chain release of a draft's tag, made elsewhere (the forge
	// service relays it as another node would): the index takes it, and
	// publishing the draft is a 409 that keeps the draft and its asset.
	var clash draftOut
	clashData := []byte("clash bytes " + secret)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v2", "name": "Local v2", "draft": true}, http.StatusCreated, &clash)
	postAsset(t, n, base+"/releases/"+itoa(clash.ID)+"/assets?name=c.bin", alice, clashData, http.StatusCreated)
	if _, err := n.Forge.Do(context.Background(), alice.Address, chainforge.ReleaseCreate{Repo: repo.ID, TagName: "v2", Title: "Elsewhere"}); err != nil {
		t.Fatalf("a chain release of the draft's tag: %v", err)
	}
	var other draftOut
	n.JSON("GET", base+"/releases/tags/v2", nil, nil, http.StatusOK, &other)
	if other.Title != "Elsewhere" || other.Draft {
		t.Fatalf("the chain's v2: %+v", other)
	}
	res := n.JSON("PATCH", base+"/releases/"+itoa(clash.ID), alice, map[string]any{"draft": false}, http.StatusConflict, nil)
	if !strings.Contains(string(res.Body), "v2") {
		t.Fatalf("the refusal does not name the tag: %s", res.Body)
	}
	var kept draftOut
	n.JSON("GET", base+"/releases/"+itoa(clash.ID), alice, nil, http.StatusOK, &kept)
	if !kept.Draft || kept.Title != "Local v2" || len(kept.Assets) != 1 {
		t.Fatalf("the refused draft: %+v", kept)
	}
	// Renamed, it publishes.
	var clashPub draftOut
	n.JSON("PATCH", base+"/releases/"+itoa(clash.ID), alice, map[string]any{"tag_name": "v2.1", "draft": false}, http.StatusOK, &clashPub)
	if clashPub.Draft || clashPub.TagName != "v2.1" || len(clashPub.Assets) != 1 || clashPub.Assets[0].CID != rawCID(t, clashData) {
		t.Fatalf("the renamed draft, published: %+v", clashPub)
	}

	// (d) Published: on chain, in the blockstore, shown to all; the draft's
	// id still names it on this node.
	var done draftOut
	n.JSON("PATCH", rel, alice, map[string]any{"draft": false}, http.StatusOK, &done)
	if done.Draft || done.ID >= 1<<50 || done.TagName != tag || done.Title != title || len(done.Assets) != 1 || done.Assets[0].CID != assetCID {
		t.Fatalf("published: %+v", done)
	}
	if !bytes.Contains(chainText(t, n), []byte(title)) {
		t.Fatal("the published release's title is not on chain")
	}
	if res := n.Call("GET", "/ipfs/"+assetCID+"?format=raw", nil, nil); res.Status != http.StatusOK || !bytes.Equal(res.Body, data) {
		t.Fatalf("gateway of the published asset: %d", res.Status)
	}
	n.JSON("GET", base+"/releases/tags/"+tag, bob, nil, http.StatusOK, nil)
	if got := readAsset(t, n, done.Assets[0].DownloadURL, nil); !bytes.Equal(got, data) {
		t.Fatalf("anyone's download of the published asset: %q", got)
	}
	var again draftOut
	n.JSON("GET", rel, nil, nil, http.StatusOK, &again)
	if again.ID != done.ID {
		t.Fatalf("the draft's id after publishing: %+v", again)
	}
	if _, err := os.Stat(privateFile(n, digest)); !os.IsNotExist(err) {
		t.Fatalf("the published asset's local file is still there: %v", err)
	}

	// Deleting a draft deletes its asset's file.
	var gone draftOut
	goneData := []byte("gone bytes " + secret)
	goneSum := sha256.Sum256(goneData)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v3", "draft": true}, http.StatusCreated, &gone)
	postAsset(t, n, base+"/releases/"+itoa(gone.ID)+"/assets?name=g.bin", alice, goneData, http.StatusCreated)
	n.JSON("DELETE", base+"/releases/"+itoa(gone.ID), alice, nil, http.StatusNoContent, nil)
	n.JSON("GET", base+"/releases/"+itoa(gone.ID), alice, nil, http.StatusNotFound, nil)
	if _, err := os.Stat(privateFile(n, hex.EncodeToString(goneSum[:]))); !os.IsNotExist(err) {
		t.Fatalf("the deleted draft's file is still there: %v", err)
	}

	// A private repository's draft publishes into its private store: the
	// asset keeps its file and gets no CID.
	create(t, n, alice, "vault", true)
	var sealed draftOut
	sealedData := []byte("sealed bytes " + secret)
	sealedSum := sha256.Sum256(sealedData)
	n.JSON("POST", repoPath(alice, "vault")+"/releases", alice, map[string]any{"tag_name": "v1", "draft": true}, http.StatusCreated, &sealed)
	postAsset(t, n, repoPath(alice, "vault")+"/releases/"+itoa(sealed.ID)+"/assets?name=s.bin", alice, sealedData, http.StatusCreated)
	n.JSON("PATCH", repoPath(alice, "vault")+"/releases/"+itoa(sealed.ID), alice, map[string]any{"draft": false}, http.StatusOK, &sealed)
	if sealed.Draft || len(sealed.Assets) != 1 || sealed.Assets[0].CID != "" || sealed.Assets[0].SHA256 != hex.EncodeToString(sealedSum[:]) {
		t.Fatalf("the private draft, published: %+v", sealed)
	}
	if got := readAsset(t, n, sealed.Assets[0].DownloadURL, alice); !bytes.Equal(got, sealedData) {
		t.Fatalf("the published private asset: %q", got)
	}
	n.JSON("GET", repoPath(alice, "vault")+"/releases/tags/v1", bob, nil, http.StatusNotFound, nil)

	// Deleting a repository deletes its drafts' files.
	create(t, n, alice, "scrap", true) // a public one's deletion is signed by the wallet
	var scrap draftOut
	scrapData := []byte("scrap bytes " + secret)
	scrapSum := sha256.Sum256(scrapData)
	n.JSON("POST", repoPath(alice, "scrap")+"/releases", alice, map[string]any{"tag_name": "v1", "draft": true}, http.StatusCreated, &scrap)
	postAsset(t, n, repoPath(alice, "scrap")+"/releases/"+itoa(scrap.ID)+"/assets?name=s.bin", alice, scrapData, http.StatusCreated)
	n.JSON("DELETE", repoPath(alice, "scrap"), alice, nil, http.StatusNoContent, nil)
	if _, err := os.Stat(privateFile(n, hex.EncodeToString(scrapSum[:]))); !os.IsNotExist(err) {
		t.Fatalf("a deleted repository's draft file is still there: %v", err)
	}

	// (e) A rebuild of the projection from the chain keeps local drafts.
	var last draftOut
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v4", "name": "Kept", "draft": true}, http.StatusCreated, &last)
	n.Node.Close()
	if err := cli.Reindex(context.Background(), n.Dir, n.DB, forgetest.Quiet, io.Discard); err != nil {
		t.Fatalf("reindex: %v", err)
	}
	st, err := store.Open(context.Background(), n.DB)
	check(t, "open the store", err)
	defer st.Close()
	drafts, err := st.ReleaseDrafts(context.Background(), repo.ID)
	check(t, "read the drafts", err)
	if len(drafts) != 1 || drafts[0].TagName != "v4" || drafts[0].Title != "Kept" {
		t.Fatalf("drafts after reindex: %+v", drafts)
	}
}

// chainText is every transaction and every block result on n's chain, as
// bytes to search.
func chainText(t *testing.T, n *forgetest.Node) []byte {
	t.Helper()
	ctx := context.Background()
	c := n.Chain.Client()
	st, err := c.Status(ctx)
	check(t, "status", err)
	var all bytes.Buffer
	for h := int64(1); h <= st.SyncInfo.LatestBlockHeight; h++ {
		b, err := c.Block(ctx, &h)
		check(t, "block", err)
		for _, tx := range b.Block.Txs {
			all.Write(tx)
			all.WriteByte('\n')
		}
		res, err := c.BlockResults(ctx, &h)
		check(t, "block results", err)
		raw, err := json.Marshal(res)
		check(t, "encode block results", err)
		all.Write(raw)
	}
	return all.Bytes()
}

// readAsset downloads url as u (nil: anonymous) and wants a 200.
func readAsset(t *testing.T, n *forgetest.Node, url string, u *forgetest.User) []byte {
	t.Helper()
	res := n.Call("GET", strings.TrimPrefix(url, n.URL), u, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.Status, res.Body)
	}
	return res.Body
}

// postAsset uploads data as the raw body of an asset upload as u and wants
// status.
func postAsset(t *testing.T, n *forgetest.Node, path string, u *forgetest.User, data []byte, want int) forgetest.Response {
	t.Helper()
	req, err := http.NewRequest("POST", n.URL+path, bytes.NewReader(data))
	check(t, "asset request", err)
	req.Header.Set("Authorization", "token "+u.Token)
	res, err := http.DefaultClient.Do(req)
	check(t, "asset upload", err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	check(t, "asset upload", err)
	if res.StatusCode != want {
		t.Fatalf("POST %s: %d, want %d: %s", path, res.StatusCode, want, body)
	}
	return forgetest.Response{Status: res.StatusCode, Header: res.Header, Body: body}
}
