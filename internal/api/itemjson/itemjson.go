// Package itemjson keeps the JSON of the items lists answer with (issues,
// comments), so that a page is put together from items already encoded
// rather than encoded again on every request.
//
// An item is kept by a hash of its content: the value a handler would
// encode, walked field by field. So an entry is found only for an item
// that encodes exactly as it did, whatever changed it (a new comment
// count, a renamed author, a label, moderation); nothing has to be told
// what a block changed, and a changed item simply misses and is encoded
// once more. A page read right after a block therefore encodes only the
// items the block touched.
//
// The hash is 128 bits from two random seeds of this process, so neither
// chance nor a crafted item makes two contents share an entry.
package itemjson

import (
	"encoding"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"reflect"
	"sync"
)

// Cache keeps encoded items up to a bound of bytes, then starts again
// empty (which also drops the items no page shows any more).
type Cache struct {
	mu     sync.Mutex
	m      map[sum][]byte
	bytes  int
	max    int
	seeds  [2]maphash.Seed
	buffer sync.Pool // *[]byte: an item's content, walked
}

type sum [2]uint64

// maxItem is the largest encoding kept: a bigger item (a long body) is
// encoded on every request, as before.
const maxItem = 256 << 10

// New returns a Cache holding up to maxBytes of encoded items.
func New(maxBytes int) *Cache {
	return &Cache{m: map[sum][]byte{}, max: maxBytes, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// Array is items encoded as a JSON array, exactly as encoding/json writes
// the slice (HTML escaped, no spaces), each item taken from the cache
// when its content was encoded before.
func Array[T any](c *Cache, items []T) ([]byte, error) {
	out := make([]byte, 0, 64+len(items)*1024)
	out = append(out, '[')
	for i := range items {
		b, err := c.encode(&items[i])
		if err != nil {
			return nil, fmt.Errorf("encode item %d: %w", i, err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

// encode is *v's JSON: kept, or made and kept.
func (c *Cache) encode(v any) ([]byte, error) {
	key, ok := c.sum(v)
	if ok {
		c.mu.Lock()
		b, found := c.m[key]
		c.mu.Unlock()
		if found {
			return b, nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil || !ok || len(b) > maxItem {
		return b, err
	}
	c.mu.Lock()
	if c.bytes+len(b) > c.max {
		c.m, c.bytes = map[sum][]byte{}, 0
	}
	if _, dup := c.m[key]; !dup {
		c.m[key] = b
		c.bytes += len(b)
	}
	c.mu.Unlock()
	return b, nil
}

// sum hashes what v points to; false when it holds a kind content
// cannot be read from (a map, an interface, a func), which is then never
// kept.
func (c *Cache) sum(v any) (sum, bool) {
	bp, _ := c.buffer.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer c.buffer.Put(bp)
	buf := (*bp)[:0]
	// The type comes first: two types of the same fields encode apart.
	rv := reflect.ValueOf(v).Elem()
	buf = append(buf, rv.Type().String()...)
	buf, ok := walk(append(buf, 0), rv)
	*bp = buf
	if !ok {
		return sum{}, false
	}
	return sum{maphash.Bytes(c.seeds[0], buf), maphash.Bytes(c.seeds[1], buf)}, true
}

// walk appends v's content to buf so that two values append the same
// bytes only when they hold the same: every string and list is preceded
// by its length, and a pointer by whether it is nil.
func walk(buf []byte, v reflect.Value) ([]byte, bool) {
	if v.Kind() > reflect.Complex128 && encodesItself(v.Type()) {
		// Such a type (time.Time) may encode from fields walk cannot
		// see: what it writes is its content.
		if !v.CanInterface() {
			return buf, false
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			return buf, false
		}
		return append(appendLen(buf, len(b)), b...), true
	}
	switch v.Kind() {
	case reflect.String:
		buf = appendLen(buf, v.Len())
		return append(buf, v.String()...), true
	case reflect.Bool:
		if v.Bool() {
			return append(buf, 1), true
		}
		return append(buf, 0), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return appendUint(buf, uint64(v.Int())), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendUint(buf, v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return appendUint(buf, math.Float64bits(v.Float())), true
	case reflect.Pointer:
		if v.IsNil() {
			return append(buf, 0), true
		}
		return walk(append(buf, 1), v.Elem())
	case reflect.Slice:
		if v.IsNil() { // null, where an empty list is []
			return append(buf, 0), true
		}
		buf = append(buf, 1)
		fallthrough
	case reflect.Array:
		buf = appendLen(buf, v.Len())
		ok := true
		for i := 0; i < v.Len() && ok; i++ {
			buf, ok = walk(buf, v.Index(i))
		}
		return buf, ok
	case reflect.Struct:
		fields, ok := fieldsOf(v.Type()), true
		for i := 0; i < len(fields) && ok; i++ {
			buf, ok = walk(buf, v.Field(fields[i]))
		}
		return buf, ok
	}
	return buf, false
}

// fieldsOf are the fields of struct type t that encoding/json may write:
// the exported ones and the embedded ones, whose fields it promotes.
func fieldsOf(t reflect.Type) []int {
	if f, ok := structFields.Load(t); ok {
		return f.([]int)
	}
	fields := []int{}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() || f.Anonymous {
			fields = append(fields, i)
		}
	}
	structFields.Store(t, fields)
	return fields
}

var (
	structFields sync.Map // reflect.Type -> []int
	selfEncoding sync.Map // reflect.Type -> bool
)

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodesItself tells whether t has its own JSON or text encoding.
func encodesItself(t reflect.Type) bool {
	if yes, ok := selfEncoding.Load(t); ok {
		return yes.(bool)
	}
	p := reflect.PointerTo(t)
	yes := t.Implements(marshalerType) || p.Implements(marshalerType) || t.Implements(textMarshalerType) || p.Implements(textMarshalerType)
	selfEncoding.Store(t, yes)
	return yes
}

func appendLen(buf []byte, n int) []byte { return appendUint(buf, uint64(n)) }

func appendUint(buf []byte, n uint64) []byte {
	for n >= 0x80 {
		buf = append(buf, byte(n)|0x80)
		n >>= 7
	}
	return append(buf, byte(n))
}
