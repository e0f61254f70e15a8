package readdb

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// readCache keeps the answers of reads the API repeats on every request
// (the owner a name resolves to, a repository by name, a permission, a
// page of issues and its total) until a table they read changes. Every
// write to the projection goes through one index.Index (its transactions
// run on a WriteTx, which notes the tables each statement writes; one
// writer per node, `dforge reindex` only on a stopped one), which moves
// the generation of each table it wrote on once its transaction has ended
// (Changed); a write that cannot say what it wrote (a reset, a statement
// WriteTx cannot read) moves every answer on (ChangedAll).
//
// A read declares the tables it depends on by running its SQL on the ctx
// Remember hands it (Query, QueryRow): each word of that SQL that could
// name a table is noted, so a read depends on every table its text names,
// and on no more. A read that names none, or that reads some other way
// (Snapshot), depends on every write. A read and a write may also say
// which rows they stay within (a Scope, scope.go): then a write moves on
// only the answers read in its scope or in none.
//
// An answer is used only while every table it read still has the
// generation it was read at. Why that is exact: a reader notes the count
// of finished writes before it reads, and after reading keeps its answer,
// labelled with its tables' generations, only if no write finished in
// between; so those generations are at most those of the moment it began.
// A write that commits after that point moves its tables on after it, so
// the answer, whether it saw that write or not, is never used once the
// write is visible to everyone; and an answer labelled with the current
// generations of all its tables was read after the last finished write to
// any of them was committed.
type readCache struct {
	mu    sync.Mutex
	m     map[string]readEntry
	bytes int64 // the summed sizes of m's values

	gmu sync.RWMutex
	// tables holds each table's generation (scope.go). An answer's label
	// points at the counters it read, so checking it (current, on every
	// cached read) indexes no map: a cached page depends on a dozen words.
	tables map[genKey]*uint64
	writes uint64 // moved on by every finished write
	all    uint64 // moved on by writes that did not say what they wrote
}

type readEntry struct {
	val  any
	size int64
	deps reads
}

// reads is what an answer depends on: the generations it was read at.
type reads struct {
	all, writes uint64
	any         bool // the tables are unknown: any write moves it on
	tables      []tableGen
}

type tableGen struct {
	key genKey
	gen uint64
	now *uint64 // the table's counter in readCache.tables
}

// The cache's bounds: when either is passed it starts again empty (which
// also drops the answers of past generations). An answer larger than a
// sixteenth of maxReadBytes is never kept. A busy repository's issues and
// their comment pages are kept one by one, so the bounds are of the order
// of thousands of issues and their pages of comments.
const (
	maxReadEntries = 16384
	maxReadBytes   = 64 << 20
)

// Changed moves the generations of tables on: what they hold may differ
// from what any cached answer saw. The tables a write implies (implied.go)
// move with them.
func (db *DB) Changed(tables ...string) {
	db.ChangedIn(Scope{}, tables...)
}

// ChangedIn is Changed for a write that stayed within s (scope.go): one
// user's threads marked read, say.
func (db *DB) ChangedIn(s Scope, tables ...string) {
	marks := make([]genKey, len(tables))
	for i, t := range tables {
		marks[i] = writeMark(t, s)
	}
	db.cache.moveOn(marks)
}

// moveOn moves on what writes marked (writeMark): a table and its
// unscoped part, or a table and one bucket of its scopes.
func (c *readCache) moveOn(marks []genKey) {
	c.gmu.Lock()
	defer c.gmu.Unlock()
	for _, m := range marks {
		*c.counter(genKey{m.name, wholeTable})++
		if m.part >= 0 {
			*c.counter(m)++
		} else {
			*c.counter(genKey{m.name, unscopedPart})++
		}
		// A trigger fires on a write of the hot columns too; what it
		// writes is in no scope, but for the counters that follow their
		// rows' scope (scopedCounters).
		for _, u := range implied[strings.TrimSuffix(m.name, hotPart)] {
			*c.counter(genKey{u, wholeTable})++
			if m.part >= 0 && scopedCounters[u] {
				*c.counter(genKey{u, m.part})++
			} else {
				*c.counter(genKey{u, unscopedPart})++
			}
		}
	}
	c.writes++
}

