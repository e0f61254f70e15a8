package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"
)

// gitRaw is the multicodec of a git object's loose form.
const gitRaw = 0x78

// gitCID is the CID of a git object: CIDv1, git-raw, the sha1 multihash of
// its id (which is the sha1 of its loose form).
func gitCID(id string) (cid.Cid, error) {
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != sha1.Size {
		return cid.Undef, fmt.Errorf("not a git sha1 id: %q", id)
	}
	mh, err := multihash.Encode(raw, multihash.SHA1)
	if err != nil {
		return cid.Undef, err
	}
	return cid.NewCidV1(gitRaw, mh), nil
}

// fetchBlocks asks Kubo for the commit, its tree, a subtree and a blob by
// CID; each answer must be git's loose object, hashing to its id.
func (r *run) fetchBlocks(ctx context.Context, k *kuboNode, p *pushedRepo) {
	objects := []struct{ kind, id string }{
		{"commit", p.head}, {"tree", p.tree}, {"tree docs/", p.subdir}, {"blob README.md", p.blob},
	}
	for _, o := range objects {
		if ctx.Err() != nil { // interrupted: the run reports that
			return
		}
		c, err := gitCID(o.id)
		if err != nil {
			r.check("block get "+o.kind, err)
			continue
		}
		// Kubo names the CID as this tool does.
		if out, err := k.ipfs(ctx, 30*time.Second, "cid", "format", "-v", "1", "-b", "base32", c.String()); err != nil || strings.TrimSpace(string(out)) != c.String() {
			r.check("cid of "+o.kind, fmt.Errorf("ipfs cid format gives %q for %s: %v", strings.TrimSpace(string(out)), c, err))
		}
		// A fresh Kubo repo has none of them: a block comes over bitswap.
		if _, err := k.ipfs(ctx, 30*time.Second, "block", "stat", "--offline", c.String()); err == nil {
			r.check("block get "+o.kind, fmt.Errorf("kubo had %s before fetching it", c))
			continue
		}
		t0 := time.Now()
		data, err := k.ipfs(ctx, 60*time.Second, "block", "get", c.String())
		d := r.time("block get "+o.kind, t0)
		if err == nil {
			err = sameObject(ctx, p, o.id, data)
		}
		if err == nil { // and Kubo keeps it
			_, err = k.ipfs(ctx, 30*time.Second, "block", "stat", "--offline", c.String())
		}
		r.check(fmt.Sprintf("ipfs block get %s %s (%d B, %s)", o.kind, c, len(data), d.Round(time.Millisecond)), err)
	}
}

// sameObject checks that data is the git object id: it hashes to id and
// equals `git cat-file` with the "<type> <size>\x00" header.
func sameObject(ctx context.Context, p *pushedRepo, id string, data []byte) error {
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != id {
		return fmt.Errorf("the block hashes to %x, not %s", sum, id)
	}
	want, err := p.loose(ctx, id)
	if err != nil {
		return err
	}
	if !bytes.Equal(data, want) {
		return fmt.Errorf("the block (%d B) differs from git cat-file's object (%d B)", len(data), len(want))
	}
	return nil
}

// exportDAG asks Kubo for the head commit's DAG as a CAR: its root must be
// the commit and its blocks exactly the objects reachable from it (parents,
// trees, blobs), each hashing to its CID.
func (r *run) exportDAG(ctx context.Context, k *kuboNode, p *pushedRepo) {
	root, err := gitCID(p.head)
	if err != nil {
		r.check("dag export", err)
		return
	}
	t0 := time.Now()
	car, err := k.ipfs(ctx, 2*time.Minute, "dag", "export", "--progress=false", root.String())
	d := r.time("dag export (whole history)", t0)
	name := fmt.Sprintf("ipfs dag export %s (%d B, %s)", root, len(car), d.Round(time.Millisecond))
	if err != nil {
		r.check(name, err)
		return
	}
	os.WriteFile(filepath.Join(r.tmp, "export.car"), car, 0o644)
	roots, blocks, err := readCAR(car)
	if err != nil {
		r.check(name, fmt.Errorf("read the CAR: %w", err))
		return
	}
	name = fmt.Sprintf("ipfs dag export %s (%d B, %d blocks, %s)", root, len(car), len(blocks), d.Round(time.Millisecond))
	r.check(name, checkCAR(ctx, p, root, roots, blocks))
}

