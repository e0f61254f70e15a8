package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
)

// reindex rebuilds the SQL projection of the chain from the chain alone:
// it empties the chain tables and replays every block of a stopped node.
func reindex(ctx context.Context, args []string, out io.Writer) error {
	fl := flag.NewFlagSet("reindex", flag.ContinueOnError)
	data := fl.String("data", envOr("DFORGE_DATA", "./data"), "data directory of a stopped node (env DFORGE_DATA)")
	dsn := fl.String("db", os.Getenv("DFORGE_DB"), "database DSN to rebuild: a SQLite path or postgres://... (env DFORGE_DB; default SQLite in the data dir)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	if *dsn == "" {
		*dsn = store.DefaultDSN(*data)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return Reindex(ctx, *data, *dsn, log, out)
}

// Reindex rebuilds the projection in the database dsn from the chain in
// dataDir, whose node must be stopped.
func Reindex(ctx context.Context, dataDir, dsn string, log *slog.Logger, out io.Writer) error {
	// 1. The chain as committed, read straight from its databases.
	hist, err := chain.OpenHistory(filepath.Join(dataDir, "chain"), log)
	if err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	defer hist.Close()
	// 2. The database, migrated, then emptied and refilled block by block.
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	defer st.Close()
	height, err := index.Rebuild(ctx, log, st, hist)
	if err != nil {
		return fmt.Errorf("reindex: at height %d: %w", height, err)
	}
	fmt.Fprintf(out, "reindexed the chain in %s up to height %d\n", dataDir, height)
	return nil
}
