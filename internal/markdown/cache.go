package markdown

import (
	"container/list"
	"crypto/sha256"
	"errors"
	"sync"
)

// Bounds of a Renderer's cache of stored bodies' HTML.
const (
	cacheEntries = 4096
	cacheBytes   = 32 << 20
	entryBytes   = 128 // what an entry costs besides its HTML
)

// cache is a least-recently-used map from a body's SHA-256 to its HTML,
// bounded in entries and bytes. The Renderer's options are fixed, so the
// body is all the output depends on. Concurrent misses on one body render
// it once.
type cache struct {
	maxEntries, maxBytes int

	mu       sync.Mutex
	entries  map[[sha256.Size]byte]*list.Element
	order    list.List // of *cached, most recently used first
	bytes    int
	inflight map[[sha256.Size]byte]*flight
}

// errUnfinished is what waiters get when the render they waited on panicked.
var errUnfinished = errors.New("render markdown: the render did not finish")

type cached struct {
	key  [sha256.Size]byte
	html string
}

type flight struct {
	done chan struct{}
	html string
	err  error
}

func newCache(maxEntries, maxBytes int) *cache {
	return &cache{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		entries:    map[[sha256.Size]byte]*list.Element{},
		inflight:   map[[sha256.Size]byte]*flight{},
	}
}

// get returns src's HTML, calling render only when it is not cached (or
// being rendered by another caller).
func (c *cache) get(src []byte, render func() (string, error)) (string, error) {
	key := sha256.Sum256(src)
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cached).html, nil
	}
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.html, f.err
	}
	f := &flight{done: make(chan struct{}), err: errUnfinished}
	c.inflight[key] = f
	c.mu.Unlock()

	defer func() {
		c.mu.Lock()
		delete(c.inflight, key)
		if f.err == nil {
			c.add(key, f.html)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	html, err := render()
	f.html, f.err = html, err
	return html, err
}

// add stores html under key, evicting the least recently used entries
// over the bounds. c.mu is held.
func (c *cache) add(key [sha256.Size]byte, html string) {
	size := len(html) + entryBytes
	if size > c.maxBytes/8 {
		return // one body would push out too many others
	}
	c.entries[key] = c.order.PushFront(&cached{key, html})
	c.bytes += size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		last := c.order.Back()
		e := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.entries, e.key)
		c.bytes -= len(e.html) + entryBytes
	}
}

// size reports the entries and bytes held.
func (c *cache) size() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}
