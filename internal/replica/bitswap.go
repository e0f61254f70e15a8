package replica

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"sync"
	"time"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
)

// The fallback when no dForge peer sends a repository's objects: its
// commit DAG by CID over bitswap, from any IPFS peer (a Kubo node that
// pinned it, say). A git-raw block is a loose object's bytes; each one
// fetched is hashed against its id and added to a pack (no deltas), which
// `git index-pack` checks again and indexes into the quarantine. The walk
// stops at objects the repository has. The blocks stay in this node's
// blockstore (p2p.Node.Fetch stores them), so a retry after a walk cut
// short asks the network only for the rest.
//
// A git object over 1 MiB may not travel as one block: the push that
// brought it recorded a manifest on chain (blocks.Manifest) naming the
// UnixFS file of its loose form. The walk reads the repository's manifests
// first and fetches each object they name as that file, 1 MiB chunks each
// checked against its CID, the whole against the git id.
//
// One pack rather than a file per block: for 500 objects of 2 KiB a pack
// (index-pack included) took 0.3 ms an object, loose files (zlib, temp
// file, rename) 1.1 ms and a `git hash-object -w` each 3 ms, on a shared
// 2-core machine (BenchmarkWriteObjects); and the repository gets one
// file, not 500.

const (
	blockTimeout  = 20 * time.Second // for one block
	blockParallel = 16               // blocks asked for at once
)

// bitswapFetch fetches ids and everything they reach that q's repository
// (repo on chain) lacks into q.
func (r *Replicator) bitswapFetch(ctx context.Context, q *gitstore.Quarantine, repo uint64, ids []string) error {
	pack, err := newPackFile(q.Path)
	if err != nil {
		return err
	}
	defer pack.close()
	pack.big = r.bigObjects(ctx, repo)
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	frontier, err := missing(ctx, q.Repo, q, ids)
	for len(frontier) > 0 && err == nil {
		var links []string
		if links, err = r.fetchLevel(ctx, pack, frontier); err != nil {
			return err
		}
		var next []string
		for _, id := range links {
			if !seen[id] {
				seen[id] = true
				next = append(next, id)
			}
		}
		frontier, err = missing(ctx, q.Repo, q, next)
	}
	if err != nil {
		return err
	}
	return pack.index(ctx, q)
}

// fetchLevel fetches ids at once (blockParallel at a time), adds each to
// pack, and returns the ids they link to.
func (r *Replicator) fetchLevel(ctx context.Context, pack *packFile, ids []string) ([]string, error) {
	var (
		mu    sync.Mutex
		links []string
		errs  []error
		wg    sync.WaitGroup
		slots = make(chan struct{}, blockParallel)
	)
	for _, id := range ids {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			ls, err := r.fetchObject(ctx, pack, id)
			mu.Lock()
			defer mu.Unlock()
			links = append(links, ls...)
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	return links, errors.Join(errs...)
}

func (r *Replicator) fetchObject(ctx context.Context, pack *packFile, id string) ([]string, error) {
	var data []byte
	if root, ok := pack.big[id]; ok {
		var err error
		if data, err = r.fetchUnixFS(ctx, root, id); err != nil {
			r.log.WarnContext(ctx, "fetch a big object's chunks; trying its block", "object", id, "root", root.String(), "err", err)
		}
	}
	if data == nil {
		ctx, cancel := context.WithTimeout(ctx, blockTimeout)
		defer cancel()
		blk, err := r.cfg.Bitswap.Fetch(ctx, blocks.CIDForGitObject(id))
		if err != nil {
			return nil, err
		}
		data = blk.RawData()
	}
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != id {
		return nil, fmt.Errorf("block %s holds another object", id)
	}
	links, err := objectLinks(data)
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", id, err)
	}
	if err := pack.add(data); err != nil {
		return nil, err
	}
	return links, nil
}

