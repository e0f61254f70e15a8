package replica

import (
	"bufio"
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
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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
// blockstore (p2p.Node.FetchMany stores them), so a retry after a walk cut
// short asks the network only for the rest.
//
// The walk is one bitswap session and a worklist, not a level of history
// at a time: up to wantWindow (256) objects are wanted at once, and an object's
// links (a commit's tree and parents, a tree's entries) are wanted as soon
// as it comes, while decoders (one per CPU) check and pack the objects
// that came. Asking 16 blocks at a time, each its own session (bitswap
// first asks every peer whether it has the block), a level at a time,
// managed about 470 objects a second on loopback.
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
	blockTimeout  = 20 * time.Second // with objects wanted and none coming
	askAgainAfter = 2 * time.Second  // with objects wanted and none coming
	blockParallel = 16               // manifests asked for at once
	bigParallel   = 8                // big objects read as UnixFS files at once
	// Objects wanted and not yet come: well under the 1024 wants a bitswap
	// server (boxo's default, so Kubo's and ours) queues for a peer; as
	// fast as 512 on the 200 MB bench repository.
	wantWindow = 256
)

// bitswapFetch fetches ids and everything they reach that q's repository
// (repo on chain) lacks into q.
func (r *Replicator) bitswapFetch(ctx context.Context, q *gitstore.Quarantine, repo uint64, ids []string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the sessions
	plain := ctx
	ctx = r.cfg.Bitswap.Session(ctx)
	pack, err := newPackFile(q.Path)
	if err != nil {
		return err
	}
	defer pack.close()
	var manifests int
	pack.big, manifests = r.bigObjects(ctx, repo)
	here, err := startObjectsHere(ctx, q)
	if err != nil {
		return err
	}
	defer here.close()
	w := &walk{r: r, pack: pack, here: here, plain: plain, repo: repo, manifests: manifests, seen: map[string]bool{}, wanted: map[string]bool{}, came: map[string]bool{}}
	if err := w.run(ctx, ids); err != nil {
		return err
	}
	return pack.index(ctx, q)
}

// walk is one fetch of a repository's objects over bitswap.
type walk struct {
	r     *Replicator
	pack  *packFile
	here  *objectsHere
	plain context.Context // the walk's, without its session
	// The repository, and how many manifests of big objects it had on
	// chain when the walk began.
	repo      uint64
	manifests int

	// The dispatcher's (run's) own.
	seen   map[string]bool // met as an id or a link
	todo   []string        // to want
	wanted map[string]bool // wanted, not yet packed
	asks   context.Context // of the FetchMany calls; cancelled to ask again
	cancel context.CancelFunc

	mu      sync.Mutex
	came    map[string]bool // objects handed to the decoders, each once
	fetched chan fetched    // fetchers -> decoders
	done    chan decoded    // decoders -> dispatcher
	wg      sync.WaitGroup
	bigs    chan struct{} // slots of bigParallel
}

type fetched struct {
	id   string
	data []byte
	err  error
}

type decoded struct {
	id    string
	links []string
	err   error
}

