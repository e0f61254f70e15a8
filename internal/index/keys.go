package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// SSH public keys (forge_keys), projected from key.add and key.delete.

func writeKey(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	if k := c.change.Key; k != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_keys (id, owner, title, key, fingerprint, created_height, created_time_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
			int64(k.ID), k.Owner.Hex(), k.Title, k.Key, k.Fingerprint, c.height, c.timeNS); err != nil {
			return fmt.Errorf("write key %d: %w", k.ID, err)
		}
	}
	if k := c.change.DeletedKey; k != nil {
		if _, err := tx.ExecContext(ctx, `DELETE FROM forge_keys WHERE id = $1`, int64(k.ID)); err != nil {
			return fmt.Errorf("delete key %d: %w", k.ID, err)
		}
	}
	return nil
}
