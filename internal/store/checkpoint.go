package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"
)

// SQLite's WAL is copied back into the database file by a checkpoint. By
// default the connection that commits past 1,000 pages of WAL runs it, and
// here that is the single writer: the projection's block would wait for
// the copy and its fsyncs while every write of the block's users waits for
// the projection. So the writer never checkpoints (wal_autocheckpoint(0) in
// sqliteSource), and a connection of its own checkpoints in the background:
// PASSIVE, which takes no lock that the writer or the readers wait for.

// checkpointEvery is how often the background checkpoint runs: often enough
// that the WAL stays a few megabytes under a steady load of writes.
const checkpointEvery = 250 * time.Millisecond

// checkpointer copies the WAL of the SQLite file at path back into it until
// stop is called.
type checkpointer struct {
	db     *sql.DB
	cancel context.CancelFunc
	done   chan struct{}
	// runs counts the checkpoints that ran, for the tests.
	runs atomic.Int64
}

func startCheckpointer(ctx context.Context, path string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", checkpointSource(path))
	if err != nil {
		return nil, fmt.Errorf("open the sqlite checkpointer: %w", err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect the sqlite checkpointer: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, cancel: cancel, done: make(chan struct{})}
	go c.run(ctx)
	return c, nil
}

func (c *checkpointer) run(ctx context.Context) {
	defer close(c.done)
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := c.checkpoint(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("store: checkpoint the SQLite WAL", "err", err)
		}
		c.runs.Add(1)
	}
}

// checkpoint copies what it can of the WAL into the database file without
// waiting for anyone; what a reader still needs is copied next time.
func (c *checkpointer) checkpoint(ctx context.Context) error {
	var busy, frames, copied int64
	if err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return fmt.Errorf("wal_checkpoint: %w", err)
	}
	return nil
}

// stop ends the background checkpoints and closes their connection; a last
// checkpoint runs first, so a store closed cleanly leaves little WAL.
func (c *checkpointer) stop() error {
	c.cancel()
	<-c.done
	_ = c.checkpoint(context.Background()) // best effort: the next open checkpoints what is left
	return c.db.Close()
}

// checkpointSource opens the SQLite file for checkpoints only.
func checkpointSource(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(5000)"
}
