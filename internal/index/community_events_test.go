package index_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/calendar"
	"github.com/dforge/dforge/internal/index/indextest"
)

// TestEventsRebuildEqualsLive projects events and answers live (an
// organizer from the genesis), reads the lists back, then rebuilds from the
// blocks into a fresh database and in place: the rows are the same.
func TestEventsRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		op := newWallet()
		org, bob, carol := newWallet().addr, newWallet().addr, newWallet().addr
		genesis := app.Genesis{Params: testParams, Operators: []common.Address{op.addr},
			Roles: []roles.Grant{{Address: org, Role: roles.EventOrganizer}}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)
		act := func(actor common.Address, action string, payload map[string]any) {
			t.Helper()
			forgeAct(t, op, ch, ix, actor, action, payload)
		}
		const now = 1_900_000_000
		act(org, "event.create", map[string]any{"title": "Past", "startsAt": now - 7200, "endsAt": now - 3600, "timezone": "UTC", "place": "Hall"})
		act(org, "event.create", map[string]any{"title": "Next", "description": "a\nb", "startsAt": now + 3600, "endsAt": now + 7200,
			"timezone": "Asia/Tokyo", "onlineUrl": "https://meet.example/n"})
		act(org, "event.create", map[string]any{"title": "Later", "startsAt": now + 86400, "endsAt": now + 90000, "timezone": "UTC", "place": "Park"})
		act(bob, "event.rsvp", map[string]any{"event": 2, "status": "going"})
		act(carol, "event.rsvp", map[string]any{"event": 2, "status": "going"})
		act(carol, "event.rsvp", map[string]any{"event": 2, "status": "maybe"})
		act(org, "event.edit", map[string]any{"event": 2, "title": "Next up"})
		act(bob, "event.rsvp", map[string]any{"event": 3, "status": "maybe"})
		act(org, "event.cancel", map[string]any{"event": 3})

		up, total, err := ix.Calendar().Events(ctx, calendar.Upcoming, now, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 2 || len(up) != 2 || up[0].Title != "Next up" || up[0].Going != 1 || up[0].Maybe != 1 || !up[1].Cancelled {
			t.Fatalf("upcoming = %+v (%d) %v", up, total, err)
		}
		past, total, err := ix.Calendar().Events(ctx, calendar.Past, now, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 1 || past[0].Title != "Past" || past[0].Organizer.Address != org.Hex() {
			t.Fatalf("past = %+v (%d) %v", past, total, err)
		}
		next, err := ix.Calendar().UpcomingEvents(ctx, now, 5)
		if err != nil || len(next) != 1 || next[0].ID != 2 {
			t.Fatalf("UpcomingEvents = %+v %v", next, err)
		}
		mine, err := ix.Calendar().MyRSVPs(ctx, carol, []uint64{1, 2, 3})
		if err != nil || len(mine) != 1 || mine[2] != "maybe" {
			t.Fatalf("carol's answers = %v %v", mine, err)
		}
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}

		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		catchUp(t, live, hist)
		want := indextest.Dump(t, live)
		if len(want["community_events"]) != 3 || len(want["community_event_rsvps"]) != 3 {
			t.Fatalf("live rows: %v %v", want["community_events"], want["community_event_rsvps"])
		}
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		if _, err := index.Rebuild(ctx, quiet, rebuilt, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "fresh rebuild", indextest.Dump(t, rebuilt), want)
		if _, err := index.Rebuild(ctx, quiet, live, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild in place", indextest.Dump(t, live), want)
	})
}
