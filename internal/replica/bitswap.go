package replica

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/blocks"
)

// The fallback when no dForge peer sends a repository's objects: its
// commit DAG by CID over bitswap, from any IPFS peer (a Kubo node that
// pinned it, say). A git-raw block is a loose object's bytes, so each one
// fetched is hashed against its id and written as a loose object into the
// quarantine; the walk stops at objects the repository has. The blocks
// stay in this node's blockstore (p2p.Node.Fetch stores them), so a retry
// after a walk cut short asks the network only for the rest.

const (
	blockTimeout  = 20 * time.Second // for one block
	blockParallel = 16               // blocks asked for at once
)

// bitswapFetch fetches ids and everything they reach that q's repository
// lacks into q.
func (r *Replicator) bitswapFetch(ctx context.Context, q *quarantine, ids []string) error {
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	frontier, err := missing(ctx, q.repo, q, ids)
	for len(frontier) > 0 && err == nil {
		var links []string
		if links, err = r.fetchLevel(ctx, q.path, frontier); err != nil {
			return err
		}
		q.loose = append(q.loose, frontier...)
		var next []string
		for _, id := range links {
			if !seen[id] {
				seen[id] = true
				next = append(next, id)
			}
		}
		frontier, err = missing(ctx, q.repo, q, next)
	}
	return err
}

// fetchLevel fetches ids at once (blockParallel at a time), writes each as
// a loose object in quarantine, and returns the ids they link to.
func (r *Replicator) fetchLevel(ctx context.Context, quarantine string, ids []string) ([]string, error) {
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
			ls, err := r.fetchObject(ctx, quarantine, id)
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

func (r *Replicator) fetchObject(ctx context.Context, quarantine, id string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, blockTimeout)
	defer cancel()
	blk, err := r.cfg.Bitswap.Fetch(ctx, blocks.CIDForGitObject(id))
	if err != nil {
		return nil, err
	}
	data := blk.RawData()
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != id {
		return nil, fmt.Errorf("block %s holds another object", id)
	}
	links, err := objectLinks(data)
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", id, err)
	}
	if err := writeLoose(quarantine, id, data); err != nil {
		return nil, err
	}
	return links, nil
}

// writeLoose writes a loose object (zlib over the block's bytes) through a
// temporary file, so no reader sees a partial one.
func writeLoose(objects, id string, data []byte) error {
	dir := filepath.Join(objects, id[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write object %s: %w", id, err)
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return fmt.Errorf("write object %s: %w", id, err)
	}
	defer os.Remove(f.Name()) // after the rename, nothing
	zw := zlib.NewWriter(f)
	_, err = zw.Write(data)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, id[2:]))
	}
	if err != nil {
		return fmt.Errorf("write object %s: %w", id, err)
	}
	return nil
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
