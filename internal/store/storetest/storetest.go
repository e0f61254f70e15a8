// Package storetest gives tests throwaway PostgreSQL databases.
package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
)

var seq atomic.Int64

// TestDatabase creates a fresh database on the PostgreSQL server adminDSN
// points at (DFORGE_TEST_PG), dropped when the test ends, and returns its
// DSN.
func TestDatabase(t testing.TB, adminDSN string) string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("dforge_test_%d_%d", time.Now().UnixNano(), seq.Add(1))
	admin, err := store.OpenAdmin(ctx, adminDSN)
	if err != nil {
		t.Fatalf("connect postgres: %v", err)
	}
	dsn, err := admin.CreateDatabase(ctx, name)
	if err != nil {
		admin.Close()
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		admin.DropDatabase(ctx, name)
		admin.Close()
	})
	return dsn
}
