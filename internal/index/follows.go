package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Following (forge_follows), projected from user.follow and user.unfollow.
// Rows are keyed by follower first, so "whom does X follow" (the feed of
// followed accounts reads it) is a prefix scan.

func writeFollow(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	f := c.change.Follow
	if f == nil {
		return nil
	}
	var err error
	if f.On {
		_, err = tx.ExecContext(ctx, `INSERT INTO forge_follows (follower, followed, height, time_ns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (follower, followed) DO NOTHING`, f.Follower.Hex(), f.User.Hex(), c.height, c.timeNS)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM forge_follows WHERE follower = $1 AND followed = $2`, f.Follower.Hex(), f.User.Hex())
	}
	if err != nil {
		return fmt.Errorf("write follow of %s by %s: %w", f.User.Hex(), f.Follower.Hex(), err)
	}
	return nil
}