// run fetches ids and what they reach, and returns once every object
// wanted is packed, or on the first failure.
func (w *walk) run(ctx context.Context, ids []string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer w.wg.Wait()
	defer cancel() // stops fetchers and decoders, before the wait
	w.fetched = make(chan fetched, wantWindow)
	w.done = make(chan decoded, wantWindow)
	w.bigs = make(chan struct{}, bigParallel)
	for range runtime.GOMAXPROCS(0) {
		w.wg.Add(1)
		go w.decode(ctx)
	}
	w.asks, w.cancel = context.WithCancel(ctx)
	defer func() { w.cancel() }()
	if err := w.add(ids); err != nil {
		return err
	}
	stall := time.NewTimer(blockTimeout)
	defer stall.Stop()
	quiet := time.NewTimer(askAgainAfter)
	defer quiet.Stop()
	for {
		w.want(ctx)
		if len(w.wanted) == 0 {
			return nil
		}
		select {
		case d := <-w.done:
			// Take what else is decoded too, so the links go out as one
			// want rather than one per object.
			for more := true; more; {
				if d.err != nil {
					return d.err
				}
				delete(w.wanted, d.id)
				if err := w.add(d.links); err != nil {
					return err
				}
				select {
				case d = <-w.done:
				default:
					more = false
				}
			}
			stall.Reset(blockTimeout)
			quiet.Reset(askAgainAfter)
		case <-quiet.C:
			if w.newManifest() {
				return errNewManifest
			}
			w.askAgain(ctx)
			quiet.Reset(askAgainAfter)
		case <-stall.C:
			for id := range w.wanted {
				return fmt.Errorf("no peer sent %d of the objects wanted in %s (%s among them)", len(w.wanted), blockTimeout, id)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// errNewManifest ends a walk that waits for objects while a manifest of
// big objects came on chain: the node that took a push records it after
// the push, and an object over the peers' message limit comes only as the
// UnixFS file it names. The repository changed, so it runs again at once.
var errNewManifest = errors.New("a manifest of big objects came on chain during the walk; walking again")

// newManifest reports whether the repository has more manifests on chain
// than when the walk began.
func (w *walk) newManifest() bool {
	list, err := w.r.cfg.Chain.Manifests(w.plain, w.repo)
	return err == nil && len(list) > w.manifests
}

// add puts the ids not met before and not in the repository on the
// worklist.
func (w *walk) add(ids []string) error {
	var news []string
	for _, id := range ids {
		if !w.seen[id] {
			w.seen[id] = true
			news = append(news, id)
		}
	}
	lacking, err := w.here.lacking(news)
	if err != nil {
		return err
	}
	w.todo = append(w.todo, lacking...)
	return nil
}

// want asks for objects off the worklist while fewer than wantWindow are
// wanted: the small ones in one FetchMany, each big one as its UnixFS
// file.
func (w *walk) want(ctx context.Context) {
	n := min(len(w.todo), wantWindow-len(w.wanted))
	if n <= 0 {
		return
	}
	batch := map[cid.Cid]string{}
	var cids []cid.Cid
	for _, id := range w.todo[:n] {
		w.wanted[id] = true
		if root, ok := w.pack.big[id]; ok {
			w.wg.Add(1)
			go w.fetchBig(ctx, id, root)
			continue
		}
		c := blocks.CIDForGitObject(id)
		batch[c] = id
		cids = append(cids, c)
	}
	w.todo = w.todo[n:]
	if len(cids) == 0 {
		return
	}
	w.fetchMany(ctx, batch, cids)
}

// fetchMany asks for cids (batch maps them to their ids) and hands each
// block that comes to the decoders.
func (w *walk) fetchMany(ctx context.Context, batch map[cid.Cid]string, cids []cid.Cid) {
	blks := w.r.cfg.Bitswap.FetchMany(w.asks, cids)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for blk := range blks {
			if id, ok := batch[blk.Cid()]; ok && w.claim(id) {
				w.hand(ctx, fetched{id: id, data: blk.RawData()})
			}
		}
	}()
}

// claim reports whether id goes to the decoders now, the first time it
// comes: asked for again, an object may come twice.
func (w *walk) claim(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.came[id] {
		return false
	}
	w.came[id] = true
	return true
}

func (w *walk) hand(ctx context.Context, f fetched) {
	select {
	case w.fetched <- f:
	case <-ctx.Done():
	}
}

// askAgain cancels the wants of the objects wanted and not come, and asks
// for them anew in a new session. Now and then a serving peer never sends
// a block it was asked for and found (the 200 MB bench repository over
// loopback on a busy machine), and bitswap repeats a peer's wants only
// every 30 s.
func (w *walk) askAgain(ctx context.Context) {
	batch := map[cid.Cid]string{}
	var cids []cid.Cid
	w.mu.Lock()
	for id := range w.wanted {
		if _, big := w.pack.big[id]; !big && !w.came[id] {
			c := blocks.CIDForGitObject(id)
			batch[c] = id
			cids = append(cids, c)
		}
	}
	w.mu.Unlock()
	if len(cids) == 0 {
		return
	}
	w.r.log.DebugContext(ctx, "asking again over bitswap for objects not come", "objects", len(cids))
	w.cancel()
	asks, cancel := context.WithCancel(w.plain)
	w.asks, w.cancel = w.r.cfg.Bitswap.Session(asks), cancel
	w.fetchMany(ctx, batch, cids)
}

// fetchBig reads the big object id from its UnixFS file root, else as a
// block.
func (w *walk) fetchBig(ctx context.Context, id string, root cid.Cid) {
	defer w.wg.Done()
	select {
	case w.bigs <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-w.bigs }()
	data, err := w.r.fetchUnixFS(ctx, root, id)
	if err != nil {
		w.r.log.WarnContext(ctx, "fetch a big object's chunks; trying its block", "object", id, "root", root.String(), "err", err)
		ctx, cancel := context.WithTimeout(ctx, blockTimeout)
		defer cancel()
		var blk blockformat.Block
		if blk, err = w.r.cfg.Bitswap.Fetch(ctx, blocks.CIDForGitObject(id)); err == nil {
			data = blk.RawData()
		}
	}
	if w.claim(id) {
		w.hand(ctx, fetched{id: id, data: data, err: err})
	}
}

// decode checks and packs the objects that come, and sends their links.
func (w *walk) decode(ctx context.Context) {
	defer w.wg.Done()
	var p packer
	for {
		var f fetched
		select {
		case f = <-w.fetched:
		case <-ctx.Done():
			return
		}
		d := decoded{id: f.id, err: f.err}
		if d.err == nil {
			d.links, d.err = w.check(&p, f.id, f.data)
		}
		select {
		case w.done <- d:
		case <-ctx.Done():
			return
		}
	}
}

func (w *walk) check(p *packer, id string, data []byte) ([]string, error) {
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != id {
		return nil, fmt.Errorf("block %s holds another object", id)
	}
	links, err := objectLinks(data)
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", id, err)
	}
	if err := w.pack.add(p, data); err != nil {
		return nil, err
	}
	return links, nil
}

// objectsHere tells which objects a repository (with its quarantine)
// has, through one `git cat-file --batch-check` for the whole walk.
type objectsHere struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	inc io.Closer
	out *bufio.Reader
}

func startObjectsHere(ctx context.Context, q *gitstore.Quarantine) (*objectsHere, error) {
	cmd := gitstore.Command(ctx, q.Repo, "cat-file", "--batch-check=%(objectname)")
	cmd.Env = append(cmd.Env, q.Env()...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("list the objects here: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("list the objects here: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("list the objects here: %w", err)
	}
	return &objectsHere{cmd: cmd, in: bufio.NewWriter(in), inc: in, out: bufio.NewReader(out)}, nil
}

// lacking returns the ids not here. It asks 512 at a time: git answers
// as it reads, so a list that fills both pipes would block it.
func (o *objectsHere) lacking(ids []string) ([]string, error) {
	var out []string
	for len(ids) > 0 {
		n := min(len(ids), 512)
		for _, id := range ids[:n] {
			o.in.WriteString(id)
			o.in.WriteByte('\n')
		}
		if err := o.in.Flush(); err != nil {
			return nil, fmt.Errorf("list the objects here: %w", err)
		}
		for _, id := range ids[:n] {
			line, err := o.out.ReadString('\n')
			if err != nil {
				return nil, fmt.Errorf("list the objects here: %w", err)
			}
			if strings.HasSuffix(line, " missing\n") {
				out = append(out, id)
			}
		}
		ids = ids[n:]
	}
	return out, nil
}

func (o *objectsHere) close() {
	o.inc.Close()
	o.cmd.Wait()
}

// bigObjects maps the git ids of repo's big objects to their UnixFS roots,
// from the manifests its pushes recorded on chain, each fetched (at once,
// blockParallel at a time) and checked. A manifest no peer sends is left
// out: its objects are asked for as blocks. The count is the manifests
// listed.
func (r *Replicator) bigObjects(ctx context.Context, repo uint64) (blocks.Manifest, int) {
	list, err := r.cfg.Chain.Manifests(ctx, repo)
	if err != nil {
		r.log.WarnContext(ctx, "list the manifests of big objects", "repo", repo, "err", err)
		return nil, 0
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
	return all, len(list)
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

// packer is a decoder's scratch for packing objects.
type packer struct {
	buf bytes.Buffer
	zw  *zlib.Writer
}

// add appends an object given in its loose form ("<type> <size>\0..."),
// compressed in p's scratch. The fastest zlib level: on 2 cores the
// default one took as long as the fetch, and the objects are packed
// again whenever the repository is repacked.
func (pf *packFile) add(p *packer, loose []byte) error {
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
	p.buf.Reset()
	p.buf.Write(entry)
	if p.zw == nil {
		p.zw, _ = zlib.NewWriterLevel(&p.buf, zlib.BestSpeed) // a valid level: no error
	} else {
		p.zw.Reset(&p.buf)
	}
	p.zw.Write(body)
	if err := p.zw.Close(); err != nil {
		return fmt.Errorf("pack an object: %w", err)
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	if _, err := pf.f.Write(p.buf.Bytes()); err != nil {
		return fmt.Errorf("pack an object: %w", err)
	}
	pf.n++
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
