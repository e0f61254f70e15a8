package forge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
)

// eventWorld is a world where maint holds the event organizer role.
func eventWorld(t *testing.T) *world {
	w := newWorld(t)
	if err := roles.Set(w.st, maint, roles.EventOrganizer, true); err != nil {
		t.Fatal(err)
	}
	return w
}

func meetupPayload() m {
	return m{"title": "Meetup", "description": "Talks\n\tand **pizza**", "startsAt": 1900000000, "endsAt": 1900003600,
		"timezone": "Europe/Berlin", "place": "Berlin"}
}

func eventWith(p m, k string, v any) m {
	out := m{}
	for key, val := range p {
		out[key] = val
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

// TestEventOrganizersOnly: only holders of the organizer role create,
// edit and cancel events; a refused action changes nothing.
func TestEventOrganizersOnly(t *testing.T) {
	w := eventWorld(t)
	w.fails(tx.CodeForbidden, stranger, "event.create", meetupPayload())
	e := w.ok(maint, "event.create", meetupPayload()).CommunityEvent
	if e == nil || e.ID != 1 || e.Organizer != maint || e.Title != "Meetup" || e.Place != "Berlin" {
		t.Fatalf("created %+v", e)
	}
	w.fails(tx.CodeForbidden, stranger, "event.edit", m{"event": e.ID, "title": "Mine"})
	w.fails(tx.CodeForbidden, stranger, "event.cancel", m{"event": e.ID})
	got := w.ok(maint, "event.edit", m{"event": e.ID, "title": "Meetup 2", "onlineUrl": "https://meet.example/x"}).CommunityEvent
	if got.Title != "Meetup 2" || got.OnlineURL != "https://meet.example/x" || got.Place != "Berlin" || got.StartsAt != 1900000000 {
		t.Fatalf("edited %+v", got)
	}
	// A revoked organizer is refused again.
	if err := roles.Set(w.st, maint, roles.EventOrganizer, false); err != nil {
		t.Fatal(err)
	}
	w.fails(tx.CodeForbidden, maint, "event.create", meetupPayload())
	// Private stores hold no events.
	p := newWorld(t)
	p.private = true
	if err := roles.Set(p.st, maint, roles.EventOrganizer, true); err != nil {
		t.Fatal(err)
	}
	p.fails(tx.CodeForbidden, maint, "event.create", meetupPayload())
}

// TestEventRefusesBadFields: each bad field is invalid_field naming it,
// and nothing is written (the next event still gets id 1).
func TestEventRefusesBadFields(t *testing.T) {
	w := eventWorld(t)
	bad := map[string]m{
		"endsAt":      eventWith(meetupPayload(), "endsAt", 1899999999),
		"endsAt=":     eventWith(meetupPayload(), "endsAt", 1900000000),
		"startsAt":    eventWith(meetupPayload(), "startsAt", 0),
		"endsAt<0":    eventWith(meetupPayload(), "endsAt", -5),
		"title":       eventWith(meetupPayload(), "title", " "),
		"long title":  eventWith(meetupPayload(), "title", strings.Repeat("t", forge.MaxTitle+1)),
		"description": eventWith(meetupPayload(), "description", strings.Repeat("d", forge.MaxEventDescription+1)),
		"timezone":    eventWith(meetupPayload(), "timezone", "Europe/Ber lin"),
		"no timezone": eventWith(meetupPayload(), "timezone", nil),
		"long zone":   eventWith(meetupPayload(), "timezone", strings.Repeat("a", 65)),
		"ftp url":     eventWith(meetupPayload(), "onlineUrl", "ftp://example.com/x"),
		"js url":      eventWith(meetupPayload(), "onlineUrl", "javascript:alert(1)"),
		"long url":    eventWith(meetupPayload(), "onlineUrl", "https://x.example/"+strings.Repeat("a", forge.MaxEventURL)),
		"long place":  eventWith(meetupPayload(), "place", strings.Repeat("p", forge.MaxEventPlace+1)),
		"nowhere":     eventWith(meetupPayload(), "place", nil),
	}
	for name, p := range bad {
		_, err := w.do(maint, "event.create", p)
		if !errors.Is(err, &tx.Error{Code: tx.CodeInvalidField}) {
			t.Errorf("%s: got %v, want invalid_field", name, err)
		}
	}
	_, err := w.do(maint, "event.create", eventWith(meetupPayload(), "endsAt", 1899999999))
	if err == nil || !strings.Contains(err.Error(), "endsAt") {
		t.Fatalf("end before start: %v does not name endsAt", err)
	}
	e := w.ok(maint, "event.create", meetupPayload()).CommunityEvent
	if e.ID != 1 {
		t.Fatalf("refused events used ids: %d", e.ID)
	}
	w.fails(tx.CodeInvalidField, maint, "event.edit", m{"event": e.ID, "endsAt": 1800000000})
	w.fails(tx.CodeInvalidField, maint, "event.edit", m{"event": e.ID, "place": "", "onlineUrl": ""})
	w.fails(tx.CodeNotFound, maint, "event.edit", m{"event": 9, "title": "x"})
	// Text rules hold for the new fields too.
	refusedText(t, forge.CheckText("event.create", `{"title":"a\nb"}`), "title")
	refusedText(t, forge.CheckText("event.create", `{"title":"a","place":"x\u0000"}`), "place")
	if err := forge.CheckText("event.create", `{"title":"a","description":"x\n\ty\r\n"}`); err != nil {
		t.Fatalf("a description keeps tab and newlines: %v", err)
	}
}

// TestEventRSVP: answers count, a changed answer moves the counts, and a
// cancelled event refuses answers and edits.
func TestEventRSVP(t *testing.T) {
	w := eventWorld(t)
	id := w.ok(maint, "event.create", meetupPayload()).CommunityEvent.ID
	c := w.ok(stranger, "event.rsvp", m{"event": id, "status": "going"})
	if c.RSVP == nil || c.RSVP.Status != "going" || c.CommunityEvent.Going != 1 {
		t.Fatalf("rsvp %+v %+v", c.RSVP, c.CommunityEvent)
	}
	w.ok(reader, "event.rsvp", m{"event": id, "status": "maybe"})
	e := w.ok(stranger, "event.rsvp", m{"event": id, "status": "maybe"}).CommunityEvent
	if e.Going != 0 || e.Maybe != 2 {
		t.Fatalf("after change: going %d maybe %d", e.Going, e.Maybe)
	}
	e = w.ok(stranger, "event.rsvp", m{"event": id, "status": "no"}).CommunityEvent
	if e.Going != 0 || e.Maybe != 1 {
		t.Fatalf("after no: going %d maybe %d", e.Going, e.Maybe)
	}
	w.fails(tx.CodeInvalidField, stranger, "event.rsvp", m{"event": id, "status": "yes"})
	w.fails(tx.CodeNotFound, stranger, "event.rsvp", m{"event": 42, "status": "going"})
	if e := w.ok(maint, "event.cancel", m{"event": id}).CommunityEvent; !e.Cancelled || e.Maybe != 1 {
		t.Fatalf("cancelled %+v", e)
	}
	w.fails(tx.CodeConflict, stranger, "event.rsvp", m{"event": id, "status": "going"})
	w.fails(tx.CodeConflict, maint, "event.edit", m{"event": id, "title": "Back"})
	w.fails(tx.CodeConflict, maint, "event.cancel", m{"event": id})
}
