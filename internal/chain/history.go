package chain

import (
	"log/slog"
	"path/filepath"

	"github.com/dforge/dforge/internal/chain/node"
)

// OpenHistory opens the committed chain in dir (the Dir of Config) for
// reading without starting it, as `dforge reindex` replays it. The node must
// be stopped.
func OpenHistory(dir string, log *slog.Logger) (*node.History, error) {
	return node.OpenHistory(node.Config{Home: filepath.Join(dir, "comet"), Logger: log})
}
