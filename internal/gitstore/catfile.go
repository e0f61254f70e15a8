package gitstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Objects read through long-lived `git cat-file --batch` processes, as
// Gitea keeps them: a file view, a raw file or a blob by id costs a line
// written to a running git, not a process started per request (which was
// most of a raw read's time and of the node's memory peaks under load).
//
// The pool is bounded: at most batchesPerRepo processes per repository,
// idle or in use, and maxBatches in all. A read beyond a repository's
// batchesPerRepo waits for one of them to come back rather than starting
// another that the pool would stop again on its return (under 16 searches
// at once, a process started and stopped per read was most of their
// time). A read that finds the whole pool full starts a one-off process,
// as before. Objects are named by full id, which never
// changes, and git looks again for new packs when an object is missing, so
// a push needs no invalidation; a deleted repository's processes are
// stopped (Delete). Idle processes end after batchIdle.

const (
	maxBatches     = 16
	batchesPerRepo = 4
	batchIdle      = time.Minute
	// maxBatchRead is the largest object read through the pool; a bigger
	// one is streamed by a process of its own, so that it never holds a
	// pooled process (or memory) for long.
	maxBatchRead = 1 << 20
)

// batch is one running `git cat-file --batch` in a repository.
type batch struct {
	dir   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	used  time.Time
}

// batchPool holds the idle processes, by repository directory.
type batchPool struct {
	mu    sync.Mutex
	slots map[string]chan struct{} // per repository, batchesPerRepo places
	idle  map[string][]*batch
	live  int // idle and in use
	reap  *time.Timer
	count int // started, for tests
}

var batches = &batchPool{idle: map[string][]*batch{}, slots: map[string]chan struct{}{}}

// errBatchFull is a pool with no room for another process.
var errBatchFull = errors.New("no room for another cat-file process")

// take returns an idle process of dir's, or starts one when there is room.
func (p *batchPool) take(dir string) (*batch, error) {
	p.mu.Lock()
	if list := p.idle[dir]; len(list) > 0 {
		b := list[len(list)-1]
		p.idle[dir] = list[:len(list)-1]
		p.mu.Unlock()
		return b, nil
	}
	if p.live >= maxBatches && !p.evictOne() {
		p.mu.Unlock()
		return nil, errBatchFull
	}
	p.live++
	p.count++
	p.mu.Unlock()
	b, err := startBatch(dir)
	if err != nil {
		p.mu.Lock()
		p.live--
		p.mu.Unlock()
		return nil, err
	}
	return b, nil
}

// evictOne stops the longest-idle process of any repository; p.mu is held.
// slot waits for one of dir's batchesPerRepo places (or for ctx to end);
// release gives it back.
func (p *batchPool) slot(ctx context.Context, dir string) (release func(), err error) {
	p.mu.Lock()
	sem := p.slots[dir]
	if sem == nil {
		sem = make(chan struct{}, batchesPerRepo)
		p.slots[dir] = sem
	}
	p.mu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for a cat-file process: %w", ctx.Err())
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		<-sem
		// A repository no read holds a place in forgets its places; one
		// that raced past this to an old channel is at most one read
		// over the bound, once.
		if len(sem) == 0 && p.slots[dir] == sem {
			delete(p.slots, dir)
		}
	}, nil
}

func (p *batchPool) evictOne() bool {
	var oldest *batch
	for _, list := range p.idle {
		if len(list) > 0 && (oldest == nil || list[0].used.Before(oldest.used)) {
			oldest = list[0]
		}
	}
	if oldest == nil {
		return false
	}
	p.idle[oldest.dir] = p.idle[oldest.dir][1:]
	if len(p.idle[oldest.dir]) == 0 {
		delete(p.idle, oldest.dir)
	}
	p.live--
	go oldest.stop()
	return true
}

// give returns a healthy process to the pool; a broken one is stopped.
func (p *batchPool) give(b *batch, healthy bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !healthy || len(p.idle[b.dir]) >= batchesPerRepo {
		p.live--
		go b.stop()
		return
	}
	b.used = time.Now()
	p.idle[b.dir] = append(p.idle[b.dir], b)
	if p.reap == nil {
		p.reap = time.AfterFunc(batchIdle, p.reapIdle)
	}
}

// reapIdle stops the processes idle for batchIdle or longer.
func (p *batchPool) reapIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reap = nil
	cutoff := time.Now().Add(-batchIdle)
	for dir, list := range p.idle {
		keep := list[:0]
		for _, b := range list {
			if b.used.After(cutoff) {
				keep = append(keep, b)
				continue
			}
			p.live--
			go b.stop()
		}
		if len(keep) == 0 {
			delete(p.idle, dir)
		} else {
			p.idle[dir] = keep
		}
	}
	if len(p.idle) > 0 {
		p.reap = time.AfterFunc(batchIdle, p.reapIdle)
	}
}

// drop stops dir's idle processes (a repository being deleted).
func (p *batchPool) drop(dir string) {
	p.mu.Lock()
	list := p.idle[dir]
	delete(p.idle, dir)
	p.live -= len(list)
	p.mu.Unlock()
	for _, b := range list {
		b.stop()
	}
}

