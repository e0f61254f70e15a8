package gitserver_test

import (
	"context"
	"crypto/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
)

// recorded is one manifest the blockstore asked to record on chain.
type recorded struct {
	repo     uint64
	pusher   string
	manifest cid.Cid
}

// A push to a public repository sends no manifest with its ref updates:
// the job that stores its objects builds the manifest of those over 1 MiB
// after the push, stores its block and has it recorded for the pusher. A
// push of small objects records none, and a private repository's never
// does.
func TestPushRecordsTheManifestOfBigObjectsAfterThePush(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	got := make(chan recorded, 10)
	h.blocks.RecordManifests(func(_ context.Context, repo uint64, pusher string, manifest cid.Cid) error {
		got <- recorded{repo, pusher, manifest}
		return nil
	})
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
		h.settleBlocks()

		pushes := h.repos.pushesTo(r)
		if len(pushes) != 2 {
			t.Fatalf("%s: pushes %+v; want both", name, pushes)
		}
		if private {
			select {
			case rec := <-got:
				t.Fatalf("a private push recorded a manifest: %+v", rec)
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		var rec recorded
		select {
		case rec = <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("no manifest was recorded for the push of a big object")
		}
		if id, _ := strconv.ParseUint(r.ID, 10, 64); rec.repo != id || !strings.EqualFold(rec.pusher, alice.addr.Hex()) {
			t.Fatalf("recorded %+v; want repository %s pushed by %s", rec, r.ID, alice.addr.Hex())
		}
		blk, err := h.blocks.Blockstore().Get(context.Background(), rec.manifest)
		if err != nil {
			t.Fatal(err)
		}
		m, err := blocks.DecodeManifest(blk)
		if err != nil || len(m) != 1 || !m[blob].Defined() {
			t.Fatalf("manifest %v, %v; want the blob %s", m, err, blob)
		}
		if !h.blocks.Has(m[blob]) || !h.blocks.HasGitObject(blob) {
			t.Fatal("the big blob's block or UnixFS file was not stored")
		}
		select {
		case extra := <-got:
			t.Fatalf("the push of small objects recorded a manifest: %+v", extra)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
