package index

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
)

// Block is a projected block. Hashes are lower-case hex; Proposer is the
// validator address as CometBFT prints it (upper-case hex); AppHash is the
// app state root after the block's transactions.
type Block struct {
	Height   int64  `json:"height"`
	Hash     string `json:"hash"`
	Time     string `json:"time"`
	Proposer string `json:"proposer"`
	Txs      int    `json:"txs"`
	AppHash  string `json:"appHash"`
}

// BlockDetail is a block with its transactions in block order.
type BlockDetail struct {
	Block
	Transactions []Tx `json:"transactions"`
}

// Tx is a projected transaction, applied (Code 0) or failed. Fields a type
// does not have are "" or 0.
type Tx struct {
	Hash     string `json:"hash"`
	Height   int64  `json:"height"`
	Index    int    `json:"index"`
	Type     string `json:"type"`
	From     string `json:"from"`
	To       string `json:"to"`
	Amount   uint64 `json:"amount"`
	Target   string `json:"target"`
	Username string `json:"username"`
	Nonce    uint64 `json:"nonce"`
	Code     uint32 `json:"code"`
	Log      string `json:"log"`
	Time     string `json:"time"`
	// Actor is the user a forge action acts for, who may not have signed
	// it (a node acts under the user's delegation); Action names it.
	Actor  string `json:"actor,omitempty"`
	Action string `json:"action,omitempty"`
}

// Account is an account as projected; an address the chain never touched
// reads as zeros with its default name.
type Account struct {
	Address   string `json:"address"`
	Username  string `json:"username"`
	Balance   uint64 `json:"balance"`
	Staked    uint64 `json:"staked"`
	Unbonding uint64 `json:"unbonding"`
	Nonce     uint64 `json:"nonce"`
}

// Status sums up the projected chain.
type Status struct {
	Height     int64    `json:"height"`
	Time       string   `json:"time"`
	AppHash    string   `json:"appHash"`
	Supply     uint64   `json:"supply"`
	Staked     uint64   `json:"staked"`
	Unbonding  uint64   `json:"unbonding"`
	Treasury   Treasury `json:"treasury"`
	Accounts   int64    `json:"accounts"`
	Validators int      `json:"validators"`
}

// Treasury is the treasury account's balance.
type Treasury struct {
	Address string `json:"address"`
	Balance uint64 `json:"balance"`
}

// Validator is a member of the current validator set. PubKey is base64.
type Validator struct {
	Address          string `json:"address"`
	PubKey           string `json:"pubKey"`
	Power            int64  `json:"power"`
	ProposerPriority int64  `json:"proposerPriority"`
}

// TxFilter narrows a transaction list; zero fields match everything.
type TxFilter struct {
	Type    string
	Address *common.Address // sender, recipient or a forge action's actor
	Target  string          // applied tips of this object only
}

// Status reads the totals at the projected height; validators come from
// the node.
func (ix *Index) Status(ctx context.Context) (Status, error) {
	vals, err := ix.Validators(ctx)
	if err != nil {
		return Status{}, err
	}
	var s Status
	err = ix.snapshot(ctx, func(tx *sql.Tx) error { return readStatus(ctx, tx, &s) })
	if err != nil {
		return Status{}, fmt.Errorf("read chain status: %w", err)
	}
	s.Validators = len(vals)
	return s, nil
}