// bigObjects maps the git ids of repo's big objects to their UnixFS roots,
// from the manifests its pushes recorded on chain, each fetched (at once,
// blockParallel at a time) and checked. A manifest no peer sends is left
// out: its objects are asked for as blocks.
func (r *Replicator) bigObjects(ctx context.Context, repo uint64) blocks.Manifest {
	list, err := r.cfg.Chain.Manifests(ctx, repo)
	if err != nil {
		r.log.WarnContext(ctx, "list the manifests of big objects", "repo", repo, "err", err)
		return nil
	}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		slots = make(chan struct{}, blockParallel)
		all   = blocks.Manifest{}
	)
	for _, s := range list {
		c, err := cid.Decode(s)
		if err != nil || !blocks.IsManifestCID(c) {
			continue // the chain checked it; an old projection might not have
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			ctx, cancel := context.WithTimeout(ctx, blockTimeout)
			defer cancel()
			blk, err := r.cfg.Bitswap.Fetch(ctx, c)
			var m blocks.Manifest
			if err == nil {
				m, err = blocks.DecodeManifest(blk)
			}
			if err != nil {
				r.log.WarnContext(ctx, "fetch a manifest of big objects", "repo", repo, "manifest", s, "err", err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			maps.Copy(all, m) // the same object has the same root in any manifest
		}()
	}
	wg.Wait()
	return all
}

// fetchUnixFS reads the big object id from its UnixFS file root.
func (r *Replicator) fetchUnixFS(ctx context.Context, root cid.Cid, id string) ([]byte, error) {
	get := func(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
		ctx, cancel := context.WithTimeout(ctx, blockTimeout)
		defer cancel()
		return r.cfg.Bitswap.Fetch(ctx, c)
	}
	var buf bytes.Buffer
	if err := blocks.ReadUnixFSObject(ctx, get, root, id, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// packFile gathers objects as the entries of a version 2 pack without
// deltas, in a temporary file (the count goes in the pack's header, so
// the entries come first).
type packFile struct {
	mu  sync.Mutex
	f   *os.File
	n   uint32
	big blocks.Manifest // objects to read as UnixFS files, by git id
}

// packTypes are the pack's codes of the object types.
var packTypes = map[string]byte{"commit": 1, "tree": 2, "blob": 3, "tag": 4}

func newPackFile(dir string) (*packFile, error) {
	f, err := os.CreateTemp(dir, "entries-")
	if err != nil {
		return nil, fmt.Errorf("start a pack of fetched objects: %w", err)
	}
	return &packFile{f: f}, nil
}

// add appends an object given in its loose form ("<type> <size>\0...").
func (p *packFile) add(loose []byte) error {
	header, body, _ := bytes.Cut(loose, []byte{0})
	kind, _, _ := bytes.Cut(header, []byte{' '})
	code, ok := packTypes[string(kind)]
	if !ok {
		return fmt.Errorf("pack an object: unknown type %q", kind)
	}
	// The entry header: type and size, 4 bits then 7 per byte.
	size := len(body)
	entry := []byte{code<<4 | byte(size&0x0f)}
	for size >>= 4; size > 0; size >>= 7 {
		entry[len(entry)-1] |= 0x80
		entry = append(entry, byte(size&0x7f))
	}
	var z bytes.Buffer
	z.Write(entry)
	zw := zlib.NewWriter(&z)
	zw.Write(body)
	if err := zw.Close(); err != nil {
		return fmt.Errorf("pack an object: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.f.Write(z.Bytes()); err != nil {
		return fmt.Errorf("pack an object: %w", err)
	}
	p.n++
	return nil
}

// index writes the pack (header, entries, SHA-1 trailer) through `git
// index-pack --stdin` into q, which checks each object and indexes it.
func (p *packFile) index(ctx context.Context, q *gitstore.Quarantine) error {
	if p.n == 0 {
		return nil
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("write the pack of fetched objects: %w", err)
	}
	pr, pw := io.Pipe()
	go func() {
		sum := sha1.New()
		w := io.MultiWriter(pw, sum)
		header := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte("PACK"), 2), p.n)
		_, err := w.Write(header)
		if err == nil {
			_, err = io.Copy(w, p.f)
		}
		if err == nil {
			_, err = pw.Write(sum.Sum(nil))
		}
		pw.CloseWithError(err)
	}()
	defer pr.Close()
	if _, err := git(ctx, q.Repo, q.Env(), pr, "index-pack", "--stdin"); err != nil {
		return fmt.Errorf("write the pack of fetched objects: %w", err)
	}
	return nil
}

func (p *packFile) close() {
	p.f.Close()
	os.Remove(p.f.Name())
}

// objectLinks reads the ids a loose object refers to: a commit's tree and
// parents, a tree's entries (not submodule commits, which live in other
// repositories), a tag's object.
func objectLinks(data []byte) ([]string, error) {
	header, body, ok := bytes.Cut(data, []byte{0})
	if !ok {
		return nil, errors.New("no object header")
	}
	kind, size, ok := bytes.Cut(header, []byte{' '})
	if n, err := strconv.Atoi(string(size)); !ok || err != nil || n != len(body) {
		return nil, fmt.Errorf("bad object header %q", header)
	}
	switch string(kind) {
	case "blob":
		return nil, nil
	case "commit":
		return headerIDs(body, "tree", "parent")
	case "tag":
		return headerIDs(body, "object")
	case "tree":
		return treeIDs(body)
	}
	return nil, fmt.Errorf("unknown object type %q", kind)
}

// headerIDs reads the ids of the header lines named keys (up to the blank
// line before the message).
func headerIDs(body []byte, keys ...string) ([]string, error) {
	var ids []string
	for len(body) > 0 {
		line, rest, _ := bytes.Cut(body, []byte{'\n'})
		if len(line) == 0 {
			break
		}
		body = rest
		key, value, _ := bytes.Cut(line, []byte{' '})
		for _, k := range keys {
			if string(key) == k {
				if !isID(string(value)) {
					return nil, fmt.Errorf("bad %s %q", k, value)
				}
				ids = append(ids, string(value))
			}
		}
	}
	return ids, nil
}

// treeIDs reads a tree's entries: "<mode> <name>\0<20-byte id>".
func treeIDs(body []byte) ([]string, error) {
	var ids []string
	for len(body) > 0 {
		mode, rest, ok := bytes.Cut(body, []byte{' '})
		if !ok {
			return nil, errors.New("bad tree entry")
		}
		_, rest, ok = bytes.Cut(rest, []byte{0})
		if !ok || len(rest) < 20 {
			return nil, errors.New("bad tree entry")
		}
		if string(mode) != "160000" { // a submodule's commit
			ids = append(ids, hex.EncodeToString(rest[:20]))
		}
		body = rest[20:]
	}
	return ids, nil
}

func isID(s string) bool {
	if len(s) != 40 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
