package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// User ids. Gitea's clients want a number per user, and find a user by it
// (GET /users/search?uid=). An account's id is never read from its address
// (two addresses may share any prefix); it is decided by the chain's order:
//
//   - An account the chain knows has its sequence number in the projection
//     (chain_accounts.id): 1, 2, 3... in the order the projection first met
//     it, genesis allocations first. Every node projects the same blocks in
//     the same order, so every node and every reindex gives the same ids.
//   - An account that signed in here but that the chain has not met yet has
//     LocalUserIDBase plus its row in this node's users table: unique and
//     stable on this node, and never a chain sequence (no chain reaches
//     2^52 accounts). Once the chain meets the account, its id is the
//     chain's, as on every other node.
//   - An address neither knows has no id (0).
//
// All ids stay below 2^53, so JavaScript reads them exactly. They are a
// namespace of their own: forge.PrivateIDBase (2^48) numbers a private
// store's repositories and records, never users.

// LocalUserIDBase starts the ids of accounts only this node knows.
const LocalUserIDBase int64 = 1 << 52

// UserID is addr's user id (see above); 0 when neither the chain nor this
// node knows the address.
func (ix *Index) UserID(ctx context.Context, addr common.Address) (int64, error) {
	// Lists ask this for every person on every row: the key is the
	// address's bytes, and its EIP-55 form (a Keccak hash) is made only
	// when the answer is read.
	seq, err := remember(ctx, ix, readKey("user-id", "", string(addr[:])), func(ctx context.Context) (int64, error) {
		var id sql.NullInt64
		err := ix.queryRow(ctx, `SELECT id FROM chain_accounts WHERE address = $1`, addr.Hex()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return id.Int64, err
	})
	if err != nil || seq != 0 {
		return seq, wrapUserID(addr, err)
	}
	// Not on chain: the local row, read afresh (a sign-in does not move
	// the projection, which the read cache follows).
	var local int64
	err = ix.queryRow(ctx, `SELECT id FROM users WHERE address = $1`, strings.ToLower(addr.Hex())).Scan(&local)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, wrapUserID(addr, err)
	}
	return LocalUserIDBase + local, nil
}

func wrapUserID(addr common.Address, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("read user id of %s: %w", addr.Hex(), err)
}

// AddressOfUserID is the account whose user id is id, if any: UserID's
// inverse. A local id of an account the chain has met since is nobody's
// any more (its id is the chain's).
func (ix *Index) AddressOfUserID(ctx context.Context, id int64) (common.Address, bool, error) {
	if id <= 0 {
		return common.Address{}, false, nil
	}
	if id < LocalUserIDBase {
		return ix.addressWhere(ctx, `SELECT address FROM chain_accounts WHERE id = $1`, id)
	}
	addr, ok, err := ix.addressWhere(ctx, `SELECT address FROM users WHERE id = $1`, id-LocalUserIDBase)
	if err != nil || !ok {
		return addr, ok, err
	}
	onChain, err := ix.UserID(ctx, addr)
	if err != nil || onChain != id {
		return common.Address{}, false, err
	}
	return addr, true, nil
}

// addressWhere reads the one address q selects with arg, if any.
func (ix *Index) addressWhere(ctx context.Context, q string, arg int64) (common.Address, bool, error) {
	var addr string
	err := ix.queryRow(ctx, q, arg).Scan(&addr)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !common.IsHexAddress(addr) {
		return common.Address{}, false, nil
	}
	if err != nil {
		return common.Address{}, false, fmt.Errorf("find user %d: %w", arg, err)
	}
	return common.HexToAddress(addr), true, nil
}
