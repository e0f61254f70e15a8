package index_test

import (
	"context"
	"testing"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
)

// TestTransferNotifications: a transfer and a tip notify their recipient,
// never the sender, and a transfer to oneself notifies no one.
func TestTransferNotifications(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		genesis := app.Genesis{Params: testParams, Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000}, {Address: bob.addr, Amount: 500_000},
		}}
		ch := openChain(t, t.TempDir(), genesis)
		defer ch.Close()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		defer follow(t, ix)()

		transfer := alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(100_000)})
		tip := bob.submit(t, ch, ix, tx.KindTip, map[string]any{"to": alice.addr.Hex(), "amount": amount(5_000), "target": "user:alice"})
		bob.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(1)})

		all := index.Page{Number: 1, Limit: 10}
		got, total, err := ix.Notifications(ctx, index.NotificationFilter{User: bob.addr}, all)
		if err != nil || total != 1 || len(got) != 1 {
			t.Fatalf("bob's notifications: %+v (total %d) %v", got, total, err)
		}
		if n := got[0]; n.SubjectType != "Transfer" || n.Reason != index.ReasonTransfer || n.Title != transfer.Hash ||
			n.Actor != alice.addr.Hex() || n.Amount != 100_000 || !n.Unread {
			t.Fatalf("bob's transfer notification: %+v", n)
		}
		got, _, err = ix.Notifications(ctx, index.NotificationFilter{User: alice.addr}, all)
		if err != nil || len(got) != 1 || got[0].Reason != index.ReasonTip || got[0].Title != tip.Hash || got[0].Amount != 5_000 {
			t.Fatalf("alice's notifications: %+v %v", got, err)
		}
		// Marking read is node-local and leaves the other user's alone.
		ids, err := ix.MarkNotifications(ctx, index.NotificationFilter{User: alice.addr, Statuses: []string{"unread"}}, "read")
		if err != nil || len(ids) != 1 {
			t.Fatalf("mark alice's read: %v %v", ids, err)
		}
		if n, _ := ix.CountNotifications(ctx, index.NotificationFilter{User: bob.addr, Statuses: []string{"unread"}}); n != 1 {
			t.Fatalf("bob's unread after alice marked hers: %d", n)
		}
		if _, err := ix.MarkNotification(ctx, alice.addr, got[0].ID+1000, "read"); err != index.ErrNoNotification {
			t.Fatalf("marking a missing thread: %v", err)
		}
	})
}
