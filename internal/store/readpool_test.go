package store_test

import (
	"context"
	"sync"
	"testing"
)

// TestReadPoolSeesCommittedWrites: reads go through ReadDB (SQLite: a
// read-only pool beside the single writer). A read that starts after a
// write committed sees it, many reads run at once, and the pool refuses
// to write.
func TestReadPoolSeesCommittedWrites(t *testing.T) {
	ctx := context.Background()
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := s.DB().ExecContext(ctx, `CREATE TABLE read_pool_probe (n BIGINT NOT NULL)`); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 20; i++ {
				if _, err := s.DB().ExecContext(ctx, `INSERT INTO read_pool_probe (n) VALUES ($1)`, i); err != nil {
					t.Fatal(err)
				}
				var count int
				if err := s.ReadDB().QueryRowContext(ctx, `SELECT COUNT(*) FROM read_pool_probe`).Scan(&count); err != nil || count != i {
					t.Fatalf("after %d inserts the read pool counts %d (%v)", i, count, err)
				}
			}
			// Readers in parallel, with a writer going on.
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for range 32 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rows, err := s.ReadDB().QueryContext(ctx, `SELECT n FROM read_pool_probe ORDER BY n`)
					if err != nil {
						errs <- err
						return
					}
					defer rows.Close()
					for rows.Next() {
					}
					if err := rows.Err(); err != nil {
						errs <- err
					}
				}()
			}
			for i := 21; i <= 30; i++ {
				if _, err := s.DB().ExecContext(ctx, `INSERT INTO read_pool_probe (n) VALUES ($1)`, i); err != nil {
					t.Fatal(err)
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatalf("parallel read: %v", err)
			}
			if name == "sqlite" {
				if _, err := s.ReadDB().ExecContext(ctx, `INSERT INTO read_pool_probe (n) VALUES (0)`); err == nil {
					t.Fatal("the SQLite read pool wrote")
				}
			}
		})
	}
}
