package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	"github.com/cometbft/cometbft/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/index/calendar"
	"github.com/dforge/dforge/internal/index/readdb"
)

// genesisInfo identifies the chain a projection belongs to.
type genesisInfo struct {
	chainID string
	hash    string // over the chain id, genesis time, initial height and app state
	timeNS  int64
	height  int64 // the height the genesis stands for: initial height - 1
	state   app.Genesis
}

func readGenesis(doc *types.GenesisDoc) (genesisInfo, error) {
	var g genesisInfo
	if err := json.Unmarshal(doc.AppState, &g.state); err != nil {
		return g, fmt.Errorf("parse genesis app state: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", doc.ChainID, doc.GenesisTime.UnixNano(), doc.InitialHeight)
	h.Write(doc.AppState)
	initial := doc.InitialHeight
	if initial < 1 {
		initial = 1
	}
	return genesisInfo{chainID: doc.ChainID, hash: hex.EncodeToString(h.Sum(nil)), timeNS: doc.GenesisTime.UnixNano(), height: initial - 1, state: g.state}, nil
}

// prepare loads the projected height, first projecting the genesis when
// the tables are empty, or rebuilding them when they hold another chain
// (the chain was re-created beside an existing database).
func (ix *Index) prepare(ctx context.Context) error {
	res, err := ix.client.Genesis(ctx)
	if err != nil {
		return fmt.Errorf("read genesis: %w", err)
	}
	g, err := readGenesis(res.Genesis)
	if err != nil {
		return err
	}
	var height int64
	var hash string
	err = ix.db.QueryRowContext(ctx, `SELECT height, genesis_hash FROM chain_index WHERE id = 1`).Scan(&height, &hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ix.projectGenesis(ctx, g)
	case err != nil:
		return fmt.Errorf("read projected height: %w", err)
	case hash == reprojectMark:
		ix.log.Warn("a migration asked for the chain's projection to be rebuilt; replaying every block", "chain", g.chainID)
		if err := ix.reset(ctx); err != nil {
			return err
		}
		return ix.projectGenesis(ctx, g)
	case hash != g.hash:
		ix.log.Warn("the database holds another chain's projection; rebuilding it", "chain", g.chainID)
		if err := ix.reset(ctx); err != nil {
			return err
		}
		return ix.projectGenesis(ctx, g)
	}
	ix.setHeight(height)
	return nil
}

// reprojectMark is the genesis hash a migration writes when the rows it
// adds can only come from replaying the chain (00039: account ids).
const reprojectMark = "reproject"

// reset empties the projection.
func (ix *Index) reset(ctx context.Context) error {
	raw, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin reset: %w", err)
	}
	tx := ix.rd.WriteTx(raw)
	defer tx.Rollback()
	// Once committed (or not): see readdb/cache.go. A reset empties
	// everything, so every answer moves on.
	defer ix.rd.ChangedAll()
	for _, table := range append([]string{"chain_index", "chain_txs", "chain_blocks", "chain_accounts", "chain_nodes", "community_roles"}, append(govTables, append(bountyTables, grantTables...)...)...) {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	// Node-local notifications (messages, tickets) are not the chain's.
	if _, err := tx.ExecContext(ctx, "DELETE FROM notifications WHERE thread NOT LIKE '"+LocalThreadPrefix+"%'"); err != nil {
		return fmt.Errorf("empty notifications: %w", err)
	}
	if err := resetForge(ctx, tx); err != nil {
		return err
	}
	if err := calendar.Reset(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit reset: %w", err)
	}
	ix.setHeight(-1)
	return nil
}

// projectGenesis writes the genesis allocations as the accounts at the
// genesis height, the genesis nodes and the genesis role holders.
func (ix *Index) projectGenesis(ctx context.Context, g genesisInfo) error {
	d := deltas{}
	var total uint64
	for _, a := range g.state.Allocations {
		if a.Amount > math.MaxInt64-total {
			return fmt.Errorf("the genesis supply exceeds what SQL can hold (%d micro-units)", int64(math.MaxInt64))
		}
		total += a.Amount
		if err := d.add(a.Address, func(x *delta) error { return addTo(&x.balance, int64(a.Amount)) }); err != nil {
			return err
		}
	}
	registered, err := genesisNodes(g.state.Nodes)
	if err != nil {
		return fmt.Errorf("project genesis: %w", err)
	}
	// A chain made with the own-keys upgrade names accounts the wide way
	// from its genesis on.
	wide := slices.Contains(g.state.Upgrades, upgrade.OwnKeys)
	err = ix.inTx(ctx, func(tx *readdb.WriteTx) error {
		if err := writeAccounts(ctx, tx, g.height, d, wide); err != nil {
			return err
		}
		if err := writeNodes(ctx, tx, g.height, registered); err != nil {
			return err
		}
		if err := writeRoles(ctx, tx, blockRow{height: g.height, timeNS: g.timeNS}, genesisRoles(g.state.Roles)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO chain_index (id, height, chain_id, genesis_hash, genesis_time_ns, wide_names) VALUES (1, $1, $2, $3, $4, $5)`,
			g.height, g.chainID, g.hash, g.timeNS, wide)
		if err != nil {
			return fmt.Errorf("record genesis: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("project genesis: %w", err)
	}
	ix.setHeight(g.height)
	return nil
}

// maxBatch bounds the blocks one transaction of the projection writes.
// A projection behind the chain (a burst of writes, a catch-up) writes
// the blocks it lags by together: one commit instead of one per block, and
// the actions waiting for them (forge.Service's WaitFor) are answered
// together, sooner.
const maxBatch = 16

// projectFrom projects the blocks from h on, up to tip and at most
// maxBatch of them, in one transaction, and says how many it wrote. When
// a transaction of several fails it projects h alone, so that a failure names the
// block that caused it and the blocks before it land.
func (ix *Index) projectFrom(ctx context.Context, h, tip int64) (int64, error) {
	last := min(tip, h+maxBatch-1)
	batch := make([]blockRows, 0, last-h+1)
	for k := h; k <= last; k++ {
		rows, err := ix.readBlock(ctx, k, k == tip)
		if err != nil && len(batch) > 0 {
			// The blocks before it go now; the next pass meets this
			// one first (the tip's results not saved yet, a block that
			// cannot be read), and reports it as its own.
			break
		}
		if err != nil {
			return 0, err
		}
		batch = append(batch, rows)
	}
	if err := ix.writeBlocks(ctx, h-1, batch); err != nil {
		if len(batch) == 1 || ctx.Err() != nil {
			return 0, fmt.Errorf("project %w", err) // "project block k: …", k the block that failed
		}
		return 1, ix.projectHeight(ctx, h, h == tip)
	}
	return int64(len(batch)), nil
}

// projectHeight reads one block and its results and writes them. At the
// tip the results may not be saved yet: that is errPending, not a failure.
func (ix *Index) projectHeight(ctx context.Context, h int64, tip bool) error {
	rows, err := ix.readBlock(ctx, h, tip)
	if err != nil {
		return err
	}
	if err := ix.writeBlocks(ctx, h-1, []blockRows{rows}); err != nil {
		return fmt.Errorf("project %w", err) // "project block h: …"
	}
	return nil
}

// readBlock reads block h and its results as the rows they add.
func (ix *Index) readBlock(ctx context.Context, h int64, tip bool) (blockRows, error) {
	block, err := ix.client.Block(ctx, &h)
	if err != nil {
		return blockRows{}, fmt.Errorf("read block %d: %w", h, err)
	}
	results, err := ix.client.BlockResults(ctx, &h)
	if err != nil {
		if tip {
			return blockRows{}, errPending
		}
		return blockRows{}, fmt.Errorf("read results of block %d: %w", h, err)
	}
	rows, err := buildBlock(block, results)
	if err != nil {
		return blockRows{}, fmt.Errorf("project block %d: %w", h, err)
	}
	return rows, nil
}

// writeBlocks writes blocks, which follow height prev in order, in one
// transaction, and moves the projected height on to the last of them.
func (ix *Index) writeBlocks(ctx context.Context, prev int64, blocks []blockRows) error {
	changes := 0
	err := ix.inTx(ctx, func(tx *readdb.WriteTx) error {
		for _, rows := range blocks {
			if err := writeBlock(ctx, tx, prev, rows); err != nil {
				return fmt.Errorf("block %d: %w", rows.block.height, err)
			}
			if err := ix.observe(ctx, tx, rows.forge, false); err != nil {
				return fmt.Errorf("block %d: %w", rows.block.height, err)
			}
			prev = rows.block.height
			changes += len(rows.forge)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ix.projected(changes)
	ix.setHeight(prev)
	return nil
}

// inTx runs fn in a write transaction of the projection and then moves on
// the cached answers that read a table fn wrote (all of them when a
// statement of fn was not one WriteTx understands).
func (ix *Index) inTx(ctx context.Context, fn func(*readdb.WriteTx) error) error {
	raw, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	tx := ix.rd.WriteTx(raw)
	defer tx.Rollback()
	defer ix.rd.ChangedBy(tx) // once committed (or not): see readdb/cache.go
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// blockRows is what one block adds to the projection.
type blockRows struct {
	block    blockRow
	txs      []txRow
	accounts deltas
	forge    []forgeChange   // the block's forge actions, in order
	gov      govRows         // its proposals, votes, rewards and epochs
	nodes    []nodes.Node    // its node registrations, in order
	roles    []roles.Change  // its role grants and revocations, in order
	bounties []bounty.Change // its bounty changes, in order
	upgrades []string        // the upgrades that apply from this block
}

type blockRow struct {
	height   int64
	hash     string
	timeNS   int64
	proposer string
	txs      int
	appHash  string
}

type txRow struct {
	height   int64
	index    int
	hash     string
	kind     string
	from     string
	to       string
	amount   int64
	target   string
	username string
	nonce    int64
	code     uint32
	log      string
	timeNS   int64
	actor    string // a forge action's actor
	action   string // a forge action's name
}

// delta is what one block changes in one account.
type delta struct {
	seq                               int // the order the block met the account in (0 first)
	balance, staked, unbonding, nonce int64
	claimed                           bool // the block set the username
	// username is the name claimed; NULL (a deleted organization) or the
	// account's default name (writeAccount decides, under the naming rules
	// in force) mean back to the default.
	username sql.NullString
}

type deltas map[common.Address]*delta

func (d deltas) add(a common.Address, change func(*delta) error) error {
	x := d[a]
	if x == nil {
		x = &delta{seq: len(d)}
		d[a] = x
	}
	return change(x)
}

// addTo adds v to *sum, refusing to wrap around.
func addTo(sum *int64, v int64) error {
	if v > 0 && *sum > math.MaxInt64-v || v < 0 && *sum < math.MinInt64-v {
		return errors.New("an amount overflows the SQL projection's 64-bit integers")
	}
	*sum += v
	return nil
}

// buildBlock turns a block and its results into rows, applying the events
// in the order the application emitted them: matured unbondings first (the
// application pays them before any transaction), then each transaction's.
// A failed transaction is recorded but changes no account.
func buildBlock(b *ctypes.ResultBlock, r *ctypes.ResultBlockResults) (blockRows, error) {
	blk := b.Block
	if len(r.TxResults) != len(blk.Txs) {
		return blockRows{}, fmt.Errorf("%d transactions but %d results", len(blk.Txs), len(r.TxResults))
	}
	rows := blockRows{
		block: blockRow{
			height: blk.Height, hash: strings.ToLower(b.BlockID.Hash.String()), timeNS: blk.Time.UnixNano(),
			proposer: blk.ProposerAddress.String(), txs: len(blk.Txs), appHash: strings.ToLower(hex.EncodeToString(r.AppHash)),
		},
		accounts: deltas{},
	}
	for _, ev := range r.FinalizeBlockEvents {
		if name, ok := upgradeName(ev); ok {
			rows.upgrades = append(rows.upgrades, name)
		}
		if err := rows.accounts.apply(ev); err != nil {
			return blockRows{}, err
		}
		if err := rows.gov.apply(ev); err != nil {
			return blockRows{}, err
		}
		if err := roleRows(&rows.roles, ev); err != nil {
			return blockRows{}, err
		}
	}
	for i, raw := range blk.Txs {
		res := r.TxResults[i]
		row := decodeTx(raw)
		row.height, row.index, row.hash, row.timeNS = blk.Height, i, hex.EncodeToString(raw.Hash()), blk.Time.UnixNano()
		row.code, row.log = res.Code, res.Log
		if res.Code == abci.CodeTypeOK {
			if err := rows.applyTx(&row, res.Events); err != nil {
				return blockRows{}, fmt.Errorf("transaction %d: %w", i, err)
			}
		} else if err := rows.applyFailedTx(&row, res.Events); err != nil {
			return blockRows{}, fmt.Errorf("transaction %d: %w", i, err)
		}
		rows.txs = append(rows.txs, row)
	}
	return rows, nil
}

// upgradeName is the upgrade a block-start event applies, if it is one.
func upgradeName(ev abci.Event) (string, bool) {
	if ev.Type != app.EventUpgrade {
		return "", false
	}
	for _, a := range ev.Attributes {
		if a.Key == "name" {
			return a.Value, true
		}
	}
	return "", false
}

// applyTx applies a successful transaction: its events, and the use of the
// sender's nonce. The events' values are the ones the chain applied, so
// they also fill the row. The sender is met first, then the accounts the
// events name, in order: the order that numbers new accounts (delta.seq).
func (rows *blockRows) applyTx(row *txRow, events []abci.Event) error {
	if common.IsHexAddress(row.from) {
		rows.accounts.add(common.HexToAddress(row.from), func(*delta) error { return nil })
	}
	for _, ev := range events {
		if ev.Type == row.kind {
			overlay(row, ev)
		}
		if ev.Type == forge.EventType {
			c, err := forge.ParseEvent(ev)
			if err != nil {
				return err
			}
			rows.forge = append(rows.forge, forgeChange{change: c, height: row.height, timeNS: row.timeNS, relayer: row.from})
			// The people a forge action names become known accounts, so
			// their default names resolve (an owner in a URL).
			for _, a := range forgePeople(c) {
				rows.accounts.add(a, func(*delta) error { return nil })
			}
			// An organization's name is its account's username, so its
			// repositories resolve by name like a user's.
			for _, o := range c.Orgs {
				rows.accounts.add(o.Address, func(x *delta) error {
					x.claimed, x.username = true, sql.NullString{String: o.Name, Valid: !o.Deleted}
					return nil
				})
			}
		}
		if ev.Type == nodes.EventType {
			n, err := nodes.ParseEvent(ev)
			if err != nil {
				return err
			}
			rows.nodes = append(rows.nodes, n)
		}
		if ev.Type == bounty.EventType {
			b, err := bounty.ParseEvent(ev)
			if err != nil {
				return err
			}
			rows.bounties = append(rows.bounties, b)
		}
		if err := rows.accounts.apply(ev); err != nil {
			return err
		}
		if err := rows.gov.apply(ev); err != nil {
			return err
		}
	}
	if !common.IsHexAddress(row.from) {
		return fmt.Errorf("a successful %s has no valid sender", row.kind)
	}
	return rows.accounts.add(common.HexToAddress(row.from), func(x *delta) error { return addTo(&x.nonce, 1) })
}

// applyFailedTx applies what a failed transaction still did: a refused
// forge action uses its operator's nonce (app.EventNonceUsed).
func (rows *blockRows) applyFailedTx(row *txRow, events []abci.Event) error {
	for _, ev := range events {
		if ev.Type != app.EventNonceUsed {
			continue
		}
		for _, a := range ev.Attributes {
			if a.Key == "from" && common.IsHexAddress(a.Value) {
				return rows.accounts.add(common.HexToAddress(a.Value), func(x *delta) error { return addTo(&x.nonce, 1) })
			}
		}
		return fmt.Errorf("a %s event has no sender", app.EventNonceUsed)
	}
	return nil
}

func overlay(row *txRow, ev abci.Event) {
	for _, a := range ev.Attributes {
		switch a.Key {
		case "from":
			row.from = a.Value
		case "to":
			row.to = a.Value
		case "amount":
			row.amount = parseAmount(a.Value)
		case "target":
			row.target = a.Value
		case "username":
			row.username = a.Value
		}
	}
}

// apply applies one event to the accounts. Events of kinds the index does
// not know change no account.
func (d deltas) apply(ev abci.Event) error {
	attrs := map[string]string{}
	for _, a := range ev.Attributes {
		attrs[a.Key] = a.Value
	}
	switch ev.Type {
	case string(tx.KindTransfer), string(tx.KindTip), string(tx.KindTreasuryDeposit), app.EventMove:
		return d.move(ev.Type, attrs, "from", "to", func(from, to *delta, n int64) error {
			return errors.Join(addTo(&from.balance, -n), addTo(&to.balance, n))
		})
	case string(tx.KindStake):
		return d.own(ev.Type, attrs, "from", func(x *delta, n int64) error {
			return errors.Join(addTo(&x.balance, -n), addTo(&x.staked, n))
		})
	case string(tx.KindUnstake):
		return d.own(ev.Type, attrs, "from", func(x *delta, n int64) error {
			return errors.Join(addTo(&x.staked, -n), addTo(&x.unbonding, n))
		})
	case app.EventMint:
		return d.own(ev.Type, attrs, "to", func(x *delta, n int64) error { return addTo(&x.balance, n) })
	case app.EventUnbondingMatured:
		return d.own(ev.Type, attrs, "address", func(x *delta, n int64) error {
			return errors.Join(addTo(&x.unbonding, -n), addTo(&x.balance, n))
		})
	case string(tx.KindClaimUsername):
		return d.claim(attrs)
	}
	return nil
}

// own applies an event about one account and an amount.
func (d deltas) own(kind string, attrs map[string]string, key string, change func(*delta, int64) error) error {
	a, n, err := addressAndAmount(kind, attrs, key)
	if err != nil {
		return err
	}
	return d.add(a, func(x *delta) error { return change(x, n) })
}

// move applies an event that moves an amount between two accounts.
func (d deltas) move(kind string, attrs map[string]string, fromKey, toKey string, change func(from, to *delta, n int64) error) error {
	from, n, err := addressAndAmount(kind, attrs, fromKey)
	if err != nil {
		return err
	}
	to, err := eventAddress(kind, attrs, toKey)
	if err != nil {
		return err
	}
	// Both entries exist before change runs, so a move to oneself nets out.
	d.add(from, func(*delta) error { return nil })
	d.add(to, func(*delta) error { return nil })
	return change(d[from], d[to], n)
}

func (d deltas) claim(attrs map[string]string) error {
	from, err := eventAddress(string(tx.KindClaimUsername), attrs, "from")
	if err != nil {
		return err
	}
	// Claiming one's default name gives up the claimed one: writeAccount
	// tells, knowing which default the chain's rules give.
	username := sql.NullString{String: attrs["username"], Valid: true}
	return d.add(from, func(x *delta) error {
		x.claimed, x.username = true, username
		return nil
	})
}

func addressAndAmount(kind string, attrs map[string]string, key string) (common.Address, int64, error) {
	a, err := eventAddress(kind, attrs, key)
	if err != nil {
		return a, 0, err
	}
	n, err := strconv.ParseInt(attrs["amount"], 10, 64)
	if err != nil || n <= 0 {
		return a, 0, fmt.Errorf("%s event: amount %q is not a positive 64-bit integer", kind, attrs["amount"])
	}
	return a, n, nil
}

func eventAddress(kind string, attrs map[string]string, key string) (common.Address, error) {
	v := attrs[key]
	if !common.IsHexAddress(v) {
		return common.Address{}, fmt.Errorf("%s event: %s %q is not an address", kind, key, v)
	}
	return common.HexToAddress(v), nil
}

// decodeTx reads what a transaction says, whether or not it applied. Bytes
// that are not a transaction at all (only a faulty proposer includes them)
// give an empty row.
func decodeTx(raw []byte) txRow {
	env, err := tx.Decode(raw)
	if err != nil {
		return txRow{}
	}
	m := env.Message
	row := txRow{
		kind: env.Type, from: messageAddress(m["from"]), to: messageAddress(m["to"]),
		amount: parseAmount(m["amount"]), target: messageString(m["target"]), username: messageString(m["username"]),
		nonce: parseAmount(m["nonce"]),
	}
	switch env.Type {
	case string(tx.KindTreasuryDeposit):
		row.to = app.TreasuryAddress.Hex()
	case string(tx.KindForge):
		row.actor, row.action = messageAddress(m["actor"]), messageString(m["action"])
	}
	return row
}

// messageAddress is an address field in its checksummed form, or "".
func messageAddress(v any) string {
	s, ok := v.(string)
	if !ok || !common.IsHexAddress(s) {
		return ""
	}
	return common.HexToAddress(s).Hex()
}

func messageString(v any) string {
	s, _ := v.(string)
	return s
}

// parseAmount reads a whole number given as a decimal string or a JSON
// number; anything else, or a value SQL cannot hold, reads as 0.
func parseAmount(v any) int64 {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
