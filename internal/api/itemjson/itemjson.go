// Package itemjson keeps the JSON of the items a list answers with (the
// issues of an issue list), so that a page is put together from items
// already encoded rather than built and encoded again on every request.
//
// An item is kept by its Key: everything its JSON is made from (its row,
// its author's name and id, the site's URL, the viewer's moderation view),
// written field by field by the handler that shapes it. So an entry is
// found only for an item that would encode exactly as it did, whatever
// changed it; nothing has to be told what a block changed, and a changed
// item simply misses and is encoded once more. A page read right after a
// block encodes only the items the block touched.
//
// Keys are hashed to 128 bits with two random seeds of this process, so
// neither chance nor a crafted item makes two contents share an entry.
package itemjson

import (
	"encoding/json"
	"hash/maphash"
	"sync"
)

// Cache keeps encoded items up to a bound of bytes, then starts again
// empty (which also drops the items no page shows any more).
type Cache struct {
	mu    sync.Mutex
	m     map[sum][]byte
	bytes int
	max   int
	seeds [2]maphash.Seed
}

type sum [2]uint64

// maxItem is the largest encoding kept: a bigger item (a long body) is
// encoded on every request, as before.
const maxItem = 256 << 10

// New returns a Cache holding up to maxBytes of encoded items.
func New(maxBytes int) *Cache {
	return &Cache{m: map[sum][]byte{}, max: maxBytes, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// Encode is the JSON of the item k describes: kept, or shape() encoded
// (as encoding/json writes it) and kept. shape must build the item from
// nothing but what k holds.
func (c *Cache) Encode(k *Key, shape func() any) ([]byte, error) {
	return c.Keep(k, func() ([]byte, error) { return json.Marshal(shape()) })
}

// Keep is the JSON of the item k describes: kept, or what encode writes,
// kept. encode must write the item from nothing but what k holds, as
// encoding/json writes it.
func (c *Cache) Keep(k *Key, encode func() ([]byte, error)) ([]byte, error) {
	s := sum{maphash.Bytes(c.seeds[0], k.b), maphash.Bytes(c.seeds[1], k.b)}
	c.mu.Lock()
	b, found := c.m[s]
	c.mu.Unlock()
	if found {
		return b, nil
	}
	b, err := encode()
	if err != nil || len(b) > maxItem {
		return b, err
	}
	c.mu.Lock()
	if c.bytes+len(b) > c.max {
		c.m, c.bytes = map[sum][]byte{}, 0
	}
	if _, dup := c.m[s]; !dup {
		c.m[s] = b
		c.bytes += len(b)
	}
	c.mu.Unlock()
	return b, nil
}

// Array joins encoded items into a JSON array, as encoding/json writes a
// slice of them.
func Array(items [][]byte) []byte {
	n := 2
	for _, b := range items {
		n += len(b) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, b := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']')
}

// Key is what an item's JSON is made from, written field by field. Two
// keys hold the same bytes only when they were written the same values:
// every string is preceded by its length, and numbers are written whole.
// A list of values is written as its length, then each value.
type Key struct{ b []byte }

// Reset empties k for the next item.
func (k *Key) Reset() { k.b = k.b[:0] }

// Str writes a string.
func (k *Key) Str(s string) {
	k.Uint(uint64(len(s)))
	k.b = append(k.b, s...)
}

// Strs writes a list of strings.
func (k *Key) Strs(list []string) {
	k.Uint(uint64(len(list)))
	for _, s := range list {
		k.Str(s)
	}
}

// Blob writes bytes (another item's encoding), as Str writes a string.
func (k *Key) Blob(b []byte) {
	k.Uint(uint64(len(b)))
	k.b = append(k.b, b...)
}

// Int writes a signed number.
func (k *Key) Int(n int64) { k.Uint(uint64(n)) }

// Bool writes a flag.
func (k *Key) Bool(v bool) {
	if v {
		k.b = append(k.b, 1)
	} else {
		k.b = append(k.b, 0)
	}
}

// Uint writes a number.
func (k *Key) Uint(n uint64) {
	for n >= 0x80 {
		k.b = append(k.b, byte(n)|0x80)
		n >>= 7
	}
	k.b = append(k.b, byte(n))
}

// Bytes are what k holds so far, for tests that compare keys.
func (k *Key) Bytes() []byte { return k.b }
