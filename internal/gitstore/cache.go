package gitstore

import (
	"container/list"
	"strconv"
	"strings"
	"sync"
)

// The browse cache keeps what git answers about objects named by full ids,
// which never changes: the tree of a commit, the entries of a tree, the
// history below a commit. Refs move, so they are never cached: Resolve
// reads them from the ref files on every call (refs.go), which costs a few
// system calls instead of a git process. What is cached is keyed by the
// repository's directory as well, so one repository never answers for
// another's objects (a private repository's ids must not leak through a
// public one that lacks them).
//
// Only successes are cached: an object that is missing now may arrive with
// the next push.

// DefaultCacheBytes bounds the browse cache (an estimate of the bytes its
// entries hold).
const DefaultCacheBytes = 32 << 20

var browseCache = newLRU(DefaultCacheBytes)

// SetCacheBytes changes the browse cache's bound (0 turns it off) and
// empties it.
func SetCacheBytes(n int64) { browseCache.reset(n) }

// lru is a least-recently-used map bounded by the summed sizes of its
// values. An entry larger than an eighth of the bound is not kept, so one
// huge tree cannot flush everything else.
type lru struct {
	mu    sync.Mutex
	max   int64
	size  int64
	order *list.List // front: most recently used
	items map[string]*list.Element
}

type lruEntry struct {
	key  string
	val  any
	size int64
}

func newLRU(max int64) *lru {
	return &lru{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry).val, true
}

func (c *lru) add(key string, val any, size int64) {
	size += int64(len(key)) + 64 // the key, the map and list overhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if size > c.max/8 {
		return
	}
	if el, ok := c.items[key]; ok {
		e := el.Value.(*lruEntry)
		c.size += size - e.size
		e.val, e.size = val, size
		c.order.MoveToFront(el)
	} else {
		c.items[key] = c.order.PushFront(&lruEntry{key: key, val: val, size: size})
		c.size += size
	}
	for c.size > c.max {
		el := c.order.Back()
		e := el.Value.(*lruEntry)
		c.order.Remove(el)
		delete(c.items, e.key)
		c.size -= e.size
	}
}

func (c *lru) reset(max int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.max, c.size = max, 0
	c.order.Init()
	c.items = map[string]*list.Element{}
}

// stats reports the entries and bytes held (for tests).
func (c *lru) stats() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items), c.size
}

// flight runs one computation per key at a time: callers asking for a key
// already being computed wait for that result (64 clients opening the same
// cold tree start one git, not 64).
type flight struct {
	mu    sync.Mutex
	calls map[string]*flightCall
}

type flightCall struct {
	done chan struct{}
	val  any
	err  error
}

var browseFlight = &flight{calls: map[string]*flightCall{}}

// do runs fn for key, or waits for the run already under way; shared says
// the result came from another caller's run.
func (f *flight) do(key string, fn func() (any, error)) (val any, err error, shared bool) {
	f.mu.Lock()
	if c, ok := f.calls[key]; ok {
		f.mu.Unlock()
		<-c.done
		return c.val, c.err, true
	}
	c := &flightCall{done: make(chan struct{})}
	f.calls[key] = c
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(c.done)
	}()
	c.val, c.err = fn()
	return c.val, c.err, false
}

// cached returns the value under key, computing it with fn (once for all
// concurrent callers) when it is not there; size says how much a value
// holds. Errors are returned, never cached. A caller whose wait ends in
// another's error (that request's deadline, say) runs fn itself, under its
// own context.
func cached[T any](key string, fn func() (T, error), size func(T) int64) (T, error) {
	if v, ok := browseCache.get(key); ok {
		return v.(T), nil
	}
	compute := func() (any, error) {
		if v, ok := browseCache.get(key); ok { // filled while we queued
			return v, nil
		}
		v, err := fn()
		if err != nil {
			return nil, err
		}
		browseCache.add(key, v, size(v))
		return v, nil
	}
	v, err, shared := browseFlight.do(key, compute)
	if err != nil && shared {
		v, err = compute()
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// cachedIn is cached for an answer about repository dir's objects. git
// applies replace refs (refs/replace/) to every object it reads, so in a
// repository that has any, an id's meaning can change: it is read afresh.
func cachedIn[T any](dir, key string, fn func() (T, error), size func(T) int64) (T, error) {
	if hasReplaceRefs(dir) {
		return fn()
	}
	return cached(key, fn, size)
}

// cacheKey joins a kind, a repository directory and the rest of what
// names an answer.
func cacheKey(kind, dir string, parts ...string) string {
	return kind + "\x00" + dir + "\x00" + strings.Join(parts, "\x00")
}

// isFullID reports whether s is a whole object id (SHA-1 or SHA-256), the
// only names whose meaning never changes. git takes a full id as the
// object even where a ref shares the name.
func isFullID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}

// immutableRev reports whether rev is a full id, or a full id followed by
// a peel (^{tree}) or a path (:path): git always resolves it alike.
func immutableRev(rev string) bool {
	id := rev
	if i := strings.IndexAny(rev, "^:"); i >= 0 {
		id = rev[:i]
		if rest := rev[i:]; rest[0] == '^' && !strings.HasPrefix(rest, "^{") {
			return false
		}
	}
	return isFullID(id)
}

func entriesSize(entries []Entry) int64 {
	n := int64(24 * len(entries))
	for _, e := range entries {
		n += int64(len(e.Name)+len(e.Path)+len(e.Mode)+len(e.Type)+len(e.ID)) + 5*16 + 8
	}
	return n
}

func commitsSize(commits []Commit) int64 {
	n := int64(0)
	for _, c := range commits {
		n += int64(len(c.ID)+len(c.Tree)+len(c.Message)+len(c.Author.Name)+len(c.Author.Email)+len(c.Committer.Name)+len(c.Committer.Email)) + 256
		for _, p := range c.Parents {
			n += int64(len(p)) + 16
		}
		for _, f := range c.Files {
			n += int64(len(f.Path)+len(f.OldPath)+len(f.Status)) + 64
		}
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
