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

// TestLocalNotifications: a node-local event (a direct message) notifies
// its user only, and a second one makes the read thread unread again.
func TestLocalNotifications(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		ch := openChain(t, t.TempDir(), app.Genesis{Params: testParams})
		defer ch.Close()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		defer follow(t, ix)()

		n := index.LocalNotification{User: bob.addr, Thread: "message:7", SubjectType: "Message", Reason: "message", Title: "hello", Actor: alice.addr, Number: 7}
		if err := ix.NotifyLocal(ctx, index.LocalNotification{User: bob.addr, Thread: "local:message:7"}); err == nil {
			t.Fatal("a thread given with its prefix was accepted")
		}
		if err := ix.NotifyLocal(ctx, n); err != nil {
			t.Fatalf("notify bob: %v", err)
		}
		unread := index.NotificationFilter{User: bob.addr, Statuses: []string{"unread"}}
		if _, err := ix.MarkNotifications(ctx, unread, "read"); err != nil {
			t.Fatalf("mark read: %v", err)
		}
		n.Title = "hello again"
		if err := ix.NotifyLocal(ctx, n); err != nil {
			t.Fatalf("notify bob again: %v", err)
		}
		got, total, err := ix.Notifications(ctx, unread, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 1 || got[0].Title != "hello again" || got[0].SubjectType != "Message" || got[0].Number != 7 || got[0].Actor != alice.addr.Hex() {
			t.Fatalf("bob's unread: %+v (total %d) %v", got, total, err)
		}
		if c, _ := ix.CountNotifications(ctx, index.NotificationFilter{User: alice.addr}); c != 0 {
			t.Fatalf("alice has %d notifications of bob's message", c)
		}
	})
}

// TestNotificationCountersAfterReset: the counters behind the totals and
// the badge follow marks and new threads, and a reset for another chain
// leaves exactly the node-local threads counted.
func TestNotificationCountersAfterReset(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		ch := openChain(t, t.TempDir(), app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000_000}}})
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		stop := follow(t, ix)
		alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(1)})
		alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(2)})
		local := index.LocalNotification{User: bob.addr, Thread: "message:1", SubjectType: "Message", Reason: "message", Title: "hi", Actor: alice.addr, Number: 1}
		if err := ix.NotifyLocal(ctx, local); err != nil {
			t.Fatal(err)
		}
		list, _, err := ix.Notifications(ctx, index.NotificationFilter{User: bob.addr}, index.Page{Number: 1, Limit: 10})
		if err != nil || len(list) != 3 {
			t.Fatalf("bob's threads: %+v %v", list, err)
		}
		if _, err := ix.MarkNotification(ctx, bob.addr, list[1].ID, "pinned"); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.MarkNotifications(ctx, index.NotificationFilter{User: bob.addr, SubjectTypes: []string{"Message"}}, "read"); err != nil {
			t.Fatal(err)
		}
		counts := func(want map[string]int64) {
			t.Helper()
			for status, n := range want {
				f := index.NotificationFilter{User: bob.addr}
				if status != "all" {
					f.Statuses = []string{status}
				}
				// The counters' sum, and a count of the threads themselves
				// (a time bound makes CountNotifications count rows).
				got, err := ix.CountNotifications(ctx, f)
				f.SinceNS = 1
				rows, err2 := ix.CountNotifications(ctx, f)
				if err != nil || err2 != nil || got != n || rows != n {
					t.Fatalf("bob's %s threads: counters %d, rows %d, want %d (%v %v)", status, got, rows, n, err, err2)
				}
			}
		}
		counts(map[string]int64{"all": 3, "unread": 1, "pinned": 1, "read": 1})
		stop()
		ch.Close()

		// Another chain on the same database: its projection is rebuilt,
		// and only the node-local thread is left, read.
		other := openChain(t, t.TempDir(), app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: bob.addr, Amount: 5}}})
		defer other.Close()
		rix := index.New(quiet, st, other.Client())
		if err := rix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		ix = rix
		counts(map[string]int64{"all": 1, "unread": 0, "pinned": 0, "read": 1})
	})
}
