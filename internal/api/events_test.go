package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/forgetest"
)

type eventOut struct {
	ID              uint64    `json:"id"`
	Title           string    `json:"title"`
	Description     string    `json:"description"`
	DescriptionHTML string    `json:"description_html"`
	StartsAt        time.Time `json:"starts_at"`
	EndsAt          time.Time `json:"ends_at"`
	Timezone        string    `json:"timezone"`
	OnlineURL       string    `json:"online_url"`
	Place           string    `json:"place"`
	Organizer       struct {
		Login string `json:"login"`
	} `json:"organizer"`
	Cancelled bool    `json:"cancelled"`
	Past      bool    `json:"past"`
	Going     int64   `json:"going"`
	Maybe     int64   `json:"maybe"`
	MyRSVP    *string `json:"my_rsvp"`
}

// Community events through the API, on every SQL store: an organizer
// (a genesis role holder) creates events, others are refused with 403 and
// bad fields with 422 naming them, nothing applied; upcoming and past
// lists split by the wall clock; answers count and change; a cancelled
// event stays listed and refuses answers; the iCalendar of one event and
// of all parse back with their fields.
func TestEvents(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			organizer := forgetest.NewAddress()
			opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
				g.Roles = append(g.Roles, roles.Grant{Address: organizer, Role: roles.EventOrganizer})
			}))
			n := forgetest.Start(t, opts...)
			testEvents(t, n, n.UserAt(organizer))
		})
	}
}

