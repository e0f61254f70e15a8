package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// Following lists the accounts who follows, newest follow first.
func (ix *Index) Following(ctx context.Context, who common.Address, p Page) ([]User, int64, error) {
	return ix.followUsers(ctx, "followed", "follower", who, p)
}

// Followers lists the accounts following who, newest follow first.
func (ix *Index) Followers(ctx context.Context, who common.Address, p Page) ([]User, int64, error) {
	return ix.followUsers(ctx, "follower", "followed", who, p)
}

// followUsers lists column col of the rows whose column by is who.
func (ix *Index) followUsers(ctx context.Context, col, by string, who common.Address, p Page) ([]User, int64, error) {
	out := []User{}
	total, err := ix.page(ctx, `f.`+col+`, `+userExpr("a"), `forge_follows f LEFT JOIN chain_accounts a ON a.address = f.`+col,
		"f."+by+" = $1", "f.height DESC, f."+col, []any{who.Hex()}, p, func(rows *sql.Rows, total *int64) error {
			var addr, name string
			err := rows.Scan(&addr, &name, total)
			out = append(out, user(addr, name))
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list follows: %w", err)
	}
	return out, total, nil
}

// IsFollowing reports whether follower follows followed.
func (ix *Index) IsFollowing(ctx context.Context, follower, followed common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_follows WHERE follower = $1 AND followed = $2`,
		follower.Hex(), followed.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read follow: %w", err)
	}
	return n > 0, nil
}

// FollowCounts are how many accounts follow who and how many who follows.
func (ix *Index) FollowCounts(ctx context.Context, who common.Address) (followers, following int64, err error) {
	err = ix.queryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM forge_follows WHERE followed = $1),
		(SELECT COUNT(*) FROM forge_follows WHERE follower = $1)`, who.Hex()).Scan(&followers, &following)
	if err != nil {
		return 0, 0, fmt.Errorf("count follows: %w", err)
	}
	return followers, following, nil
}
