package community

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/index/calendar"
)

// Events as iCalendar (RFC 5545): one event, or the calendar of recent and
// upcoming ones a calendar app subscribes to. Times are written in UTC
// (the organizer's zone is kept in X-DFORGE-TIMEZONE), so no VTIMEZONE is
// needed; the UID holds the chain's id and the event's, so every node
// gives the same event the same UID.

// calendarWindow is how far back the calendar of all events reaches.
const calendarWindow = 90 * 24 * time.Hour

// calendarMost bounds the events the calendar holds.
const calendarMost = 500

func (a *Handler) eventsCalendar(w http.ResponseWriter, r *http.Request) error {
	list, err := a.Index.Calendar().FeedEvents(r.Context(), time.Now().Add(-calendarWindow).Unix(), calendarMost)
	if err != nil {
		return err
	}
	return a.writeCalendar(w, r, "dforge-events.ics", list)
}

// eventCalendar is event raw as a calendar of one event.
func (a *Handler) eventCalendar(w http.ResponseWriter, r *http.Request, raw string) error {
	e, err := a.eventOf(r.Context(), raw)
	if err != nil {
		return err
	}
	return a.writeCalendar(w, r, "event-"+strconv.FormatUint(e.ID, 10)+".ics", []calendar.Event{e})
}

func (a *Handler) writeCalendar(w http.ResponseWriter, r *http.Request, filename string, list []calendar.Event) error {
	c := &icsWriter{}
	c.line("BEGIN:VCALENDAR")
	c.line("VERSION:2.0")
	c.line("PRODID:-//dForge//Community events//EN")
	c.line("CALSCALE:GREGORIAN")
	c.line("METHOD:PUBLISH")
	c.prop("X-WR-CALNAME", "dForge events")
	chainID := strconv.FormatUint(a.Chain.Params().ChainID, 10)
	for _, e := range list {
		a.writeVEvent(c, r, chainID, e)
	}
	c.line("END:VCALENDAR")
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="`+filename+`"`)
	_, err := w.Write([]byte(c.b.String()))
	return err
}

func (a *Handler) writeVEvent(c *icsWriter, r *http.Request, chainID string, e calendar.Event) {
	c.line("BEGIN:VEVENT")
	c.line("UID:event-" + strconv.FormatUint(e.ID, 10) + "-chain-" + chainID + "@dforge")
	c.line("DTSTAMP:" + icsTime(time.Unix(0, e.UpdatedNS)))
	c.line("CREATED:" + icsTime(time.Unix(0, e.CreatedNS)))
	c.line("LAST-MODIFIED:" + icsTime(time.Unix(0, e.UpdatedNS)))
	c.line("DTSTART:" + icsTime(time.Unix(e.StartsAt, 0)))
	c.line("DTEND:" + icsTime(time.Unix(e.EndsAt, 0)))
	c.prop("SUMMARY", e.Title)
	if e.Description != "" {
		c.prop("DESCRIPTION", e.Description)
	}
	switch {
	case e.Place != "":
		c.prop("LOCATION", e.Place)
	case e.OnlineURL != "":
		c.prop("LOCATION", e.OnlineURL)
	}
	if e.OnlineURL != "" {
		// A URI value: not text-escaped (validated http(s), no spaces).
		c.line("URL:" + e.OnlineURL)
	}
	c.prop("X-DFORGE-TIMEZONE", e.Timezone)
	c.prop("X-DFORGE-ORGANIZER", api.ToForgeUser(r, e.Organizer).Login)
	if e.Cancelled {
		c.line("STATUS:CANCELLED")
	} else {
		c.line("STATUS:CONFIRMED")
	}
	c.line("END:VEVENT")
}

func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// icsWriter writes content lines: CRLF-terminated and folded at 75
// octets, never inside a UTF-8 sequence.
type icsWriter struct{ b strings.Builder }

// prop writes a property with a TEXT value, escaped.
func (c *icsWriter) prop(name, text string) { c.line(name + ":" + icsEscape(text)) }

func (c *icsWriter) line(s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		c.b.WriteString(s[:cut])
		c.b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	c.b.WriteString(s)
	c.b.WriteString("\r\n")
}

// icsEscape escapes TEXT: backslash, semicolon, comma and line breaks.
var icsEscape = strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace
