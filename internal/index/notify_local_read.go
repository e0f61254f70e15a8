package index

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// ReadLocal marks the user's node-local thread read, as reading what it
// points at does (a conversation read to its end), and wakes the live
// badges when that changed anything.
func (ix *Index) ReadLocal(ctx context.Context, user common.Address, thread string) error {
	res, err := ix.db.ExecContext(ctx, `UPDATE notifications SET unread = FALSE WHERE user_address = $1 AND thread = $2 AND unread`,
		user.Hex(), LocalThreadPrefix+thread)
	if err != nil {
		return fmt.Errorf("read %s of %s: %w", thread, user.Hex(), err)
	}
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		ix.notifyRead(user)
	}
	return nil
}
