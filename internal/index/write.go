package index

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
)

// writeBlock writes one block's rows and moves the projected height from
// prev to the block's. The height only moves from where this writer saw
// it, so two indexers on one database cannot both apply a block.
func writeBlock(ctx context.Context, tx *sql.Tx, prev int64, rows blockRows) error {
	b := rows.block
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain_blocks (height, hash, time_ns, proposer, tx_count, app_hash)
		VALUES ($1, $2, $3, $4, $5, $6)`, b.height, b.hash, b.timeNS, b.proposer, b.txs, b.appHash); err != nil {
		return fmt.Errorf("insert block: %w", err)
	}
	if err := insertTxs(ctx, tx, rows.txs); err != nil {
		return err
	}
	if err := writeAccounts(ctx, tx, b.height, rows.accounts); err != nil {
		return err
	}
	if err := writeForge(ctx, tx, rows.forge); err != nil {
		return err
	}
	if err := notifyTransfers(ctx, tx, rows.txs); err != nil {
		return err
	}
	if err := writeGov(ctx, tx, b, rows.gov); err != nil {
		return err
	}
	if err := notifyRewards(ctx, tx, b); err != nil {
		return err
	}
	if err := notifyProposals(ctx, tx, b, rows.gov); err != nil {
		return err
	}
	if err := writeNodes(ctx, tx, b.height, rows.nodes); err != nil {
		return err
	}
	if err := writeRoles(ctx, tx, b, rows.roles); err != nil {
		return err
	}
	if err := writeBounties(ctx, tx, b, rows.bounties); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE chain_index SET height = $1 WHERE id = 1 AND height = $2`, b.height, prev)
	if err != nil {
		return fmt.Errorf("advance projected height: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("advance projected height from %d: another writer moved it (%d rows, %v)", prev, n, err)
	}
	return nil
}

const txColumns = 13

// txBatch rows go in one INSERT: far fewer round trips for a full block,
// and well under both engines' limit on bound parameters.
const txBatch = 200

func insertTxs(ctx context.Context, tx *sql.Tx, txs []txRow) error {
	for chunk := range slices.Chunk(txs, txBatch) {
		var q strings.Builder
		q.WriteString(`INSERT INTO chain_txs (height, tx_index, hash, type, sender, recipient, amount, target, username, nonce, code, log, time_ns) VALUES `)
		args := make([]any, 0, len(chunk)*txColumns)
		for i, t := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(")
			for c := range txColumns {
				if c > 0 {
					q.WriteString(", ")
				}
				fmt.Fprintf(&q, "$%d", i*txColumns+c+1)
			}
			q.WriteString(")")
			args = append(args, t.height, t.index, t.hash, t.kind, t.from, t.to, t.amount, t.target, t.username, t.nonce, int64(t.code), t.log, t.timeNS)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("insert transactions: %w", err)
		}
	}
	return nil
}

// writeAccounts adds each account's changes, creating the accounts seen
// for the first time at height. Accounts go in address order, so every
// replay issues the same statements.
func writeAccounts(ctx context.Context, tx *sql.Tx, height int64, d deltas) error {
	addrs := make([]common.Address, 0, len(d))
	for a := range d {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	// Names claimed in this block are let go first: two accounts may trade
	// names within a block, and no name may be held twice at any moment.
	for _, a := range addrs {
		if d[a].claimed {
			if _, err := tx.ExecContext(ctx, `UPDATE chain_accounts SET username = NULL WHERE address = $1`, a.Hex()); err != nil {
				return fmt.Errorf("release username of %s: %w", a.Hex(), err)
			}
		}
	}
	for _, a := range addrs {
		if err := writeAccount(ctx, tx, height, a, d[a]); err != nil {
			return err
		}
	}
	return nil
}

func writeAccount(ctx context.Context, tx *sql.Tx, height int64, a common.Address, x *delta) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain_accounts (address, balance, staked, unbonding, nonce, username, default_name, created_height)
		VALUES ($1, 0, 0, 0, 0, NULL, $2, $3) ON CONFLICT (address) DO NOTHING`, a.Hex(), names.Default(a), height); err != nil {
		return fmt.Errorf("create account %s: %w", a.Hex(), err)
	}
	q := `UPDATE chain_accounts SET balance = balance + $2, staked = staked + $3, unbonding = unbonding + $4, nonce = nonce + $5`
	args := []any{a.Hex(), x.balance, x.staked, x.unbonding, x.nonce}
	if x.claimed {
		q += `, username = $6`
		args = append(args, x.username)
	}
	if _, err := tx.ExecContext(ctx, q+` WHERE address = $1`, args...); err != nil {
		return fmt.Errorf("update account %s: %w", a.Hex(), err)
	}
	return nil
}
