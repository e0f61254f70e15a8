package auth

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/store"
)

// localNames stands in for the chain's names when a node runs without its
// index: every address has its (wide) default name, which resolves back
// through the users who signed in here. Claimed names need the index.
type localNames struct{ store *store.Store }

// defaultName is a default name: the wide one (names.Default, 80 bits of
// the address, which nobody can grind a second wallet to share) or, on a
// chain before own-keys, the legacy one (48 bits). Either resolves only
// when exactly one user here has that prefix: two wallets sharing it are
// two accounts, and neither takes the other's name.
var defaultName = regexp.MustCompile(`^(?i)user-([0-9a-f]{20}|[0-9a-f]{12})$`)

func (n localNames) Username(_ context.Context, addr common.Address) (string, error) {
	return names.Default(addr), nil
}

func (n localNames) AddressOf(ctx context.Context, username string) (common.Address, bool, error) {
	m := defaultName.FindStringSubmatch(username)
	if m == nil {
		return common.Address{}, false, nil
	}
	found, err := n.store.UserAddressesWithPrefix(ctx, "0x"+strings.ToLower(m[1]), 2)
	if err != nil {
		return common.Address{}, false, fmt.Errorf("resolve default name: %w", err)
	}
	if len(found) != 1 { // none, or two addresses sharing the prefix: neither is named
		return common.Address{}, false, nil
	}
	return common.HexToAddress(found[0]), true, nil
}

// chainThenLocal resolves names through the chain, and the default name of
// someone who signed in here but has done nothing on chain yet (so the
// chain's projection has no account for them) through the local users.
type chainThenLocal struct {
	chain Names
	local localNames
}

func (n chainThenLocal) Username(ctx context.Context, addr common.Address) (string, error) {
	return n.chain.Username(ctx, addr)
}

func (n chainThenLocal) AddressOf(ctx context.Context, username string) (common.Address, bool, error) {
	addr, ok, err := n.chain.AddressOf(ctx, username)
	if err != nil || ok {
		return addr, ok, err
	}
	addr, ok, err = n.local.AddressOf(ctx, username)
	if err != nil || !ok {
		return addr, ok, err
	}
	// A local user who has claimed another name no longer answers to the default.
	current, err := n.chain.Username(ctx, addr)
	if err != nil {
		return common.Address{}, false, fmt.Errorf("resolve username of %s: %w", addr.Hex(), err)
	}
	return addr, strings.EqualFold(current, username), nil
}
