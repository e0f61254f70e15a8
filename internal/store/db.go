package store

import "database/sql"

// DB is the database handle for packages that keep their own SQL over the
// tables their migrations create (the chain index).
func (s *Store) DB() *sql.DB { return s.db }

// ReadDB is the handle for reads that need not see the caller's own
// uncommitted writes: with SQLite, a pool of read-only connections that
// run in parallel with each other and with the single writer (WAL); with
// PostgreSQL, DB itself. A read there sees every transaction committed
// before it began, so a read after a write's commit sees the write.
func (s *Store) ReadDB() *sql.DB { return s.rdb }
