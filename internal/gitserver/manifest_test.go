package gitserver_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
)

// A push to a public repository sends the manifest of its objects over
// 1 MiB with its ref updates, the manifest's block stored; a push of
// small objects sends none, and a private repository's never does.
func TestPushSendsTheManifestOfBigObjects(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	big := make([]byte, 2<<20)
	rand.Read(big)
	for _, private := range []bool{false, true} {
		name := map[bool]string{false: "public", true: "private"}[private]
		r := h.repo(alice, "alice", name, private, false)
		work := h.clone(h.remote(alice, "alice", name))
		h.commit(work, "big", map[string]string{"big.bin": string(big)})
		h.run(work, "push", "--quiet", "origin", "main")
		h.commit(work, "small", map[string]string{"small.txt": "small\n"})
		h.run(work, "push", "--quiet", "origin", "main")
		blob := strings.TrimSpace(h.run(work, "rev-parse", "HEAD:big.bin"))

		pushes := h.repos.pushesTo(r)
		if len(pushes) != 2 || pushes[1].manifest != "" {
			t.Fatalf("%s: pushes %+v; the second brings no big object", name, pushes)
		}
		if private {
			if pushes[0].manifest != "" {
				t.Fatalf("a private push sent a manifest: %s", pushes[0].manifest)
			}
			continue
		}
		c, err := cid.Decode(pushes[0].manifest)
		if err != nil {
			t.Fatalf("manifest %q: %v", pushes[0].manifest, err)
		}
		blk, err := h.blocks.Blockstore().Get(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		m, err := blocks.DecodeManifest(blk)
		if err != nil || len(m) != 1 || !m[blob].Defined() {
			t.Fatalf("manifest %v, %v; want the blob %s", m, err, blob)
		}
		h.settleBlocks()
		if !h.blocks.Has(m[blob]) || !h.blocks.HasGitObject(blob) {
			t.Fatal("the big blob's block or UnixFS file was not stored")
		}
	}
}
