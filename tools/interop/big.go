package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
)

// bigSize is the size of the blob pushed on the big branch: over
// blocks.ChunkSize, so the node serves it as a UnixFS file whose chunks it
// reads from git.
const bigSize = 3<<20 + 12345

// pushBig pushes a branch "big" (off main, so the main DAG the CAR check
// walks is unchanged) holding one random blob of bigSize, and records the
// blob's id.
func (r *run) pushBig(ctx context.Context, p *pushedRepo) error {
	data := make([]byte, bigSize)
	rand.Read(data)
	if _, err := p.git(ctx, p.dir, "checkout", "--quiet", "-b", "big"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(p.dir, "big.bin"), data, 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"add", "big.bin"}, {"commit", "--quiet", "-m", "a big blob"}, {"push", "--quiet", p.remote, "big"}} {
		if _, err := p.git(ctx, p.dir, args...); err != nil {
			return fmt.Errorf("git %s: %w", args[0], err)
		}
	}
	out, err := p.git(ctx, p.dir, "rev-parse", "HEAD:big.bin")
	if err != nil {
		return err
	}
	p.big = strings.TrimSpace(string(out))
	_, err = p.git(ctx, p.dir, "checkout", "--quiet", "main")
	return err
}

// fetchBig asks Kubo for the big blob as the UnixFS file of its loose form
// (`ipfs cat` of the root computed here, as a replica reads the push's
// manifest): every chunk comes over bitswap from the node, which reads
// them from git, and the file must be git's object.
func (r *run) fetchBig(ctx context.Context, n *dforgeNode, k *kuboNode, p *pushedRepo) {
	want, err := p.loose(ctx, p.big)
	var root cid.Cid
	if err == nil {
		root, err = blocks.UnixFSRoot(bytes.NewReader(want))
	}
	if err == nil {
		err = waitForCIDs(ctx, n.url, []cid.Cid{root}, time.Minute)
	}
	if err != nil {
		r.check("the big blob's UnixFS file on the node", err)
		return
	}
	t0 := time.Now()
	got, err := k.ipfs(ctx, 2*time.Minute, "cat", "--progress=false", root.String())
	d := r.time("cat the big blob's UnixFS file", t0)
	if err == nil && !bytes.Equal(got, want) {
		err = fmt.Errorf("the file (%d B) differs from git cat-file's object (%d B)", len(got), len(want))
	}
	r.check(fmt.Sprintf("ipfs cat %s, a %d B blob served from git (%s)", root, len(want), d.Round(time.Millisecond)), err)
}
