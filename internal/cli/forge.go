package cli

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/private"
	"github.com/dforge/dforge/internal/index"
)

// openForge builds the forge service of the node in dataDir: its operator
// key (<data>/operator.key) and its private store (<data>/private).
func openForge(ctx context.Context, dataDir string, ch *chain.Chain, ix *index.Index, log *slog.Logger) (*forge.Service, error) {
	key, err := chain.LoadOrCreateOperatorKey(chain.OperatorKeyFile(dataDir))
	if err != nil {
		return nil, err
	}
	priv, err := private.Open(filepath.Join(dataDir, "private"))
	if err != nil {
		return nil, err
	}
	svc, err := forge.New(ctx, forge.Config{Chain: ch, Index: ix, OperatorKey: key, Private: priv, Log: log})
	if err != nil {
		priv.Close()
		return nil, fmt.Errorf("start the forge service: %w", err)
	}
	return svc, nil
}
