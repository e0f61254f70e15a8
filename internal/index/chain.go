package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/index/readdb"
)

// writeBlock writes one block's rows and moves the projected height from
// prev to the block's. The height only moves from where this writer saw
// it, so two indexers on one database cannot both apply a block.
func writeBlock(ctx context.Context, tx *readdb.WriteTx, prev int64, rows blockRows) error {
	b := rows.block
	wide, err := applyUpgrades(ctx, tx, rows.upgrades)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain_blocks (height, hash, time_ns, proposer, tx_count, app_hash)
		VALUES ($1, $2, $3, $4, $5, $6)`, b.height, b.hash, b.timeNS, b.proposer, b.txs, b.appHash); err != nil {
		return fmt.Errorf("insert block: %w", err)
	}
	if err := insertTxs(ctx, tx, rows.txs); err != nil {
		return err
	}
	if err := writeAccounts(ctx, tx, b.height, rows.accounts, wide); err != nil {
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

const txColumns = 15

// txBatch rows go in one INSERT: far fewer round trips for a full block,
// and well under both engines' limit on bound parameters.
const txBatch = 200

func insertTxs(ctx context.Context, tx *readdb.WriteTx, txs []txRow) error {
	for chunk := range slices.Chunk(txs, txBatch) {
		var q strings.Builder
		q.WriteString(`INSERT INTO chain_txs (height, tx_index, hash, type, sender, recipient, amount, target, username, nonce, code, log, time_ns, actor, action) VALUES `)
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
			args = append(args, t.height, t.index, t.hash, t.kind, t.from, t.to, t.amount, t.target, t.username, t.nonce, int64(t.code), t.log, t.timeNS, t.actor, t.action)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("insert transactions: %w", err)
		}
	}
	return nil
}

// applyUpgrades records the upgrades that apply from this block and
// reports whether default names are wide (own-keys) for its accounts. At
// own-keys every projected default name takes the wide form, as the
// chain's names do from that block on.
func applyUpgrades(ctx context.Context, tx *readdb.WriteTx, upgrades []string) (bool, error) {
	var wide bool
	if err := tx.QueryRowContext(ctx, `SELECT wide_names FROM chain_index WHERE id = 1`).Scan(&wide); err != nil {
		return false, fmt.Errorf("read naming rules: %w", err)
	}
	if wide || !slices.Contains(upgrades, upgrade.OwnKeys) {
		return wide, nil
	}
	// 'user-' and the first 20 hex digits of the EIP-55 address, in lower
	// case: names.Default, in SQL both engines read.
	if _, err := tx.ExecContext(ctx, `UPDATE chain_accounts SET default_name = 'user-' || lower(substr(address, 3, 20))`); err != nil {
		return false, fmt.Errorf("widen default names: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE chain_index SET wide_names = TRUE WHERE id = 1`); err != nil {
		return false, fmt.Errorf("record the own-keys upgrade: %w", err)
	}
	return true, nil
}

// writeAccounts adds each account's changes, creating the accounts seen
// for the first time at height. Accounts go in the order the block met
// them (delta.seq), which numbers the new ones: every node, and every
// replay, issues the same statements and gives the same ids.
func writeAccounts(ctx context.Context, tx *readdb.WriteTx, height int64, d deltas, wide bool) error {
	addrs := make([]common.Address, 0, len(d))
	for a := range d {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b common.Address) int { return d[a].seq - d[b].seq })
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
		if err := writeAccount(ctx, tx, height, a, d[a], wide); err != nil {
			return err
		}
	}
	return nil
}

// writeAccount creates a (when new, with the next id: one more than the
// highest, so ids run 1, 2, 3... in the chain's order) and adds x to it.
func writeAccount(ctx context.Context, tx *readdb.WriteTx, height int64, a common.Address, x *delta, wide bool) error {
	def := readdb.DefaultName(a, wide)
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain_accounts (id, address, balance, staked, unbonding, nonce, username, default_name, created_height)
		VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM chain_accounts), $1, 0, 0, 0, 0, NULL, $2, $3) ON CONFLICT (address) DO NOTHING`,
		a.Hex(), def, height); err != nil {
		return fmt.Errorf("create account %s: %w", a.Hex(), err)
	}
	q := `UPDATE chain_accounts SET balance = balance + $2, staked = staked + $3, unbonding = unbonding + $4, nonce = nonce + $5`
	args := []any{a.Hex(), x.balance, x.staked, x.unbonding, x.nonce}
	if x.claimed {
		username := x.username
		if strings.EqualFold(username.String, def) {
			username.Valid = false // claiming one's default gives up the claimed name
		}
		q += `, username = $6`
		args = append(args, username)
	}
	if _, err := tx.ExecContext(ctx, q+` WHERE address = $1`, args...); err != nil {
		return fmt.Errorf("update account %s: %w", a.Hex(), err)
	}
	return nil
}
