package messages

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/usererr"
)

// Blocks, as Gitea's /user/blocks: a user refuses an account's messages.
// They are node-local, as the messages are; an account can be blocked
// before it ever signs in here.

// MaxNote bounds a block's note, Gitea's private reminder of why.
const MaxNote = 255

// Block is one account a user has blocked.
type Block struct {
	Address common.Address
	Note    string
	Created time.Time
}

func key(a common.Address) string { return strings.ToLower(a.Hex()) }

// blocks reports whether user (a users id) has blocked the account.
func (s *Service) blocks(ctx context.Context, user int64, account common.Address) (bool, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM user_blocks WHERE blocker_id = $1 AND blocked_address = $2`,
		user, key(account)).Scan(&n); err != nil {
		return false, fmt.Errorf("read block: %w", err)
	}
	return n > 0, nil
}

// IsBlocked reports whether user has blocked the account.
func (s *Service) IsBlocked(ctx context.Context, user Account, account common.Address) (bool, error) {
	return s.blocks(ctx, user.ID, account)
}

// BlockAccount makes user refuse messages from the account; blocking it
// again keeps the block and takes the new note.
func (s *Service) BlockAccount(ctx context.Context, user Account, account common.Address, note string) error {
	if account == user.Address {
		return usererr.BadFieldf("username", "you cannot block yourself")
	}
	note = strings.TrimSpace(note)
	if err := tx.CheckLine("note", note); err != nil {
		return usererr.Unprocessablef("note", usererr.CodeInvalidText, "%s", err.Error())
	}
	if len([]rune(note)) > MaxNote {
		return usererr.Unprocessablef("note", usererr.CodeTooLarge, "note must be at most %d characters", MaxNote)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO user_blocks (blocker_id, blocked_address, note, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (blocker_id, blocked_address) DO UPDATE SET note = excluded.note`, user.ID, key(account), note, s.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("block %s: %w", account.Hex(), err)
	}
	return nil
}

// Unblock lifts user's block of the account; unblocking an account that
// is not blocked is refused, as Gitea refuses it.
func (s *Service) Unblock(ctx context.Context, user Account, account common.Address) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_address = $2`, user.ID, key(account))
	if err != nil {
		return fmt.Errorf("unblock %s: %w", account.Hex(), err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Unprocessablef("username", "not_blocked", "that user is not blocked")
	}
	return nil
}

// Blocks is a page of the accounts user has blocked, the latest first,
// with the total.
func (s *Service) Blocks(ctx context.Context, user Account, offset, limit int) ([]Block, int64, error) {
	var total int64
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM user_blocks WHERE blocker_id = $1`, user.ID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count blocks: %w", err)
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT blocked_address, note, created_at FROM user_blocks WHERE blocker_id = $1
		ORDER BY created_at DESC, blocked_address LIMIT $2 OFFSET $3`, user.ID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list blocks: %w", err)
	}
	defer rows.Close()
	out := []Block{}
	for rows.Next() {
		var b Block
		var addr string
		var created int64
		if err := rows.Scan(&addr, &b.Note, &created); err != nil {
			return nil, 0, fmt.Errorf("scan block: %w", err)
		}
		b.Address, b.Created = common.HexToAddress(addr), time.UnixMilli(created).UTC()
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read blocks: %w", err)
	}
	return out, total, nil
}
