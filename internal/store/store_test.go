package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/store/storetest"
)

// openStores returns a fresh SQLite store and, when DFORGE_TEST_PG points at
// a PostgreSQL server, a store in a fresh schema-isolated database there too.
func openStores(t *testing.T) map[string]*store.Store {
	t.Helper()
	ctx := context.Background()
	out := map[string]*store.Store{}
	lite, err := store.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { lite.Close() })
	out["sqlite"] = lite
	if dsn := os.Getenv("DFORGE_TEST_PG"); dsn != "" {
		out["postgres"] = openPostgres(t, dsn)
	}
	return out
}

func openPostgres(t *testing.T, adminDSN string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), storetest.TestDatabase(t, adminDSN))
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestWebVitalsRoundTrip(t *testing.T) {
	t.Parallel()
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now()
			for _, v := range []float64{300, 100, 200} {
				err := s.AddWebVital(ctx, store.WebVital{Name: "LCP", Value: v, Rating: "good", Page: "/", ReportedAt: now, ReceivedAt: now})
				if err != nil {
					t.Fatalf("add: %v", err)
				}
			}
			old := now.Add(-48 * time.Hour)
			if err := s.AddWebVital(ctx, store.WebVital{Name: "LCP", Value: 9999, Rating: "poor", Page: "/", ReportedAt: old, ReceivedAt: old}); err != nil {
				t.Fatalf("add old: %v", err)
			}
			got, err := s.WebVitalSamples(ctx, now.Add(-time.Hour))
			if err != nil {
				t.Fatalf("samples: %v", err)
			}
			if len(got) != 3 || got[0].Value != 100 || got[2].Value != 300 {
				t.Fatalf("samples = %+v, want the three recent values in ascending order", got)
			}
		})
	}
}

func TestContactMessagesRoundTrip(t *testing.T) {
	t.Parallel()
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			msg := store.ContactMessage{Name: "Ada", Email: "ada@example.org", Subject: "Hi", Message: "Hello, dForge ✓", CreatedAt: time.UnixMilli(1700000000000).UTC()}
			id, err := s.AddContactMessage(ctx, msg)
			if err != nil {
				t.Fatalf("add: %v", err)
			}
			got, err := s.ContactMessages(ctx, 10)
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			msg.ID = id
			if len(got) != 1 || got[0] != msg {
				t.Fatalf("messages = %+v, want [%+v]", got, msg)
			}
		})
	}
}

func TestReopenKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dforge.db")
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if _, err := s.AddContactMessage(ctx, store.ContactMessage{Name: "a", Email: "a@b.c", Subject: "s", Message: "m", CreatedAt: time.Now()}); err != nil {
		t.Fatalf("add: %v", err)
	}
	s.Close()
	s, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen (migrations must be idempotent): %v", err)
	}
	defer s.Close()
	got, err := s.ContactMessages(ctx, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("after reopen: %v, %d messages; want 1", err, len(got))
	}
}
