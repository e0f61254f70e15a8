package app_test

import (
	"context"
	"testing"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The audit replays a chain and finds the forge action a dishonest node
// forced into a block, and nothing on an honest chain.
func TestAuditFindsAForgedAction(t *testing.T) {
	for _, dishonest := range []bool{false, true} {
		c := newOwnKeysChain(t)
		if dishonest {
			app.AcceptForgedActions(c.a)
		}
		var recorded []app.RecordedBlock
		run := func(txs ...[]byte) {
			res := c.block(txs...)
			b := app.RecordedBlock{Height: c.height, Txs: txs}
			for _, r := range res {
				b.Codes = append(b.Codes, r.Code)
			}
			recorded = append(recorded, b)
		}
		run(c.delegate(c.alice, c.node0.addr, "issue,repository", 1000))
		run(c.forge(c.node0, c.alice.addr, "repo.create", `{"name":"lib"}`))
		run(c.forge(c.node1, c.alice.addr, "issue.comment", `{"repo":1,"number":1,"body":"forged"}`),
			c.forge(c.node1, c.alice.addr, "issue.create", `{"repo":1,"title":"forged by node1"}`))
		next := 0
		var failures []app.AuditFailure
		sum, err := app.Audit(context.Background(), c.genesis, nil, func() (app.RecordedBlock, bool, error) {
			if next == len(recorded) {
				return app.RecordedBlock{}, false, nil
			}
			next++
			return recorded[next-1], true, nil
		}, func(f app.AuditFailure) { failures = append(failures, f) })
		if err != nil {
			t.Fatal(err)
		}
		if sum.Blocks != 3 || sum.ForgeActions != 3 {
			t.Fatalf("dishonest=%v: summary %+v", dishonest, sum)
		}
		switch {
		case !dishonest && len(failures) != 0:
			t.Fatalf("an honest chain failed the audit: %+v", failures)
		case dishonest && (len(failures) != 1 || failures[0].Action != "issue.create" || failures[0].Signer != c.node1.addr.Hex() ||
			failures[0].Actor != c.alice.addr.Hex() || failures[0].Replayed != tx.CodeNotDelegated || failures[0].Height != 3):
			t.Fatalf("the forged action: %+v", failures)
		}
	}
}