func testEvents(t *testing.T, n *forgetest.Node, org *forgetest.User) {
	bob, carol := n.NewUser(), n.NewUser()
	day := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	meetup := map[string]any{
		"title": "Rust, Go; and \\ more", "description": "Talks and **pizza**\nbring a laptop: é, 東京, " + strings.Repeat("long text ", 12),
		"starts_at": day.Format(time.RFC3339), "ends_at": day.Add(2 * time.Hour).Format(time.RFC3339),
		"timezone": "Europe/Berlin", "place": "c-base, Berlin", "online_url": "https://meet.example/rust?x=1,2",
	}
	var future eventOut
	n.JSON("POST", "/api/v1/events", org, meetup, http.StatusCreated, &future)
	if future.ID == 0 || future.Title != meetup["title"] || !future.StartsAt.Equal(day) || future.Timezone != "Europe/Berlin" ||
		future.Organizer.Login != org.Name() || future.Past || future.MyRSVP == nil || *future.MyRSVP != "" ||
		!strings.Contains(future.DescriptionHTML, "<strong>pizza</strong>") {
		t.Fatalf("created %+v", future)
	}

	// Refusals: a stranger, then bad fields, none of which applies.
	var e apiError
	n.JSON("POST", "/api/v1/events", bob, meetup, http.StatusForbidden, &e)
	if !strings.Contains(e.Message, "event organizers") {
		t.Fatalf("non-organizer: %+v", e)
	}
	n.JSON("POST", "/api/v1/events", nil, meetup, http.StatusUnauthorized, nil)
	bad := map[string]map[string]any{
		"ends_at":    withField(meetup, "ends_at", day.Add(-time.Hour).Format(time.RFC3339)),
		"online_url": withField(meetup, "online_url", "ftp://files.example/x"),
		"timezone":   withField(meetup, "timezone", "Mars/Olympus_Mons"),
		"title":      withField(meetup, "title", "two\nlines"),
		"starts_at":  withField(meetup, "starts_at", "tomorrow"),
		"place":      withField(withField(meetup, "online_url", ""), "place", " "),
	}
	for field, body := range bad {
		var got apiError
		n.JSON("POST", "/api/v1/events", org, body, http.StatusUnprocessableEntity, &got)
		if got.Field != field {
			t.Errorf("bad %s: answer names %q (%s)", field, got.Field, got.Message)
		}
	}
	n.JSON("POST", "/api/v1/events", org, withField(meetup, "ends_at", meetup["starts_at"]), http.StatusUnprocessableEntity, nil)

	// A past event: the chain has no clock, the lists use the wall clock.
	ago := time.Now().UTC().Add(-72 * time.Hour).Truncate(time.Second)
	var past eventOut
	n.JSON("POST", "/api/v1/events", org, map[string]any{"title": "Last call", "starts_at": ago.Format(time.RFC3339),
		"ends_at": ago.Add(time.Hour).Format(time.RFC3339), "timezone": "UTC", "online_url": "https://meet.example/old"}, http.StatusCreated, &past)
	var list []eventOut
	r := n.JSON("GET", "/api/v1/events", nil, nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != future.ID || r.Header.Get("X-Total-Count") != "1" || list[0].MyRSVP != nil {
		t.Fatalf("upcoming: %+v (total %s)", list, r.Header.Get("X-Total-Count"))
	}
	n.JSON("GET", "/api/v1/events?when=past", nil, nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != past.ID || !list[0].Past {
		t.Fatalf("past: %+v", list)
	}
	n.JSON("GET", "/api/v1/events?when=later", nil, nil, http.StatusUnprocessableEntity, nil)
	r = n.JSON("GET", "/api/v1/events?when=past&limit=1&page=1", nil, nil, http.StatusOK, &list)
	if r.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("past total %q", r.Header.Get("X-Total-Count"))
	}

	// Who may manage events.
	var perm struct {
		CanCreate bool `json:"can_create"`
		CanRSVP   bool `json:"can_rsvp"`
	}
	n.JSON("GET", "/api/v1/events/permissions", org, nil, http.StatusOK, &perm)
	if !perm.CanCreate || !perm.CanRSVP {
		t.Fatalf("organizer permissions %+v", perm)
	}
	n.JSON("GET", "/api/v1/events/permissions", bob, nil, http.StatusOK, &perm)
	if perm.CanCreate || !perm.CanRSVP {
		t.Fatalf("bob's permissions %+v", perm)
	}

	// Answers: counted, changed, listed.
	path := fmt.Sprintf("/api/v1/events/%d", future.ID)
	n.JSON("PUT", path+"/rsvp", bob, map[string]any{"status": "going"}, http.StatusOK, nil)
	n.JSON("PUT", path+"/rsvp", carol, map[string]any{"status": "maybe"}, http.StatusOK, nil)
	var got eventOut
	n.JSON("PUT", path+"/rsvp", bob, map[string]any{"status": "maybe"}, http.StatusOK, &got)
	if got.Going != 0 || got.Maybe != 2 || got.MyRSVP == nil || *got.MyRSVP != "maybe" {
		t.Fatalf("after bob's change: %+v", got)
	}
	n.JSON("PUT", path+"/rsvp", carol, map[string]any{"status": "going"}, http.StatusOK, nil)
	n.JSON("PUT", path+"/rsvp", carol, map[string]any{"status": "yes"}, http.StatusUnprocessableEntity, &e)
	if e.Field != "status" {
		t.Fatalf("bad status names %q", e.Field)
	}
	n.JSON("PUT", path+"/rsvp", nil, map[string]any{"status": "going"}, http.StatusUnauthorized, nil)
	got = eventOut{}
	n.JSON("GET", path, nil, nil, http.StatusOK, &got)
	if got.Going != 1 || got.Maybe != 1 || got.MyRSVP != nil {
		t.Fatalf("counts: %+v", got)
	}
	var rsvps []struct {
		User struct {
			Login string `json:"login"`
		} `json:"user"`
		Status string `json:"status"`
	}
	n.JSON("GET", path+"/rsvps", nil, nil, http.StatusOK, &rsvps)
	if len(rsvps) != 2 || rsvps[0].User.Login != carol.Name() || rsvps[0].Status != "going" || rsvps[1].Status != "maybe" {
		t.Fatalf("answers: %+v", rsvps)
	}
	n.JSON("GET", "/api/v1/events/999", nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/events/x", nil, nil, http.StatusNotFound, nil)

	// Edits: organizers only, checked as the whole event they make.
	n.JSON("PATCH", path, bob, map[string]any{"title": "Mine"}, http.StatusForbidden, nil)
	n.JSON("PATCH", path, org, map[string]any{"ends_at": day.Add(-time.Minute).Format(time.RFC3339)}, http.StatusUnprocessableEntity, &e)
	if e.Field != "ends_at" {
		t.Fatalf("edit ending before start names %q", e.Field)
	}
	n.JSON("PATCH", path, org, map[string]any{"title": "Rust, Go; and \\ more", "place": "c-base, Berlin\nRaum 2"}, http.StatusUnprocessableEntity, nil)
	n.JSON("PATCH", path, org, map[string]any{"description": "Line one\nLine two; with, marks"}, http.StatusOK, &got)
	if got.Description != "Line one\nLine two; with, marks" || got.Title != meetup["title"] || got.Going != 1 {
		t.Fatalf("edited: %+v", got)
	}

	// One event as iCalendar.
	ics := n.Call("GET", path+".ics", nil, nil)
	if ics.Status != http.StatusOK || ics.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
		t.Fatalf("event.ics: %d %s", ics.Status, ics.Header.Get("Content-Type"))
	}
	cal := parseICS(t, string(ics.Body))
	if len(cal) != 1 {
		t.Fatalf("event.ics holds %d events", len(cal))
	}
	ev := cal[0]
	want := map[string]string{
		"SUMMARY": "Rust, Go; and \\ more", "DESCRIPTION": "Line one\nLine two; with, marks", "LOCATION": "c-base, Berlin",
		"URL": "https://meet.example/rust?x=1,2", "DTSTART": day.Format("20060102T150405Z"),
		"DTEND": day.Add(2 * time.Hour).Format("20060102T150405Z"), "STATUS": "CONFIRMED",
	}
	for k, v := range want {
		if ev[k] != v {
			t.Errorf("event.ics %s = %q, want %q", k, ev[k], v)
		}
	}
	if !strings.HasPrefix(ev["UID"], fmt.Sprintf("event-%d-chain-", future.ID)) || ev["DTSTAMP"] == "" {
		t.Errorf("event.ics UID %q DTSTAMP %q", ev["UID"], ev["DTSTAMP"])
	}
	n.JSON("GET", "/api/v1/events/999.ics", nil, nil, http.StatusNotFound, nil)

	// Cancelling: listed, marked, refusing answers and edits.
	n.JSON("DELETE", path, bob, nil, http.StatusForbidden, nil)
	n.JSON("DELETE", path, org, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", path, org, nil, http.StatusConflict, nil)
	n.JSON("PUT", path+"/rsvp", bob, map[string]any{"status": "going"}, http.StatusConflict, nil)
	n.JSON("PATCH", path, org, map[string]any{"title": "Back on"}, http.StatusConflict, nil)
	list = nil
	n.JSON("GET", "/api/v1/events", bob, nil, http.StatusOK, &list)
	if len(list) != 1 || !list[0].Cancelled || list[0].Going != 1 || list[0].MyRSVP == nil || *list[0].MyRSVP != "maybe" {
		t.Fatalf("cancelled in the list: %+v", list)
	}

	// The calendar of all: both events, the cancelled one marked.
	all := n.Call("GET", "/api/v1/events.ics", nil, nil)
	cal = parseICS(t, string(all.Body))
	if all.Status != http.StatusOK || len(cal) != 2 {
		t.Fatalf("events.ics: %d, %d events", all.Status, len(cal))
	}
	if ev := cal[0]; ev["SUMMARY"] != "Last call" || ev["STATUS"] != "CONFIRMED" || ev["LOCATION"] != "https://meet.example/old" {
		t.Errorf("past event in events.ics: %v", ev)
	}
	if ev := cal[1]; ev["STATUS"] != "CANCELLED" || ev["SUMMARY"] != meetup["title"] {
		t.Errorf("cancelled event in events.ics: %v", ev)
	}
}

func withField(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

// parseICS reads an RFC 5545 calendar back: it holds every line to CRLF
// and 75 octets, unfolds, and returns each VEVENT's properties (name
// without parameters -> unescaped value).
func parseICS(t *testing.T, body string) []map[string]string {
	t.Helper()
	if !strings.HasSuffix(body, "\r\n") || strings.Contains(strings.ReplaceAll(body, "\r\n", ""), "\n") {
		t.Fatalf("not CRLF lines: %q", body)
	}
	physical := strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n")
	var lines []string
	for _, l := range physical {
		if len(l) > 75 {
			t.Fatalf("line of %d octets: %q", len(l), l)
		}
		if strings.HasPrefix(l, " ") && len(lines) > 0 {
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	if lines[0] != "BEGIN:VCALENDAR" || lines[len(lines)-1] != "END:VCALENDAR" {
		t.Fatalf("not a calendar: %q", lines)
	}
	unescape := strings.NewReplacer(`\\`, `\`, `\;`, `;`, `\,`, `,`, `\n`, "\n", `\N`, "\n")
	var out []map[string]string
	var cur map[string]string
	for _, l := range lines {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("line without a value: %q", l)
		}
		name, _, _ = strings.Cut(name, ";")
		switch {
		case l == "BEGIN:VEVENT":
			cur = map[string]string{}
		case l == "END:VEVENT":
			out = append(out, cur)
			cur = nil
		case cur != nil:
			if name == "URL" || name == "UID" {
				cur[name] = value
			} else {
				cur[name] = unescape.Replace(value)
			}
		}
	}
	return out
}
