// Package store owns the node's SQL database: SQLite by default, PostgreSQL
// when the DSN says so. It holds node-local data and, in later milestones, the
// projection of the chain that pages read.
package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing/fstest"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations
var migrations embed.FS

// Dialect names the SQL engine behind a Store.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

var gooseDialect = map[Dialect]goose.Dialect{SQLite: goose.DialectSQLite3, Postgres: goose.DialectPostgres}

// Store is the node's SQL database.
type Store struct {
	db *sql.DB
	// rdb serves reads. For SQLite it is a pool of read-only connections
	// beside db's single writer, so readers run in parallel (WAL) and never
	// queue behind a write or each other; for PostgreSQL it is db.
	rdb     *sql.DB
	dialect Dialect
	// ckpt checkpoints SQLite's WAL in the background (checkpoint.go).
	ckpt *checkpointer
	// creds remembers what signed-in requests resolve (credentials.go).
	creds *credentials
}

// DefaultDSN is the SQLite file inside the data dir used when no DSN is given.
func DefaultDSN(dataDir string) string {
	return filepath.Join(dataDir, "dforge.db")
}

// Open connects to the database named by dsn and applies pending migrations.
// A DSN starting with postgres:// or postgresql:// selects PostgreSQL;
// anything else is a SQLite file path.
func Open(ctx context.Context, dsn string) (*Store, error) {
	s, err := connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	if err := s.openReaders(ctx, dsn); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

func connect(ctx context.Context, dsn string) (*Store, error) {
	if dsn == "" {
		return nil, fmt.Errorf("open store: empty DSN")
	}
	dialect, driver, source := SQLite, "sqlite", sqliteSource(dsn)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		dialect, driver, source = Postgres, "pgx", dsn
	} else if err := os.MkdirAll(filepath.Dir(dsn), 0o755); err != nil {
		return nil, fmt.Errorf("create database dir: %w", err)
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dialect, err)
	}
	if dialect == SQLite {
		// SQLite allows one writer; a single connection avoids SQLITE_BUSY
		// between our own goroutines while WAL keeps readers cheap.
		db.SetMaxOpenConns(1)
	} else {
		// database/sql keeps 2 idle connections by default: under load every
		// other request would open a new PostgreSQL connection (a server
		// process each), which costs far more than the query. Keep a pool
		// sized to the machine instead, and let requests queue for it.
		n := pgConns()
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect %s: %w", dialect, err)
	}
	return &Store{db: db, rdb: db, dialect: dialect, creds: newCredentials()}, nil
}

// sqliteSource opens the writer. The WAL is checkpointed in the background
// (checkpoint.go), never by the writer's commits. temp_store(MEMORY): a
// statement's journal (every write inside a transaction that may fail
// midway keeps one) and a sort's temporary b-tree stay in memory rather
// than in a temporary file written with a syscall per page, as a profile
// of the projection's writes found.
func sqliteSource(path string) string {
	return "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)" +
		"&_pragma=wal_autocheckpoint(0)&_pragma=temp_store(MEMORY)"
}

// readerSource opens the same SQLite file for reading only: query_only
// refuses writes at the SQL level, so the single writer stays the only one.
// journal_mode is not set here: the writer made the file WAL (a persistent
// setting), and readers must not try to change it.
func readerSource(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=query_only(1)&_pragma=temp_store(MEMORY)"
}

// readConns is the size of SQLite's read pool: enough that a slow read
// (a large list) does not hold up the rest, few enough to bound the page
// caches (2 MB each by default).
func readConns() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// pgConns is the size of the PostgreSQL pool.
func pgConns() int { return max(16, 8*runtime.GOMAXPROCS(0)) }

// openReaders opens the SQLite read pool once migrations have made the
// schema; PostgreSQL reads through db.
func (s *Store) openReaders(ctx context.Context, dsn string) error {
	if s.dialect != SQLite {
		return nil
	}
	rdb, err := sql.Open("sqlite", readerSource(dsn))
	if err != nil {
		return fmt.Errorf("open sqlite readers: %w", err)
	}
	n := readConns()
	rdb.SetMaxOpenConns(n)
	// Keep them all: opening a connection parses the schema again.
	rdb.SetMaxIdleConns(n)
	if err := rdb.PingContext(ctx); err != nil {
		rdb.Close()
		return fmt.Errorf("connect sqlite readers: %w", err)
	}
	s.rdb = rdb
	if s.ckpt, err = startCheckpointer(ctx, dsn); err != nil {
		rdb.Close()
		return err
	}
	return nil
}

func (s *Store) migrate(ctx context.Context) error {
	dir, err := Migrations(s.dialect)
	if err != nil {
		return err
	}
	provider, err := goose.NewProvider(gooseDialect[s.dialect], s.db, dir)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// idColumn is what a migration's {{ID}} becomes: the dialect's
// auto-numbered primary key.
var idColumn = map[Dialect]string{
	SQLite:   "INTEGER PRIMARY KEY AUTOINCREMENT",
	Postgres: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
}

// Migrations returns the dialect's migrations as goose reads them (an
// in-memory fs.FS; fstest.MapFS is the standard library's): every
// file of migrations/shared, written once for both engines with {{ID}} for
// the auto-numbered key, unless migrations/<dialect> has a file of the same
// name, which replaces it where the engines really differ (triggers).
func Migrations(d Dialect) (fs.FS, error) {
	out := fstest.MapFS{}
	for _, sub := range []string{"shared", string(d)} {
		entries, err := fs.ReadDir(migrations, "migrations/"+sub)
		if err != nil {
			return nil, fmt.Errorf("list %s migrations: %w", sub, err)
		}
		for _, e := range entries {
			raw, err := fs.ReadFile(migrations, "migrations/"+sub+"/"+e.Name())
			if err != nil {
				return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
			}
			out[e.Name()] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(raw), "{{ID}}", idColumn[d]))}
		}
	}
	return out, nil
}

// Dialect reports which SQL engine the store uses.
func (s *Store) Dialect() Dialect { return s.dialect }

// Ping checks that the database answers; /healthz uses it.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", s.dialect, err)
	}
	return nil
}

// Close releases the database.
func (s *Store) Close() error {
	if s.rdb != nil && s.rdb != s.db {
		s.rdb.Close()
	}
	if s.ckpt != nil {
		s.ckpt.stop()
	}
	return s.db.Close()
}
