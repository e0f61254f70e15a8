package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The git server looks a key up by fingerprint on every SSH connection,
// so these reads are never cached: a key deleted on chain stops working
// as soon as its block is projected.

// Key is a registered SSH public key.
type Key struct {
	ID          uint64    `json:"id"`
	Owner       User      `json:"owner"`
	Title       string    `json:"title"`
	Key         string    `json:"key"`
	Fingerprint string    `json:"fingerprint"`
	Height      int64     `json:"height"`
	Created     time.Time `json:"created"`
}

const keyCols = `k.id, k.owner, ` + `COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, k.title, k.key, k.fingerprint, k.created_height, k.created_time_ns`
const keyFrom = `forge_keys k LEFT JOIN chain_accounts a ON a.address = k.owner`

func scanKey(row interface{ Scan(...any) error }) (Key, error) {
	var k Key
	var id int64
	var owner, name string
	var ns int64
	if err := row.Scan(&id, &owner, &name, &k.Title, &k.Key, &k.Fingerprint, &k.Height, &ns); err != nil {
		return Key{}, err
	}
	k.ID, k.Owner, k.Created = uint64(id), user(owner, name), time.Unix(0, ns).UTC()
	return k, nil
}

// Keys lists owner's keys, oldest first, and their total.
func (ix *Index) Keys(ctx context.Context, owner common.Address, p Page) ([]Key, int64, error) {
	out := []Key{}
	total, err := ix.listPage(ctx, keyCols, keyFrom, "forge_keys k", "k.owner = $1", "k.id", []any{owner.Hex()}, p, func(rows *sql.Rows) error {
		k, err := scanKey(rows)
		out = append(out, k)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list keys: %w", err)
	}
	return out, total, nil
}

// KeyByID is key id (false: no such key).
func (ix *Index) KeyByID(ctx context.Context, id uint64) (Key, bool, error) {
	return ix.oneKey(ctx, "k.id = $1", int64(id))
}

// KeyByFingerprint is the key of a fingerprint ("SHA256:...").
func (ix *Index) KeyByFingerprint(ctx context.Context, fingerprint string) (Key, bool, error) {
	return ix.oneKey(ctx, "k.fingerprint = $1", fingerprint)
}

func (ix *Index) oneKey(ctx context.Context, where string, arg any) (Key, bool, error) {
	k, err := scanKey(ix.queryRow(ctx, `SELECT `+keyCols+` FROM `+keyFrom+` WHERE `+where, arg))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Key{}, false, nil
	case err != nil:
		return Key{}, false, fmt.Errorf("read key: %w", err)
	}
	return k, true, nil
}
