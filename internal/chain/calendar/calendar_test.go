package calendar_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/calendar"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	maint    = actiontest.Maint
	reader   = actiontest.Reader
	stranger = actiontest.Stranger
)

// eventWorld is a world where maint holds the event organizer role.
func eventWorld(t *testing.T) *actiontest.World {
	return actiontest.WithRole(t, maint, roles.EventOrganizer)
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
	w.Fails(tx.CodeForbidden, stranger, "event.create", meetupPayload())
	e := w.OK(maint, "event.create", meetupPayload()).CommunityEvent
	if e == nil || e.ID != 1 || e.Organizer != maint || e.Title != "Meetup" || e.Place != "Berlin" {
		t.Fatalf("created %+v", e)
	}
	w.Fails(tx.CodeForbidden, stranger, "event.edit", m{"event": e.ID, "title": "Mine"})
	w.Fails(tx.CodeForbidden, stranger, "event.cancel", m{"event": e.ID})
	got := w.OK(maint, "event.edit", m{"event": e.ID, "title": "Meetup 2", "onlineUrl": "https://meet.example/x"}).CommunityEvent
	if got.Title != "Meetup 2" || got.OnlineURL != "https://meet.example/x" || got.Place != "Berlin" || got.StartsAt != 1900000000 {
		t.Fatalf("edited %+v", got)
	}
	// A revoked organizer is refused again.
	if err := roles.Set(w.St, maint, roles.EventOrganizer, false); err != nil {
		t.Fatal(err)
	}
	w.Fails(tx.CodeForbidden, maint, "event.create", meetupPayload())
	// Private stores hold no events.
	p := actiontest.New(t)
	p.Private = true
	if err := roles.Set(p.St, maint, roles.EventOrganizer, true); err != nil {
		t.Fatal(err)
	}
	p.Fails(tx.CodeForbidden, maint, "event.create", meetupPayload())
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
		"description": eventWith(meetupPayload(), "description", strings.Repeat("d", calendar.MaxDescription+1)),
		"timezone":    eventWith(meetupPayload(), "timezone", "Europe/Ber lin"),
		"no timezone": eventWith(meetupPayload(), "timezone", nil),
		"long zone":   eventWith(meetupPayload(), "timezone", strings.Repeat("a", 65)),
		"ftp url":     eventWith(meetupPayload(), "onlineUrl", "ftp://example.com/x"),
		"js url":      eventWith(meetupPayload(), "onlineUrl", "javascript:alert(1)"),
		"long url":    eventWith(meetupPayload(), "onlineUrl", "https://x.example/"+strings.Repeat("a", calendar.MaxURL)),
		"long place":  eventWith(meetupPayload(), "place", strings.Repeat("p", calendar.MaxPlace+1)),
		"nowhere":     eventWith(meetupPayload(), "place", nil),
	}
	for name, p := range bad {
		_, err := w.Do(maint, "event.create", p)
		if !errors.Is(err, &tx.Error{Code: tx.CodeInvalidField}) {
			t.Errorf("%s: got %v, want invalid_field", name, err)
		}
	}
	_, err := w.Do(maint, "event.create", eventWith(meetupPayload(), "endsAt", 1899999999))
	if err == nil || !strings.Contains(err.Error(), "endsAt") {
		t.Fatalf("end before start: %v does not name endsAt", err)
	}
	e := w.OK(maint, "event.create", meetupPayload()).CommunityEvent
	if e.ID != 1 {
		t.Fatalf("refused events used ids: %d", e.ID)
	}
	w.Fails(tx.CodeInvalidField, maint, "event.edit", m{"event": e.ID, "endsAt": 1800000000})
	w.Fails(tx.CodeInvalidField, maint, "event.edit", m{"event": e.ID, "place": "", "onlineUrl": ""})
	w.Fails(tx.CodeNotFound, maint, "event.edit", m{"event": 9, "title": "x"})
	// Text rules hold for the new fields too.
	actiontest.RefusedText(t, forge.CheckText("event.create", `{"title":"a\nb"}`), "title")
	actiontest.RefusedText(t, forge.CheckText("event.create", `{"title":"a","place":"x\u0000"}`), "place")
	if err := forge.CheckText("event.create", `{"title":"a","description":"x\n\ty\r\n"}`); err != nil {
		t.Fatalf("a description keeps tab and newlines: %v", err)
	}
}

// TestEventRSVP: answers count, a changed answer moves the counts, and a
// cancelled event refuses answers and edits.
func TestEventRSVP(t *testing.T) {
	w := eventWorld(t)
	id := w.OK(maint, "event.create", meetupPayload()).CommunityEvent.ID
	c := w.OK(stranger, "event.rsvp", m{"event": id, "status": "going"})
	if c.RSVP == nil || c.RSVP.Status != "going" || c.CommunityEvent.Going != 1 {
		t.Fatalf("rsvp %+v %+v", c.RSVP, c.CommunityEvent)
	}
	w.OK(reader, "event.rsvp", m{"event": id, "status": "maybe"})
	e := w.OK(stranger, "event.rsvp", m{"event": id, "status": "maybe"}).CommunityEvent
	if e.Going != 0 || e.Maybe != 2 {
		t.Fatalf("after change: going %d maybe %d", e.Going, e.Maybe)
	}
	e = w.OK(stranger, "event.rsvp", m{"event": id, "status": "no"}).CommunityEvent
	if e.Going != 0 || e.Maybe != 1 {
		t.Fatalf("after no: going %d maybe %d", e.Going, e.Maybe)
	}
	w.Fails(tx.CodeInvalidField, stranger, "event.rsvp", m{"event": id, "status": "yes"})
	w.Fails(tx.CodeNotFound, stranger, "event.rsvp", m{"event": 42, "status": "going"})
	if e := w.OK(maint, "event.cancel", m{"event": id}).CommunityEvent; !e.Cancelled || e.Maybe != 1 {
		t.Fatalf("cancelled %+v", e)
	}
	w.Fails(tx.CodeConflict, stranger, "event.rsvp", m{"event": id, "status": "going"})
	w.Fails(tx.CodeConflict, maint, "event.edit", m{"event": id, "title": "Back"})
	w.Fails(tx.CodeConflict, maint, "event.cancel", m{"event": id})
}