// counter is k's generation counter, made at 0 the first time; the
// caller holds gmu for writing.
func (c *readCache) counter(k genKey) *uint64 {
	if c.tables == nil {
		c.tables = map[genKey]*uint64{}
	}
	p := c.tables[k]
	if p == nil {
		p = new(uint64)
		c.tables[k] = p
	}
	return p
}

// ChangedAll moves every answer on: the projection may differ anywhere.
func (db *DB) ChangedAll() {
	c := &db.cache
	c.gmu.Lock()
	c.all++
	c.writes++
	c.gmu.Unlock()
}

// current tells whether an answer read at r may still be used.
func (c *readCache) current(r reads) bool {
	c.gmu.RLock()
	defer c.gmu.RUnlock()
	if r.all != c.all {
		return false
	}
	if r.any {
		return r.writes == c.writes
	}
	for _, t := range r.tables {
		if *t.now != t.gen {
			return false
		}
	}
	return true
}

// label is what an answer read from writes on depends on, given the
// tables rec noted; false when a write has finished since writes.
func (c *readCache) label(writes uint64, rec *recorder) (reads, bool) {
	c.gmu.Lock() // counter may make a counter
	defer c.gmu.Unlock()
	if c.writes != writes {
		return reads{}, false
	}
	r := reads{all: c.all, writes: writes, any: rec.any || len(rec.tables) == 0}
	if !r.any {
		r.tables = make([]tableGen, 0, len(rec.tables))
		for k := range rec.tables {
			now := c.counter(k)
			r.tables = append(r.tables, tableGen{k, *now, now})
		}
	}
	return r, true
}

// Remember returns key's answer if what it read has not changed since, or
// reads it with fn and keeps it. fn must run its SQL on the ctx it is
// given (the tables it reads are noted there). Values must not be changed
// by callers (copy slices before handing them out). Errors are not kept.
func Remember[T any](ctx context.Context, db *DB, key string, fn func(context.Context) (T, error)) (T, error) {
	return RememberSized(ctx, db, key, fn, func(T) int64 { return 64 })
}

// RememberSized is Remember for answers whose size varies: size estimates
// the bytes one holds.
func RememberSized[T any](ctx context.Context, db *DB, key string, fn func(context.Context) (T, error), size func(T) int64) (T, error) {
	c := &db.cache
	outer := recorderOf(ctx)
	if v, ok := c.kept(ctx, key, nil); ok {
		return v.(T), nil
	}
	c.gmu.RLock()
	writes := c.writes
	c.gmu.RUnlock()
	rec := &recorder{tables: map[genKey]struct{}{}}
	v, err := fn(context.WithValue(ctx, recorderKey{}, rec))
	rec.settle()
	outer.addAll(rec)
	if err != nil {
		return v, err
	}
	deps, ok := c.label(writes, rec)
	n := size(v) + int64(len(key)) + 64 + int64(len(deps.tables))*32
	if !ok || n > maxReadBytes/16 {
		return v, nil
	}
	c.mu.Lock()
	if old, ok := c.m[key]; ok {
		c.bytes -= old.size
	}
	if c.m == nil || len(c.m) >= maxReadEntries || c.bytes+n > maxReadBytes {
		c.m, c.bytes = make(map[string]readEntry), 0
	}
	c.m[key] = readEntry{val: v, size: n, deps: deps}
	c.bytes += n
	c.mu.Unlock()
	return v, nil
}

