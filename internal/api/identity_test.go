package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// Identity is the whole address (issue 22): two wallets that share 64 bits
// of address (a 48-bit vanity prefix is cheap to grind; these go further)
// are two accounts everywhere: names, ids, profiles, tokens and forks. The
// chain is a new one (own-keys from its genesis); the twins have no keys
// here, so they delegate to the node's operator in the genesis, and the
// node relays for them.
func TestTwinAddressesAreTwoAccounts(t *testing.T) {
	t.Parallel()
	twinA := common.HexToAddress("0x70997970c51812dc00000000000000000000aaaa")
	twinB := common.HexToAddress("0x70997970c51812dcffffffffffffffffffff0001")
	n := forgetest.Start(t, forgetest.WithGenesis(func(g *app.Genesis) {
		g.Upgrades = upgrade.All()
		for _, a := range []common.Address{twinA, twinB} {
			g.Delegations = append(g.Delegations, delegation.Delegation{
				Account: a, Delegate: g.Operators[0], Scopes: delegation.Scopes, Expiry: delegation.MaxBlocks})
		}
	}))
	a, b := n.UserAt(twinA, "all"), n.UserAt(twinB, "all")

	// 1. Distinct default names of 25 characters, and, before the chain
	// knows them, distinct local ids.
	if a.Name() == b.Name() || len(a.Name()) != 25 || len(b.Name()) != 25 {
		t.Fatalf("names %q and %q", a.Name(), b.Name())
	}
	idA, idB := selfID(t, n, a), selfID(t, n, b)
	if idA == idB || idA < index.LocalUserIDBase || idB < index.LocalUserIDBase {
		t.Fatalf("local ids %d and %d", idA, idB)
	}
	checkProfiles(t, n, a, b)

	// 2. Each one's token manages its own tokens, never the twin's.
	n.JSON("POST", "/api/v1/users/"+a.Name()+"/tokens", a, map[string]any{"name": "mine", "scopes": []string{"read:user"}}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/users/"+b.Name()+"/tokens", a, map[string]any{"name": "theirs", "scopes": []string{"read:user"}}, http.StatusForbidden, nil)
	n.JSON("GET", "/api/v1/users/"+a.Name()+"/tokens", b, nil, http.StatusForbidden, nil)
	var mine []map[string]any
	n.JSON("GET", "/api/v1/users/"+b.Name()+"/tokens", b, nil, http.StatusOK, &mine)
	for _, tok := range mine {
		if tok["name"] == "mine" {
			t.Fatalf("b sees a's token: %v", mine)
		}
	}

	// 3. a makes a repository, b forks it: the fork is b's, under b's name.
	n.JSON("POST", "/api/v1/user/repos", a, map[string]any{"name": "lamp", "auto_init": true}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/repos/"+a.Name()+"/lamp/forks", b, map[string]any{}, http.StatusAccepted, nil)
	var fork struct {
		FullName string `json:"full_name"`
		Owner    struct {
			ID     int64  `json:"id"`
			Login  string `json:"login"`
			Wallet string `json:"wallet_address"`
		} `json:"owner"`
	}
	n.JSON("GET", "/api/v1/repos/"+b.Name()+"/lamp", nil, nil, http.StatusOK, &fork)
	if fork.FullName != b.Name()+"/lamp" || fork.Owner.Login != b.Name() || fork.Owner.Wallet != twinB.Hex() {
		t.Fatalf("the fork = %+v", fork)
	}

	// 4. On chain now, each has the chain's id (below the local ones),
	// the same everywhere the API names them, and found by it.
	chainA, chainB := selfID(t, n, a), selfID(t, n, b)
	if chainA == chainB || chainA >= index.LocalUserIDBase || chainB >= index.LocalUserIDBase || chainA < 1 || chainB < 1 {
		t.Fatalf("chain ids %d and %d", chainA, chainB)
	}
	if fork.Owner.ID != chainB {
		t.Fatalf("the fork's owner has id %d, b is %d", fork.Owner.ID, chainB)
	}
	for u, id := range map[*forgetest.User]int64{a: chainA, b: chainB} {
		var found struct {
			Data []struct {
				ID     int64  `json:"id"`
				Login  string `json:"login"`
				Wallet string `json:"wallet_address"`
			} `json:"data"`
		}
		n.JSON("GET", fmt.Sprintf("/api/v1/users/search?uid=%d", id), nil, nil, http.StatusOK, &found)
		if len(found.Data) != 1 || found.Data[0].Wallet != u.Address.Hex() || found.Data[0].Login != u.Name() {
			t.Fatalf("uid %d finds %+v, want %s", id, found.Data, u.Name())
		}
	}
	checkProfiles(t, n, a, b)
}

// selfID is u's id as GET /user gives it.
func selfID(t *testing.T, n *forgetest.Node, u *forgetest.User) int64 {
	t.Helper()
	var me struct {
		ID     int64  `json:"id"`
		Login  string `json:"login"`
		Wallet string `json:"wallet_address"`
	}
	n.JSON("GET", "/api/v1/user", u, nil, http.StatusOK, &me)
	if me.Login != u.Name() || me.Wallet != u.Address.Hex() {
		t.Fatalf("%s signs in as %+v", u.Address.Hex(), me)
	}
	return me.ID
}

// checkProfiles: each name's profile is its own wallet's, with its id.
func checkProfiles(t *testing.T, n *forgetest.Node, users ...*forgetest.User) {
	t.Helper()
	for _, u := range users {
		var p struct {
			ID     int64  `json:"id"`
			Wallet string `json:"wallet_address"`
		}
		n.JSON("GET", "/api/v1/users/"+u.Name(), nil, nil, http.StatusOK, &p)
		if p.Wallet != u.Address.Hex() || p.ID != selfID(t, n, u) {
			t.Fatalf("the profile of %s is %+v", u.Name(), p)
		}
	}
}
