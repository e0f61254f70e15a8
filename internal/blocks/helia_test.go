package blocks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/longtest"
)

// An IPFS client in JavaScript fetches a repository's blocks from the
// gateway and checks each against its CID: @helia/http with the
// trustless-gateway block broker and a sha1 hasher, routed to this gateway
// only (web/scripts/helia-check.mjs). A gateway that alters a block fails it.
func TestHeliaFetchesVerifiedBlocks(t *testing.T) {
	longtest.Mark(t, "runs a Helia node in Node.js")
	web, err := filepath.Abs(filepath.Join("..", "..", "web"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not installed: the IPFS client check needs Node.js 20 (apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join(web, "node_modules", "@helia", "http")); err != nil {
		t.Fatal("web/node_modules lacks @helia/http: run npm install in web (make test does)")
	}
	repo := sampleRepo(t)
	head := revParse(t, repo, "HEAD")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if _, err := s.ImportRepository(context.Background(), repo); err != nil {
		t.Fatal(err)
	}
	gw := s.Gateway(nil)
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	root := blocks.CIDForGitObject(head).String()

	out, stderr, err := helia(t, web, srv.URL, root)
	if err != nil {
		t.Fatalf("helia-check: %v\n%s%s", err, out, stderr)
	}
	var got []cid.Cid
	for _, line := range strings.Fields(out) {
		c, err := cid.Decode(line)
		if err != nil {
			t.Fatalf("helia-check printed %q: %v", line, err)
		}
		got = append(got, c)
	}
	if want := cids(walkOrder(t, repo, head)); !slices.Equal(got, want) {
		t.Fatalf("Helia fetched\n%v\nwant\n%v", got, want)
	}

	// The same gateway, but one bit of every raw block flipped.
	tampered := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		gw.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rec.Header().Get("Content-Type") == blocks.RawType && len(body) > 0 {
			body[len(body)-1] ^= 1
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(tampered.Close)
	// The broker's error log says why it refused the block.
	out, stderr, err = helia(t, web, tampered.URL, root, "DEBUG=helia:trustless-gateway-block-broker:error")
	if err == nil || !strings.Contains(stderr, "Hash of downloaded block did not match multihash from passed CID") {
		t.Fatalf("Helia should refuse altered blocks: %v\n%s%s", err, out, stderr)
	}
}

// helia runs web/scripts/helia-check.mjs and returns its stdout and stderr.
func helia(t *testing.T, web, gateway, root string, env ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "scripts/helia-check.mjs", gateway, root)
	cmd.Dir = web
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return string(out), stderr.String(), err
}
