package readdb

import (
	"context"
	"database/sql"
	"sync"

	"github.com/dforge/dforge/internal/store"
)

// stmtCache keeps the API's read statements prepared. The SQLite driver
// parses and plans every statement it is handed as text, which costs more
// than running the short reads the API makes (a repository by name, a
// permission, a page of issues); a statement prepared once through
// database/sql is prepared once per connection of the read pool and reused.
// PostgreSQL's driver caches its own prepared statements, so there the
// cache is off.
//
// Statements are keyed by their text. The texts are the projection's own,
// with placeholders for every value, so they are few; the cache still stops
// growing at maxStmts and reads past that run unprepared.
type stmtCache struct {
	db *sql.DB
	on bool

	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

const maxStmts = 512

func newStmtCache(db *sql.DB, dialect store.Dialect) *stmtCache {
	return &stmtCache{db: db, on: dialect == store.SQLite, m: map[string]*sql.Stmt{}}
}

// stmt is q prepared, or nil when it is not to be (or cannot be).
func (c *stmtCache) stmt(ctx context.Context, q string) *sql.Stmt {
	s, ok := c.cached(q)
	if s != nil || !ok {
		return s
	}
	return c.prepare(ctx, q)
}

// cached is q's statement if it has been prepared; false when q is not to
// be prepared at all (the cache is off or full).
func (c *stmtCache) cached(q string) (*sql.Stmt, bool) {
	if c == nil || !c.on {
		return nil, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if s, ok := c.m[q]; ok {
		return s, true
	}
	return nil, len(c.m) < maxStmts
}

// prepare prepares q on a connection of the pool and keeps it.
func (c *stmtCache) prepare(ctx context.Context, q string) *sql.Stmt {
	s, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil // the plain query reports the error
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[q]; ok {
		s.Close()
		return old
	}
	if len(c.m) >= maxStmts {
		s.Close()
		return nil
	}
	c.m[q] = s
	return s
}

// Query runs a read on the read pool, prepared, and notes the tables it
// names for the read cache (cache.go).
func (db *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	noteRead(ctx, q)
	db.reads.Add(1)
	if s := db.stmts.stmt(ctx, q); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return db.rdb.QueryContext(ctx, q, args...)
}

// QueryRow runs a one-row read on the read pool, prepared.
func (db *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	noteRead(ctx, q)
	db.reads.Add(1)
	if s := db.stmts.stmt(ctx, q); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return db.rdb.QueryRowContext(ctx, q, args...)
}

// Reads is how many reads have run on the pool (Query, QueryRow): what
// the read cache saves shows in it.
func (db *DB) Reads() int64 { return db.reads.Load() }
