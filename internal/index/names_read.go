package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Username is a's username as projected: the claimed one, else its default.
func (ix *Index) Username(ctx context.Context, a common.Address) (string, error) {
	acct, err := ix.Account(ctx, a)
	return acct.Username, err
}

// DefaultName is a's default name under the projected chain's rules: the
// wide one (names.Default) once the chain has crossed own-keys (before
// anything is projected, when its genesis has it), the legacy one before. An account the chain
// has not met yet is called what it will be called when the chain meets it.
func (ix *Index) DefaultName(ctx context.Context, a common.Address) (string, error) {
	wide, err := remember(ctx, ix, readKey("wide-names", ""), func(ctx context.Context) (bool, error) {
		var wide bool
		err := ix.queryRow(ctx, `SELECT wide_names FROM chain_index WHERE id = 1`).Scan(&wide)
		if errors.Is(err, sql.ErrNoRows) {
			return ix.genesisWide(ctx) // the genesis is not projected yet
		}
		return wide, err
	})
	if err != nil {
		return "", fmt.Errorf("read naming rules: %w", err)
	}
	return readdb.DefaultName(a, wide), nil
}

// genesisWide reports whether the chain's genesis starts with own-keys.
func (ix *Index) genesisWide(ctx context.Context) (bool, error) {
	if ix.client == nil {
		return true, nil // an index over SQL alone (tests): a new chain's rules
	}
	res, err := ix.client.Genesis(ctx)
	if err != nil {
		return false, fmt.Errorf("read genesis: %w", err)
	}
	g, err := readGenesis(res.Genesis)
	if err != nil {
		return false, err
	}
	return slices.Contains(g.state.Upgrades, upgrade.OwnKeys), nil
}

// AddressOf finds the account whose username is name, in any case. A
// default name resolves to its account while that account has claimed no
// other; defaults encode only part of an address, so only accounts the
// chain has touched resolve. Wide defaults (80 bits, since own-keys) do
// not collide; should two accounts share a legacy one (48 bits, before
// own-keys) the older one keeps it.
func (ix *Index) AddressOf(ctx context.Context, name string) (common.Address, bool, error) {
	if name == "" || len(name) > names.MaxLen {
		// No username is (the chain claims only valid ones, default names
		// are shorter): an address in a URL is not one, so skip the reads.
		return common.Address{}, false, nil
	}
	lower := strings.ToLower(name)
	type found struct {
		addr common.Address
		ok   bool
	}
	f, err := remember(ctx, ix, readKey("address-of", "", lower), func(ctx context.Context) (found, error) {
		addr, ok, err := ix.addressOf(ctx, lower)
		return found{addr, ok}, err
	})
	if err != nil {
		return common.Address{}, false, fmt.Errorf("find owner of %q: %w", name, err)
	}
	return f.addr, f.ok, nil
}

// addressOf reads AddressOf's answer for a lower-case name. A name shaped
// like a default belongs to the address it names before anyone who
// claimed it (only possible before own-keys refused such claims).
func (ix *Index) addressOf(ctx context.Context, lower string) (common.Address, bool, error) {
	claimed := `SELECT address FROM chain_accounts WHERE lower(username) = $1`
	byDefault := `SELECT address FROM chain_accounts WHERE default_name = $1 AND username IS NULL ORDER BY id LIMIT 1`
	order := []string{claimed, byDefault}
	if names.IsDefaultShape(lower) {
		order = []string{byDefault, claimed}
	}
	for _, q := range order {
		var addr string
		err := ix.queryRow(ctx, q, lower).Scan(&addr)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return common.Address{}, false, err
		}
		return common.HexToAddress(addr), true, nil
	}
	return common.Address{}, false, nil
}

// Availability says whether a username can be claimed, and if not, why.
type Availability struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Owner     string `json:"owner,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// UsernameAvailability checks name against the chain's rules and the
// projected owners. The chain decides for good when the claim is made.
func (ix *Index) UsernameAvailability(ctx context.Context, name string) (Availability, error) {
	av := Availability{Name: name}
	owner, taken, err := ix.AddressOf(ctx, name)
	if err != nil {
		return av, err
	}
	if taken {
		av.Owner = owner.Hex()
		av.Reason = "this username is taken"
		return av, nil
	}
	if err := names.Validate(name); err != nil {
		av.Reason = ruleMessage(err)
		return av, nil
	}
	av.Available = true
	return av, nil
}

// ruleMessage is a names rule violation without its sentinel's prefix.
func ruleMessage(err error) string {
	msg := err.Error()
	for _, sentinel := range []error{names.ErrInvalid, names.ErrReserved} {
		if errors.Is(err, sentinel) {
			msg = strings.TrimPrefix(msg, sentinel.Error()+": ")
		}
	}
	return msg
}