// Peek returns key's answer if one is kept and what it read has not
// changed since, without reading anything else. A read that builds on
// the answer (a page that starts where the page before it ended) depends
// on what the answer read, so that is noted for ctx's Remember: of the
// tables named (those that tell where the answer ends), or of every table
// when none is. A page of notifications depends on its page before's
// threads, not on the issues that page showed: noting those too, page
// after page, would add every page's issues to the next.
func Peek[T any](ctx context.Context, db *DB, key string, tables ...string) (T, bool) {
	v, _ := db.cache.kept(ctx, key, tables) // nil when none: not a T
	t, ok := v.(T)
	return t, ok
}

// kept is key's answer if one is kept and still current. What it read
// (of tables, or all of it when tables is empty) is noted for ctx's
// Remember: an answer kept inside another, or built on it, depends on
// that too.
func (c *readCache) kept(ctx context.Context, key string, tables []string) (any, bool) {
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if !ok || !c.current(e.deps) {
		return nil, false
	}
	recorderOf(ctx).addReads(e.deps, tables)
	return e.val, true
}

// Key names a read by its kind, its SQL and its arguments, each written
// as its type and value. Keys are made on every cached read, so the
// common argument types are written without fmt.
func Key(kind string, sql string, args ...any) string {
	var b strings.Builder
	b.Grow(len(kind) + len(sql) + 24*len(args))
	b.WriteString(kind)
	b.WriteByte(0)
	b.WriteString(sql)
	var num [24]byte
	for _, a := range args {
		b.WriteByte(0)
		switch v := a.(type) {
		case string:
			b.WriteString("string:")
			b.WriteString(v)
		case int64:
			b.WriteString("int64:")
			b.Write(strconv.AppendInt(num[:0], v, 10))
		case uint64:
			b.WriteString("uint64:")
			b.Write(strconv.AppendUint(num[:0], v, 10))
		case int:
			b.WriteString("int:")
			b.Write(strconv.AppendInt(num[:0], int64(v), 10))
		case bool:
			b.WriteString("bool:")
			b.WriteString(strconv.FormatBool(v))
		default:
			fmt.Fprintf(&b, "%T:%v", a, a)
		}
	}
	return b.String()
}

// recorder notes the generations the reads of one Remember depend on:
// of the tables they name, in their scope (scope.go).
type recorder struct {
	mu      sync.Mutex
	tables  map[genKey]struct{}
	any     bool                // a read that names no tables: it depends on everything
	pending map[*Later]struct{} // reads whose scopes are told later (later.go)
}

type recorderKey struct{}

func recorderOf(ctx context.Context) *recorder {
	r, _ := ctx.Value(recorderKey{}).(*recorder)
	return r
}

// noteRead notes the tables the read q names, in ctx's scope, for ctx's
// Remember, if any.
func noteRead(ctx context.Context, q string) {
	r := recorderOf(ctx)
	if r == nil {
		return
	}
	words, s, l := sqlWords(q), scopeOf(ctx), laterOf(ctx)
	if l != nil && l.rec != r {
		l = nil // a Remember inside the Later's: its reads are its own
	}
	r.mu.Lock()
	for _, w := range words {
		switch {
		case l.leaves(w):
		case s.bucket == 0:
			addReadKeys(r.tables, w)
		default:
			addReadKeys(r.tables, w, s)
		}
	}
	r.mu.Unlock()
}

// noteAnyRead notes a read whose tables are unknown.
func noteAnyRead(ctx context.Context) {
	if r := recorderOf(ctx); r != nil {
		r.mu.Lock()
		r.any = true
		r.mu.Unlock()
	}
}

// addReads notes what d read, of tables or all of it when tables is empty.
func (r *recorder) addReads(d reads, tables []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.any = r.any || d.any
	for _, t := range d.tables {
		if len(tables) == 0 || slices.Contains(tables, strings.TrimSuffix(t.key.name, hotPart)) {
			r.tables[t.key] = struct{}{}
		}
	}
}

func (r *recorder) addAll(inner *recorder) {
	if r == nil {
		return
	}
	inner.mu.Lock()
	defer inner.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.any = r.any || inner.any || len(inner.tables) == 0
	for t := range inner.tables {
		r.tables[t] = struct{}{}
	}
}
