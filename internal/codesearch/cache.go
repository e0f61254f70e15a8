package codesearch

import (
	"strconv"
	"strings"
	"sync"
)

// maxCachedBytes bounds what the cache of results holds, by the text of
// their paths and lines.
const maxCachedBytes = 16 << 20

// resultCache keeps searches' results until the index next changes. A
// common word is in most files, and walking them to count them and their
// languages is nearly all of its search: asked again before the next
// push, it is answered from here. Results hold only what the index and
// git at the indexed commits say, so a write to the index is the only
// thing that makes them old.
type resultCache struct {
	mu      sync.Mutex
	gen     uint64 // bumped by every write to the index
	bytes   int
	entries map[string]cachedResults
}

type cachedResults struct {
	res   Results
	bytes int
}

// generation is the index's state now; a search takes it before it reads
// the index, so that put can refuse results a write has overtaken.
func (c *resultCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// changed forgets every result: the index was written.
func (c *resultCache) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.entries, c.bytes = nil, 0
}

func (c *resultCache) get(key string) (Results, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e.res, ok
}

// put keeps res under key if the index has not changed since gen. A full
// cache lets go of entries in the map's own (random) order.
func (c *resultCache) put(gen uint64, key string, res Results) {
	n := resultsBytes(key, res)
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || n > maxCachedBytes/16 {
		return
	}
	if c.entries == nil {
		c.entries = map[string]cachedResults{}
	}
	for k, e := range c.entries {
		if c.bytes+n <= maxCachedBytes {
			break
		}
		delete(c.entries, k)
		c.bytes -= e.bytes
	}
	if old, ok := c.entries[key]; ok {
		c.bytes -= old.bytes
	}
	c.entries[key] = cachedResults{res: res, bytes: n}
	c.bytes += n
}

// resultsBytes is about what res and its key hold in memory.
func resultsBytes(key string, res Results) int {
	n := len(key) + 64
	for _, h := range res.Items {
		n += len(h.Repo) + len(h.Path) + len(h.Language) + 64
		for _, l := range h.Lines {
			n += len(l.Text) + 16*len(l.Ranges) + 32
		}
	}
	for _, l := range res.Languages {
		n += len(l.Name) + 16
	}
	return n
}

// cacheKey names a search: its words, filters and page, and the private
// repositories its viewer reads (which decide what it may see).
func cacheKey(words []string, q Query, readable []uint64) string {
	var b strings.Builder
	b.WriteString(strings.Join(words, " "))
	for _, part := range []string{q.Language, strconv.FormatUint(q.Repo, 10), strconv.Itoa(q.Page), strconv.Itoa(q.Limit)} {
		b.WriteByte(0)
		b.WriteString(part)
	}
	b.WriteByte(0)
	for _, id := range readable {
		b.WriteString(strconv.FormatUint(id, 10))
		b.WriteByte(',')
	}
	return b.String()
}
