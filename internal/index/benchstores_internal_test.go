package index

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/store/storetest"
)

// onEachBenchStore runs bench on a fresh SQLite store, and on a fresh
// PostgreSQL database too when DFORGE_TEST_PG names a server (as under
// scripts/with-postgres.sh).
func onEachBenchStore(b *testing.B, bench func(b *testing.B, name string, st *store.Store)) {
	dsns := map[string]string{"sqlite": filepath.Join(b.TempDir(), "bench.db")}
	if admin := os.Getenv("DFORGE_TEST_PG"); admin != "" {
		dsns["postgres"] = storetest.TestDatabase(b, admin)
	}
	for name, dsn := range dsns {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, name, st)
		st.Close()
	}
}

// quietIndex is an index over st that logs nothing, for the benchmarks
// and the tests inside the package.
func quietIndex(st *store.Store) *Index {
	return New(slog.New(slog.NewTextHandler(io.Discard, nil)), st, nil)
}