func readStatus(ctx context.Context, tx *sql.Tx, s *Status) error {
	s.Treasury.Address = app.TreasuryAddress.Hex()
	var genesisNS int64
	err := tx.QueryRowContext(ctx, `SELECT height, genesis_time_ns FROM chain_index WHERE id = 1`).Scan(&s.Height, &genesisNS)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil // nothing projected yet, not even the genesis
	case err != nil:
		return fmt.Errorf("read projected height: %w", err)
	}
	s.Time = formatTime(genesisNS)
	var blockNS int64
	err = tx.QueryRowContext(ctx, `SELECT time_ns, app_hash FROM chain_blocks WHERE height = $1`, s.Height).Scan(&blockNS, &s.AppHash)
	switch {
	case err == nil:
		s.Time = formatTime(blockNS)
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("read last block: %w", err)
	}
	var supply, staked, unbonding, treasury int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*),
		CAST(COALESCE(SUM(balance + staked + unbonding), 0) AS BIGINT),
		CAST(COALESCE(SUM(staked), 0) AS BIGINT), CAST(COALESCE(SUM(unbonding), 0) AS BIGINT),
		CAST(COALESCE(SUM(CASE WHEN address = $1 THEN balance ELSE 0 END), 0) AS BIGINT)
		FROM chain_accounts`, app.TreasuryAddress.Hex()).Scan(&s.Accounts, &supply, &staked, &unbonding, &treasury); err != nil {
		return fmt.Errorf("sum accounts: %w", err)
	}
	s.Supply, s.Staked, s.Unbonding, s.Treasury.Balance = uint64(supply), uint64(staked), uint64(unbonding), uint64(treasury)
	return nil
}

const blockColumns = `height, hash, time_ns, proposer, tx_count, app_hash`

// scanBlock reads a row of blockColumns, then any extra columns into extra.
func scanBlock(row scanner, extra ...any) (Block, error) {
	var b Block
	var ns int64
	err := row.Scan(append([]any{&b.Height, &b.Hash, &ns, &b.Proposer, &b.Txs, &b.AppHash}, extra...)...)
	b.Time = formatTime(ns)
	return b, err
}

// Blocks lists blocks, newest first, and counts them all.
func (ix *Index) Blocks(ctx context.Context, p Page) ([]Block, int64, error) {
	out := []Block{}
	total, err := ix.page(ctx, blockColumns, "chain_blocks", "", "height DESC", nil, p, func(rows *sql.Rows, total *int64) error {
		b, err := scanBlock(rows, total)
		out = append(out, b)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list blocks: %w", err)
	}
	return out, total, nil
}

// Block reads one block and its transactions.
func (ix *Index) Block(ctx context.Context, height int64) (BlockDetail, error) {
	b, err := scanBlock(ix.queryRow(ctx, `SELECT `+blockColumns+` FROM chain_blocks WHERE height = $1`, height))
	if errors.Is(err, sql.ErrNoRows) {
		return BlockDetail{}, notFound("there is no block at height %d (indexed up to %d)", height, max(ix.Height(), 0))
	}
	if err != nil {
		return BlockDetail{}, fmt.Errorf("read block %d: %w", height, err)
	}
	txs, err := ix.queryTxs(ctx, `SELECT `+txColumnList+` FROM chain_txs WHERE height = $1 ORDER BY tx_index`, height)
	if err != nil {
		return BlockDetail{}, err
	}
	return BlockDetail{Block: b, Transactions: txs}, nil
}

const txColumnList = `hash, height, tx_index, type, sender, recipient, amount, target, username, nonce, code, log, time_ns, actor, action`

func (ix *Index) queryTxs(ctx context.Context, q string, args ...any) ([]Tx, error) {
	rows, err := ix.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query transactions: %w", err)
	}
	defer rows.Close()
	out := []Tx{}
	for rows.Next() {
		t, err := scanTx(rows)
		if err != nil {
			return nil, fmt.Errorf("scan transaction: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read transactions: %w", err)
	}
	return out, nil
}

// scanTx reads a row of txColumnList, then any extra columns into extra.
func scanTx(row scanner, extra ...any) (Tx, error) {
	var t Tx
	var amount, nonce, code, ns int64
	err := row.Scan(append([]any{&t.Hash, &t.Height, &t.Index, &t.Type, &t.From, &t.To, &amount, &t.Target, &t.Username, &nonce, &code, &t.Log, &ns, &t.Actor, &t.Action}, extra...)...)
	t.Amount, t.Nonce, t.Code, t.Time = uint64(amount), uint64(nonce), uint32(code), formatTime(ns)
	return t, err
}

// Txs lists transactions matching f, newest first, and counts them all.
func (ix *Index) Txs(ctx context.Context, f TxFilter, p Page) ([]Tx, int64, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.Type != "" {
		where = append(where, "type = "+arg(f.Type))
	}
	if f.Address != nil {
		a := arg(f.Address.Hex())
		where = append(where, "(sender = "+a+" OR recipient = "+a+" OR actor = "+a+")")
	}
	if f.Target != "" {
		where = append(where, "type = 'Tip' AND code = 0 AND target = "+arg(f.Target))
	}
	out := []Tx{}
	total, err := ix.page(ctx, txColumnList, "chain_txs", strings.Join(where, " AND "), "height DESC, tx_index DESC", args, p, func(rows *sql.Rows, total *int64) error {
		t, err := scanTx(rows, total)
		out = append(out, t)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list transactions: %w", err)
	}
	return out, total, nil
}

// Tx reads a transaction by its hash (lower-case hex). Should the same
// bytes appear twice (the second copy can only fail), the applied one wins.
func (ix *Index) Tx(ctx context.Context, hash string) (Tx, error) {
	t, err := scanTx(ix.queryRow(ctx, `SELECT `+txColumnList+` FROM chain_txs WHERE hash = $1
		ORDER BY CASE WHEN code = 0 THEN 0 ELSE 1 END, height, tx_index LIMIT 1`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return Tx{}, notFound("there is no transaction %s in the indexed blocks", hash)
	}
	if err != nil {
		return Tx{}, fmt.Errorf("read transaction %s: %w", hash, err)
	}
	return t, nil
}

// Account reads an account. One the chain has not met has the default
// name the chain's rules will give it (DefaultName).
func (ix *Index) Account(ctx context.Context, a common.Address) (Account, error) {
	def, err := ix.DefaultName(ctx, a)
	if err != nil {
		return Account{}, err
	}
	acct := Account{Address: a.Hex(), Username: def}
	var balance, staked, unbonding, nonce int64
	var username sql.NullString
	err = ix.queryRow(ctx, `SELECT balance, staked, unbonding, nonce, COALESCE(username, default_name) FROM chain_accounts WHERE address = $1`, a.Hex()).
		Scan(&balance, &staked, &unbonding, &nonce, &username)
	if errors.Is(err, sql.ErrNoRows) {
		return acct, nil
	}
	if err != nil {
		return acct, fmt.Errorf("read account %s: %w", a.Hex(), err)
	}
	acct.Balance, acct.Staked, acct.Unbonding, acct.Nonce = uint64(balance), uint64(staked), uint64(unbonding), uint64(nonce)
	if username.Valid {
		acct.Username = username.String
	}
	return acct, nil
}

// Validators is the node's current validator set, from CometBFT.
func (ix *Index) Validators(ctx context.Context) ([]Validator, error) {
	out := []Validator{}
	for page := 1; ; page++ {
		pg, per := page, 100
		res, err := ix.client.Validators(ctx, nil, &pg, &per)
		if err != nil {
			return nil, fmt.Errorf("read validators: %w", err)
		}
		for _, v := range res.Validators {
			out = append(out, Validator{
				Address: v.Address.String(), PubKey: base64.StdEncoding.EncodeToString(v.PubKey.Bytes()),
				Power: v.VotingPower, ProposerPriority: v.ProposerPriority,
			})
		}
		if len(out) >= res.Total || len(res.Validators) == 0 {
			return out, nil
		}
	}
}
