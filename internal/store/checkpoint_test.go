package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The writer never checkpoints the WAL, and the background checkpoints
// keep it from growing under writes: ten transactions of about 2 MB each,
// with checkpoints between them, leave a WAL file of about one of them,
// where the writer alone (wal_autocheckpoint 0) would leave all ten.
func TestTheWALIsCheckpointedBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dforge.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var auto int
	if err := st.DB().QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("the writer's wal_autocheckpoint is %d (%v), want 0: the writer must not checkpoint", auto, err)
	}
	if _, err := st.DB().ExecContext(ctx, `CREATE TABLE scratch (b BLOB NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	const batch = 2 << 20
	row := strings.Repeat("x", 8<<10)
	for i := range 10 {
		tx, err := st.DB().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range batch / len(row) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO scratch (b) VALUES ($1)`, row); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		// Two more checkpoints: the first may have begun before the commit.
		want := st.ckpt.runs.Load() + 2
		for deadline := time.Now().Add(30 * time.Second); st.ckpt.runs.Load() < want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("batch %d: no background checkpoint in 30 s", i)
			}
		}
	}
	info, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > 3*batch {
		t.Fatalf("the WAL file is %d bytes after ten writes of %d with checkpoints between them, want at most %d", info.Size(), batch, 3*batch)
	}
}
