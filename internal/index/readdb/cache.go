package readdb

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// readCache keeps the answers of reads the API repeats on every request
// (the owner a name resolves to, a repository by name, a permission, an
// issue list's total) until the projection changes. Every write to the
// projection goes through one index.Index (inTx, reset: one writer per
// node, `dforge reindex` only on a stopped one), which moves the generation
// on once its transaction has ended (Changed); an answer is used only while the
// generation it was read at is still the current one.
//
// Why that is exact: a reader takes the generation before it reads. A
// write that commits after that point also moves the generation after it,
// so the answer, whether it saw that write or not, is never used once the
// write is visible to everyone; and an answer labelled with the current
// generation was read after the last finished write was committed.
type readCache struct {
	gen atomic.Uint64

	mu    sync.Mutex
	m     map[string]readEntry
	bytes int64 // the summed sizes of m's values
}

type readEntry struct {
	gen  uint64
	val  any
	size int64
}

// The cache's bounds: when either is passed it starts again empty (which
// also drops the answers of past generations). An answer larger than a
// sixteenth of maxReadBytes is never kept.
const (
	maxReadEntries = 4096
	maxReadBytes   = 16 << 20
)

// Changed moves the generation on: the projection may differ from what
// any cached answer saw.
func (db *DB) Changed() { db.cache.gen.Add(1) }

// Remember returns key's answer from the current generation, or reads it
// with fn and keeps it. Values must not be changed by callers (copy slices
// before handing them out). Errors are not kept.
func Remember[T any](db *DB, key string, fn func() (T, error)) (T, error) {
	return RememberSized(db, key, fn, func(T) int64 { return 64 })
}

// RememberSized is Remember for answers whose size varies: size estimates
// the bytes one holds.
func RememberSized[T any](db *DB, key string, fn func() (T, error), size func(T) int64) (T, error) {
	c := &db.cache
	gen := c.gen.Load()
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && e.gen == gen {
		return e.val.(T), nil
	}
	v, err := fn()
	if err != nil {
		return v, err
	}
	n := size(v) + int64(len(key)) + 64
	if n > maxReadBytes/16 {
		return v, nil
	}
	c.mu.Lock()
	if old, ok := c.m[key]; ok {
		c.bytes -= old.size
	}
	if c.m == nil || len(c.m) >= maxReadEntries || c.bytes+n > maxReadBytes {
		c.m, c.bytes = make(map[string]readEntry), 0
	}
	c.m[key] = readEntry{gen: gen, val: v, size: n}
	c.bytes += n
	c.mu.Unlock()
	return v, nil
}

// Key names a read by its kind, its SQL and its arguments.
func Key(kind string, sql string, args ...any) string {
	var b strings.Builder
	b.WriteString(kind)
	b.WriteByte(0)
	b.WriteString(sql)
	for _, a := range args {
		fmt.Fprintf(&b, "\x00%T:%v", a, a)
	}
	return b.String()
}
