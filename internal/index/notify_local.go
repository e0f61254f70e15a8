package index

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// LocalThreadPrefix starts the thread of every node-local notification.
// A reset for another chain keeps those rows: they come from this node's
// own SQL (direct messages, support tickets), not from the chain.
const LocalThreadPrefix = "local:"

// LocalNotification is an event only this node knows about, for one of
// its users: a direct message, an answer to a support ticket.
type LocalNotification struct {
	User        common.Address
	Thread      string // after LocalThreadPrefix, e.g. "message:12"
	SubjectType string // e.g. "Message", "Ticket"
	Reason      string
	Title       string
	Actor       common.Address // the zero address: the node's staff
	Number      int64          // the conversation's or ticket's id
}

// NotifyLocal adds n to its user's notifications, or makes the thread
// unread again with the new title and actor, and wakes the live badges.
func (ix *Index) NotifyLocal(ctx context.Context, n LocalNotification) error {
	if n.Thread == "" || strings.HasPrefix(n.Thread, LocalThreadPrefix) {
		return fmt.Errorf("notify %s: thread %q must be given without its prefix", n.User.Hex(), n.Thread)
	}
	_, err := ix.db.ExecContext(ctx, `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		VALUES ($1, $2, 0, $3, $4, $5, $6, $7, 0, 0, TRUE, FALSE, $8, $9)
		ON CONFLICT (user_address, thread) DO UPDATE SET reason = excluded.reason, title = excluded.title,
		actor = excluded.actor, unread = TRUE, height = excluded.height, updated_ns = excluded.updated_ns`,
		n.User.Hex(), LocalThreadPrefix+n.Thread, n.Number, n.SubjectType, n.Reason, n.Title, n.Actor.Hex(),
		ix.Height(), time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("notify %s of %s: %w", n.User.Hex(), n.Thread, err)
	}
	ix.notifyRead(n.User)
	return nil
}