func checkCAR(ctx context.Context, p *pushedRepo, root cid.Cid, roots []cid.Cid, blocks []carBlock) error {
	if len(roots) != 1 || !roots[0].Equals(root) {
		return fmt.Errorf("the CAR's roots are %v, want [%s]", roots, root)
	}
	var got []string
	for _, b := range blocks {
		if b.cid.Type() != gitRaw || b.cid.Prefix().MhType != multihash.SHA1 {
			return fmt.Errorf("block %s is not git-raw sha1", b.cid)
		}
		id := hex.EncodeToString(b.cid.Hash()[2:])
		if err := sameObject(ctx, p, id, b.data); err != nil {
			return fmt.Errorf("block %s: %w", b.cid, err)
		}
		got = append(got, id)
	}
	if len(blocks) == 0 || !blocks[0].cid.Equals(root) {
		return errors.New("the CAR does not start with the root commit")
	}
	want := slices.Clone(p.all)
	slices.Sort(got)
	got = slices.Compact(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		var missing, extra []string
		for _, id := range want {
			if _, ok := slices.BinarySearch(got, id); !ok {
				missing = append(missing, id)
			}
		}
		for _, id := range got {
			if _, ok := slices.BinarySearch(want, id); !ok {
				extra = append(extra, id)
			}
		}
		return fmt.Errorf("the CAR holds %d objects, git rev-list --objects %d; missing %v, extra %v", len(got), len(want), missing, extra)
	}
	return nil
}

type carBlock struct {
	cid  cid.Cid
	data []byte
}

// readCAR reads a CARv1: a varint-framed dag-cbor header {roots, version},
// then varint-framed sections of a CID and its block. The header's roots
// are found by their CBOR tag 42 (a CID link), which is all this needs.
func readCAR(b []byte) (roots []cid.Cid, blocks []carBlock, err error) {
	rd := bufio.NewReader(bytes.NewReader(b))
	header, err := section(rd)
	if err != nil {
		return nil, nil, fmt.Errorf("header: %w", err)
	}
	if !bytes.Contains(header, []byte("version\x01")) {
		return nil, nil, fmt.Errorf("header %x: not CAR version 1", header)
	}
	// A link is tag 42 (0xd8 0x2a), a byte string (0x58 <len>), 0x00, the CID.
	for rest := header; ; {
		i := bytes.Index(rest, []byte{0xd8, 0x2a, 0x58})
		if i < 0 || i+4 > len(rest) {
			break
		}
		n := int(rest[i+3])
		if i+4+n > len(rest) || n < 1 {
			return nil, nil, fmt.Errorf("header %x: a root runs past its end", header)
		}
		c, err := cid.Cast(rest[i+5 : i+4+n])
		if err != nil {
			return nil, nil, fmt.Errorf("header root: %w", err)
		}
		roots = append(roots, c)
		rest = rest[i+4+n:]
	}
	for {
		s, err := section(rd)
		if err == io.EOF {
			return roots, blocks, nil
		}
		if err != nil {
			return nil, nil, err
		}
		n, c, err := cid.CidFromBytes(s)
		if err != nil {
			return nil, nil, fmt.Errorf("section %d: %w", len(blocks), err)
		}
		got, err := c.Prefix().Sum(s[n:])
		if err != nil || !got.Equals(c) {
			return nil, nil, fmt.Errorf("block %s: its bytes hash to %s (%v)", c, got, err)
		}
		blocks = append(blocks, carBlock{c, s[n:]})
	}
}

func section(rd *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(rd)
	if err != nil {
		return nil, err // io.EOF at a clean end
	}
	if n > 8<<20 {
		return nil, fmt.Errorf("a section of %d bytes", n)
	}
	s := make([]byte, n)
	if _, err := io.ReadFull(rd, s); err != nil {
		return nil, fmt.Errorf("section of %d bytes: %w", n, err)
	}
	return s, nil
}