// StopBatches stops every idle cat-file process: the node calls it when
// it stops, so it leaves no git behind.
func StopBatches() {
	batches.mu.Lock()
	var all []*batch
	for _, list := range batches.idle {
		all = append(all, list...)
	}
	batches.idle = map[string][]*batch{}
	batches.live -= len(all)
	batches.mu.Unlock()
	for _, b := range all {
		b.stop()
	}
}

func startBatch(dir string) (*batch, error) {
	// Not CommandContext: the process outlives the request that started it.
	cmd := Command(context.Background(), dir, "cat-file", "--batch-command")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("pipe cat-file: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("pipe cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start cat-file --batch: %w", err)
	}
	return &batch{dir: dir, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 64<<10)}, nil
}

func (b *batch) stop() {
	b.stdin.Close() // cat-file ends at the end of its input
	done := make(chan struct{})
	go func() { b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		b.cmd.Process.Kill()
		<-done
	}
}

// errNoObject is an object the repository does not have.
var errNoObject = errors.New("no such object")

// readObject reads object id of type typ whole, if it is at most
// maxBatchRead bytes: through a pooled process when there is one, else
// errBatchFull. A wrong type or a missing object is errNoObject; an
// object too big is errTooBig (its process is stopped), read by the
// caller some other way.
func readObject(ctx context.Context, dir, id, typ string) ([]byte, error) {
	var data []byte
	err := withBatch(ctx, dir, func(b *batch) (err error) {
		data, err = b.read(id, typ)
		return err
	})
	if ctx.Err() != nil {
		return nil, fmt.Errorf("read object %s: %w", id, ctx.Err())
	}
	return data, err
}

// withBatch runs fn on a pooled process of dir's (errBatchFull when there
// is none), and pools it again if fn left it in step with its output.
func withBatch(ctx context.Context, dir string, fn func(*batch) error) error {
	// A running cat-file read refs/replace/ when it started: a repository
	// that has replace refs is read by a process of its own, as git sees
	// it now.
	if hasReplaceRefs(dir) {
		return errBatchFull
	}
	release, err := batches.slot(ctx, dir)
	if err != nil {
		return err
	}
	defer release()
	b, err := batches.take(dir)
	if err != nil {
		return err
	}
	// A request that ends mid-read leaves the process in an unknown
	// place in its output: it is stopped, never pooled again.
	stopped := context.AfterFunc(ctx, func() { b.cmd.Process.Kill() })
	err = fn(b)
	healthy := stopped() && (err == nil || errors.Is(err, errNoObject))
	batches.give(b, healthy)
	return err
}

// errTooBig is an object over maxBatchRead.
var errTooBig = errors.New("object too big for the pooled read")

func (b *batch) read(id, typ string) ([]byte, error) {
	if _, err := io.WriteString(b.stdin, "contents "+id+"\n"); err != nil {
		return nil, fmt.Errorf("write to cat-file: %w", err)
	}
	info, err := b.header()
	if err != nil {
		return nil, err
	}
	if info.missing {
		return nil, errNoObject
	}
	size := info.size
	if size > maxBatchRead {
		// Not read through: the process is stopped rather than made to
		// write it all out. Asking the size first (--batch-command's
		// info) would keep it, but costs every small read a second round
		// trip: 226 against 130 µs a read in BenchmarkBlobRead.
		return nil, errTooBig
	}
	if info.typ != typ {
		// Skip the content (and its newline) to stay in step.
		if _, err := b.out.Discard(int(size) + 1); err != nil {
			return nil, fmt.Errorf("read from cat-file: %w", err)
		}
		return nil, errNoObject
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, fmt.Errorf("read from cat-file: %w", err)
	}
	return data[:size], nil
}

// objectInfo is what cat-file says of an object name: its id, type and
// size, or that it names nothing.
type objectInfo struct {
	id, typ string
	size    int64
	missing bool
}

// header reads one answer's header: "<id> <type> <size>", or "<name>
// missing" (a name that resolves to nothing, or to more than one object).
func (b *batch) header() (objectInfo, error) {
	line, err := b.out.ReadString('\n')
	if err != nil {
		return objectInfo{}, fmt.Errorf("read from cat-file: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	if rest, ok := strings.CutSuffix(line, " missing"); ok && rest != "" {
		return objectInfo{missing: true}, nil
	}
	if rest, ok := strings.CutSuffix(line, " ambiguous"); ok && rest != "" {
		return objectInfo{missing: true}, nil
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return objectInfo{}, fmt.Errorf("cat-file said %q", line)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return objectInfo{}, fmt.Errorf("cat-file said %q", line)
	}
	return objectInfo{id: f[0], typ: f[1], size: size}, nil
}

// infos asks for the id, type and size of each name, without their
// contents. The names are written by a goroutine of their own, as git
// stops reading once its answers fill the pipe.
func (b *batch) infos(names []string) ([]objectInfo, error) {
	written := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(b.stdin)
		for _, n := range names {
			w.WriteString("info " + n + "\n")
		}
		written <- w.Flush()
	}()
	out := make([]objectInfo, len(names))
	for i := range names {
		info, err := b.header()
		if err != nil {
			return nil, err
		}
		out[i] = info
	}
	if err := <-written; err != nil {
		return nil, fmt.Errorf("write to cat-file: %w", err)
	}
	return out, nil
}
