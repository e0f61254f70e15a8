package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
)

// Admin is a PostgreSQL maintenance connection used to create and drop
// throwaway databases, for tests and benchmarks.
type Admin struct {
	db  *sql.DB
	dsn string
}

var dbName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// OpenAdmin connects to the PostgreSQL server named by dsn.
func OpenAdmin(ctx context.Context, dsn string) (*Admin, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres admin: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect postgres admin: %w", err)
	}
	return &Admin{db: db, dsn: dsn}, nil
}

// CreateDatabase creates an empty database and returns its DSN.
func (a *Admin) CreateDatabase(ctx context.Context, name string) (string, error) {
	if !dbName.MatchString(name) {
		return "", fmt.Errorf("create database: invalid name %q", name)
	}
	if _, err := a.db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := url.Parse(a.dsn)
	if err != nil {
		return "", fmt.Errorf("parse admin DSN: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

// DropDatabase removes a database created by CreateDatabase.
func (a *Admin) DropDatabase(ctx context.Context, name string) error {
	if !dbName.MatchString(name) {
		return fmt.Errorf("drop database: invalid name %q", name)
	}
	if _, err := a.db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// Close releases the connection.
func (a *Admin) Close() error { return a.db.Close() }
