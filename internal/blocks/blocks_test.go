package blocks_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
)

// The empty blob, whose id every git knows.
const emptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

func TestCIDForGitObject(t *testing.T) {
	c := blocks.CIDForGitObject(emptyBlob)
	dec, err := multihash.Decode(c.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if c.Version() != 1 || c.Type() != 0x78 || dec.Code != 0x11 || hex.EncodeToString(dec.Digest) != emptyBlob {
		t.Fatalf("CID %s: v%d codec %x hash %x digest %x", c, c.Version(), c.Type(), dec.Code, dec.Digest)
	}
	// The string form round-trips (base32, as gateways print CIDv1).
	back, err := cid.Decode(c.String())
	if err != nil || !back.Equals(c) || !strings.HasPrefix(c.String(), "b") {
		t.Fatalf("round trip of %s: %v", c, err)
	}
	for _, bad := range []string{"", "xyz", emptyBlob[:39], emptyBlob + "00"} {
		if blocks.CIDForGitObject(bad).Defined() {
			t.Errorf("CIDForGitObject(%q) is defined", bad)
		}
	}
}

func TestPutChecksTheHash(t *testing.T) {
	s := openStore(t, t.TempDir())
	c := blocks.CIDForGitObject(emptyBlob)
	if err := s.Put(c, []byte("blob 1\x00x")); err == nil {
		t.Fatal("a block that does not hash to its CID was stored")
	}
	if s.Has(c) {
		t.Fatal("a refused block is there")
	}
	if err := s.Put(c, []byte("blob 0\x00")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(c); err != nil || string(got) != "blob 0\x00" {
		t.Fatalf("Get: %q %v", got, err)
	}
	// Streamed objects are checked too, and must be as long as they say.
	id := sha1Hex("blob 5\x00hello")
	if err := s.PutGitObject(gitstore.Object{ID: id, Type: "blob", Size: 5, Body: strings.NewReader("hel")}); err == nil {
		t.Fatal("a short object was stored")
	}
	if err := s.PutGitObject(gitstore.Object{ID: id, Type: "blob", Size: 5, Body: strings.NewReader("jello")}); err == nil {
		t.Fatal("an object with the wrong content was stored")
	}
	if s.HasGitObject(id) {
		t.Fatal("a refused object is there")
	}
	if err := s.PutGitObject(gitstore.Object{ID: id, Type: "blob", Size: 5, Body: strings.NewReader("hello")}); err != nil {
		t.Fatal(err)
	}
	if !s.HasGitObject(id) {
		t.Fatal("stored object missing")
	}
	// Another codec's CID is refused for put (this is a git-object store).
	raw := cid.NewCidV1(cid.Raw, c.Hash())
	if err := s.Put(raw, []byte("blob 0\x00")); err == nil {
		t.Fatal("a raw-codec block was accepted")
	}
}

// openStore opens the blockstore in dir until the test ends.
func openStore(t *testing.T, dir string) *blocks.Store {
	t.Helper()
	s, err := blocks.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sha1Hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestGateway(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	block := []byte("blob 12\x00hello, ipfs\n")
	id := sha1Hex(string(block))
	c := blocks.CIDForGitObject(id)
	if err := s.Put(c, block); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Gateway(nil))
	defer srv.Close()
	get := func(method, path string, header map[string]string) (*http.Response, []byte) {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}

	res, body := get("GET", "/ipfs/"+c.String()+"?format=raw", nil)
	if res.StatusCode != 200 || !bytes.Equal(body, block) {
		t.Fatalf("GET ?format=raw: %d %q", res.StatusCode, body)
	}
	want := map[string]string{
		"Content-Type":           "application/vnd.ipld.raw",
		"X-Content-Type-Options": "nosniff",
		"Cache-Control":          "public, max-age=29030400, immutable",
		"Etag":                   `"` + c.String() + `.raw"`,
		"X-Ipfs-Path":            "/ipfs/" + c.String(),
		"X-Ipfs-Roots":           c.String(),
		"Content-Length":         "20",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if sha1Hex(string(body)) != id {
		t.Fatal("the served block does not hash to its CID")
	}

	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"Accept raw", "GET", "/ipfs/" + c.String(), map[string]string{"Accept": "application/vnd.ipld.raw"}, 200},
		{"Accept list", "GET", "/ipfs/" + c.String(), map[string]string{"Accept": "text/html, application/vnd.ipld.raw;q=0.9"}, 200},
		{"HEAD", "HEAD", "/ipfs/" + c.String() + "?format=raw", nil, 200},
		{"cached", "GET", "/ipfs/" + c.String() + "?format=raw", map[string]string{"If-None-Match": `"` + c.String() + `.raw"`}, 304},
		{"range", "GET", "/ipfs/" + c.String() + "?format=raw", map[string]string{"Range": "bytes=0-3"}, 206},
		{"bad CID", "GET", "/ipfs/not-a-cid?format=raw", nil, 400},
		{"path inside", "GET", "/ipfs/" + c.String() + "/README.md?format=raw", nil, 406}, // raw blocks take no path
		{"unknown", "GET", "/ipfs/" + blocks.CIDForGitObject(emptyBlob).String() + "?format=raw", nil, 404},
		{"CIDv0 unknown", "GET", "/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG?format=raw", nil, 404},
		{"CAR", "GET", "/ipfs/" + c.String() + "?format=car", nil, 200},
		{"Accept CAR", "GET", "/ipfs/" + c.String(), map[string]string{"Accept": "application/vnd.ipld.car"}, 200},
		{"no format", "GET", "/ipfs/" + c.String(), nil, 400},
		{"format wins", "GET", "/ipfs/" + c.String() + "?format=car", map[string]string{"Accept": "application/vnd.ipld.raw"}, 200},
		{"POST", "POST", "/ipfs/" + c.String() + "?format=raw", nil, 405},
	} {
		res, _ := get(tc.method, tc.path, tc.header)
		if res.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.status)
		}
	}
	// The same bytes under the raw codec are the same block (found by multihash).
	res, body = get("GET", "/ipfs/"+cid.NewCidV1(cid.Raw, c.Hash()).String()+"?format=raw", nil)
	if res.StatusCode != 200 || !bytes.Equal(body, block) {
		t.Fatalf("raw-codec CID: %d", res.StatusCode)
	}
}
