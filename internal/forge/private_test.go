package forge_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/private"
)

// An action applied to the private store but not projected (the node
// stopped in between) is projected when the service starts again; the
// store keeps its entries and numbering across restarts.
func TestPrivateStoreCatchesUpAndPersists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	alice, _ := newAddress()
	st, err := private.Open(filepath.Join(dir, "private"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := st.Apply(alice, "repo.create", `{"name":"early","private":true}`, 1_700_000_000_000_000_000)
	if err != nil || e.Seq != 1 || e.Change.Repos[0].ID != chainforge.PrivateIDBase+1 {
		t.Fatalf("apply = %+v %v", e, err)
	}
	if _, err := st.Apply(alice, "repo.create", `{"name":"EARLY","private":true}`, 0); !errors.Is(err, &tx.Error{Code: tx.CodeNameTaken}) {
		t.Fatalf("duplicate private name: %v", err)
	}
	if seq, _ := st.Seq(); seq != 1 {
		t.Fatalf("a refused action moved the sequence to %d", seq)
	}
	st.Close()

	op := crypto.PubkeyToAddress(operatorKey(t, dir).PublicKey)
	n := startNode(t, dir, chain.Config{
		RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0",
		Genesis: app.Genesis{Params: testParams, Operators: []common.Address{op}},
	})
	ctx := context.Background()
	r, perm, err := n.forge.Repo(ctx, alice, alice.Hex(), "early")
	if err != nil || !r.Private || perm != forge.PermOwner || r.Created != "2023-11-14T22:13:20Z" {
		t.Fatalf("caught-up repository = %+v %v %v", r, perm, err)
	}
	if res := n.do(t, alice, "issue.create", m{"repo": r.ID, "title": "after the restart"}); res.Height != 2 || res.Change.Issue.Number != 1 {
		t.Fatalf("next private action = %+v", res)
	}
}
