package community

import (
	"context"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chaincalendar "github.com/dforge/dforge/internal/chain/calendar"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index/calendar"
	"github.com/dforge/dforge/internal/usererr"
)

// Community events (dForge's own): the chain-wide calendar. Event
// organizers (a role governance grants) create, edit and cancel events;
// anyone signed in answers going, maybe or no. All of it is on chain
// (event.* actions) and read from the index. Whether an event is past is
// decided here, from the wall clock, since the chain has none.

func (a *Handler) RegisterEvents(mux *http.ServeMux) {
	if a.Forge == nil || a.Index == nil || a.Chain == nil || a.Auth == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/events", a.Serve(a.listEvents))
	// The calendar of recent and upcoming events, RFC 5545.
	mux.HandleFunc("GET /api/v1/events.ics", a.Serve(a.eventsCalendar))
	mux.HandleFunc("GET /api/v1/events/permissions", a.Serve(a.eventPermissions))
	// {id} may end in .ics for the event as an RFC 5545 calendar.
	mux.HandleFunc("GET /api/v1/events/{id}", a.Serve(a.getEvent))
	mux.HandleFunc("GET /api/v1/events/{id}/rsvps", a.Serve(a.listEventRSVPs))
	mux.HandleFunc("POST /api/v1/events", user(auth.ScopeWrite, a.createEvent))
	mux.HandleFunc("PATCH /api/v1/events/{id}", user(auth.ScopeWrite, a.editEvent))
	mux.HandleFunc("DELETE /api/v1/events/{id}", user(auth.ScopeWrite, a.cancelEvent))
	mux.HandleFunc("PUT /api/v1/events/{id}/rsvp", user(auth.ScopeWrite, a.rsvpEvent))
}

// eventJSON is a community event.
type eventJSON struct {
	ID              uint64            `json:"id"`
	Title           string            `json:"title"`
	Description     string            `json:"description"`
	DescriptionHTML string            `json:"description_html"`
	StartsAt        time.Time         `json:"starts_at"`
	EndsAt          time.Time         `json:"ends_at"`
	Timezone        string            `json:"timezone"`
	OnlineURL       string            `json:"online_url"`
	Place           string            `json:"place"`
	Organizer       api.ForgeUserJSON `json:"organizer"`
	Cancelled       bool              `json:"cancelled"`
	// Past is true once the event has ended.
	Past  bool  `json:"past"`
	Going int64 `json:"going"`
	Maybe int64 `json:"maybe"`
	// MyRSVP is the signed-in caller's answer (going, maybe, no; "" for
	// none); absent for anonymous callers.
	MyRSVP    *string   `json:"my_rsvp,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// eventRSVPJSON is one answer to an event.
type eventRSVPJSON struct {
	User      api.ForgeUserJSON `json:"user"`
	Status    string            `json:"status"`
	UpdatedAt time.Time         `json:"updated_at"`
}

// eventPermissionsJSON says what the caller may do with events.
type eventPermissionsJSON struct {
	// CanCreate is true for holders of the event organizer role, who may
	// also edit and cancel events.
	CanCreate bool `json:"can_create"`
	// CanRSVP is true for anyone signed in.
	CanRSVP bool `json:"can_rsvp"`
}

// eventBody creates an event (every field but description and one of
// online_url and place required) or edits one (absent fields stay).
// Times are RFC 3339.
type eventBody struct {
	Title       *string `json:"title"`
	Description *string `json:"description"`
	StartsAt    *string `json:"starts_at"`
	EndsAt      *string `json:"ends_at"`
	Timezone    *string `json:"timezone"`
	OnlineURL   *string `json:"online_url"`
	Place       *string `json:"place"`
}

// rsvpBody answers an event: going, maybe or no.
type rsvpBody struct {
	Status string `json:"status"`
}

// maxEventBody bounds a request: the description and a little more.
const maxEventBody = chaincalendar.MaxDescription*2 + 16<<10

// listEvents lists upcoming events (?when=upcoming, the default; not yet
// ended, soonest first) or past ones (?when=past, latest first).
func (a *Handler) listEvents(w http.ResponseWriter, r *http.Request) error {
	when := r.URL.Query().Get("when")
	switch when {
	case "":
		when = calendar.Upcoming
	case calendar.Upcoming, calendar.Past:
	default:
		return usererr.BadFieldf("when", "when must be upcoming or past")
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Calendar().Events(r.Context(), when, time.Now().Unix(), p)
	if err != nil {
		return err
	}
	out, err := a.eventsJSON(r, list)
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) getEvent(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("id")
	if id, ok := strings.CutSuffix(raw, ".ics"); ok {
		return a.eventCalendar(w, r, id)
	}
	e, err := a.eventOf(r.Context(), raw)
	if err != nil {
		return err
	}
	out, err := a.eventsJSON(r, []calendar.Event{e})
	if err != nil {
		return err
	}
	return api.Reply(w, out[0])
}

// listEventRSVPs lists the answers to an event, latest first.
func (a *Handler) listEventRSVPs(w http.ResponseWriter, r *http.Request) error {
	e, err := a.eventOf(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Calendar().RSVPs(r.Context(), e.ID, p)
	out := make([]eventRSVPJSON, len(list))
	for i, v := range list {
		out[i] = eventRSVPJSON{User: api.ToForgeUser(r, v.User), Status: v.Status, UpdatedAt: time.Unix(0, v.TimeNS).UTC()}
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) eventPermissions(w http.ResponseWriter, r *http.Request) error {
	var out eventPermissionsJSON
	if id, err := api.RequireUser(r); err == nil {
		out.CanRSVP = true
		ok, err := a.Chain.HasRole(id.User.Address, roles.EventOrganizer)
		if err != nil {
			return err
		}
		out.CanCreate = ok
	}
	return api.Reply(w, out)
}

func (a *Handler) createEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := a.requireOrganizer(r)
	if err != nil {
		return err
	}
	var in eventBody
	if err := api.Decode(w, r, maxEventBody, &in); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"title", in.Title}, {"starts_at", in.StartsAt}, {"ends_at", in.EndsAt}, {"timezone", in.Timezone}} {
		if f.v == nil {
			return usererr.BadFieldf(f.name, "%s is required", f.name)
		}
	}
	var act chaincalendar.Create
	if err := in.applyTo(&act); err != nil {
		return err
	}
	res, err := a.Forge.Do(r.Context(), id, act)
	if err != nil {
		return err
	}
	return a.replyEvent(w, r, http.StatusCreated, res.Change.CommunityEvent)
}

func (a *Handler) editEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := a.requireOrganizer(r)
	if err != nil {
		return err
	}
	e, err := a.eventOf(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if e.Cancelled {
		return usererr.Clashf(usererr.CodeConflict, "This event is cancelled; it cannot be edited.")
	}
	var in eventBody
	if err := api.Decode(w, r, maxEventBody, &in); err != nil {
		return err
	}
	// The edit is checked as the event it makes, so an end moved before
	// the start is refused here with the field named.
	whole := chaincalendar.Create{Title: e.Title, Description: e.Description, StartsAt: e.StartsAt, EndsAt: e.EndsAt,
		Timezone: e.Timezone, OnlineURL: e.OnlineURL, Place: e.Place}
	if err := in.applyTo(&whole); err != nil {
		return err
	}
	act := chaincalendar.Edit{Event: e.ID, Description: in.Description, Timezone: trimmed(in.Timezone),
		OnlineURL: trimmed(in.OnlineURL), Place: trimmed(in.Place)}
	if in.StartsAt != nil {
		act.StartsAt = &whole.StartsAt
	}
	if in.EndsAt != nil {
		act.EndsAt = &whole.EndsAt
	}
	if in.Title != nil {
		act.Title = &whole.Title
	}
	res, err := a.Forge.Do(r.Context(), id, act)
	if err != nil {
		return err
	}
	return a.replyEvent(w, r, http.StatusOK, res.Change.CommunityEvent)
}

// cancelEvent cancels an event: it stays listed, marked cancelled, and
// takes no more answers.
func (a *Handler) cancelEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := a.requireOrganizer(r)
	if err != nil {
		return err
	}
	e, err := a.eventOf(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if e.Cancelled {
		return usererr.Clashf(usererr.CodeConflict, "This event is already cancelled.")
	}
	if _, err := a.Forge.Do(r.Context(), id, chaincalendar.Cancel{Event: e.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// rsvpEvent sets the caller's answer; a new answer replaces the old.
func (a *Handler) rsvpEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	e, err := a.eventOf(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	var in rsvpBody
	if err := api.Decode(w, r, 1<<10, &in); err != nil {
		return err
	}
	switch in.Status {
	case chaincalendar.Going, chaincalendar.Maybe, chaincalendar.No:
	default:
		return usererr.BadFieldf("status", "status must be going, maybe or no")
	}
	if e.Cancelled {
		return usererr.Clashf(usererr.CodeConflict, "This event is cancelled; it takes no answers.")
	}
	res, err := a.Forge.Do(r.Context(), id.User.Address, chaincalendar.RSVP{Event: e.ID, Status: in.Status})
	if err != nil {
		return err
	}
	return a.replyEvent(w, r, http.StatusOK, res.Change.CommunityEvent)
}

// requireOrganizer is the signed-in caller's address when they hold the
// event organizer role; 403 otherwise.
func (a *Handler) requireOrganizer(r *http.Request) (addr common.Address, err error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return addr, err
	}
	ok, err := a.Chain.HasRole(id.User.Address, roles.EventOrganizer)
	if err != nil {
		return addr, err
	}
	if !ok {
		return addr, usererr.Deniedf("Only event organizers may create, edit or cancel events; governance grants the event organizer role.")
	}
	return id.User.Address, nil
}

// eventOf finds the event the path names; 404 when there is none.
func (a *Handler) eventOf(ctx context.Context, raw string) (calendar.Event, error) {
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || id == 0 {
		return calendar.Event{}, usererr.Missingf("There is no such event.")
	}
	e, ok, err := a.Index.Calendar().Event(ctx, id)
	if err != nil {
		return e, err
	}
	if !ok {
		return e, usererr.Missingf("There is no such event.")
	}
	return e, nil
}

// replyEvent answers with the event as the index now has it.
func (a *Handler) replyEvent(w http.ResponseWriter, r *http.Request, status int, changed *chainforge.Event) error {
	if changed == nil {
		return fmt.Errorf("the chain's change carries no event")
	}
	e, err := a.eventOf(r.Context(), strconv.FormatUint(changed.ID, 10))
	if err != nil {
		return err
	}
	out, err := a.eventsJSON(r, []calendar.Event{e})
	if err != nil {
		return err
	}
	api.WriteJSON(w, status, out[0])
	return nil
}

// eventsJSON converts events, with the signed-in caller's answers.
func (a *Handler) eventsJSON(r *http.Request, list []calendar.Event) ([]eventJSON, error) {
	var mine map[uint64]string
	if id, err := api.RequireUser(r); err == nil {
		ids := make([]uint64, len(list))
		for i, e := range list {
			ids[i] = e.ID
		}
		var err error
		if mine, err = a.Index.Calendar().MyRSVPs(r.Context(), id.User.Address, ids); err != nil {
			return nil, err
		}
	}
	now := time.Now().Unix()
	out := make([]eventJSON, len(list))
	for i, e := range list {
		out[i] = eventJSON{ID: e.ID, Title: e.Title, Description: e.Description,
			DescriptionHTML: a.RenderBody(r.Context(), nil, e.Description),
			StartsAt:        time.Unix(e.StartsAt, 0).UTC(), EndsAt: time.Unix(e.EndsAt, 0).UTC(), Timezone: e.Timezone,
			OnlineURL: e.OnlineURL, Place: e.Place, Organizer: api.ToForgeUser(r, e.Organizer), Cancelled: e.Cancelled,
			Past: e.EndsAt <= now, Going: e.Going, Maybe: e.Maybe,
			CreatedAt: time.Unix(0, e.CreatedNS).UTC(), UpdatedAt: time.Unix(0, e.UpdatedNS).UTC()}
		if mine != nil {
			s := mine[e.ID]
			out[i].MyRSVP = &s
		}
	}
	return out, nil
}

// applyTo checks the given fields and sets them on ev: what the chain
// would refuse is refused here first, with the field named, and the time
// zone is checked against the zone database, which the chain cannot read.
func (in eventBody) applyTo(ev *chaincalendar.Create) error {
	if in.Title != nil {
		ev.Title = strings.TrimSpace(*in.Title)
	}
	if in.Description != nil {
		ev.Description = *in.Description
	}
	if in.Timezone != nil {
		ev.Timezone = strings.TrimSpace(*in.Timezone)
	}
	if in.OnlineURL != nil {
		ev.OnlineURL = strings.TrimSpace(*in.OnlineURL)
	}
	if in.Place != nil {
		ev.Place = strings.TrimSpace(*in.Place)
	}
	for _, t := range []struct {
		field string
		raw   *string
		dst   *int64
	}{{"starts_at", in.StartsAt, &ev.StartsAt}, {"ends_at", in.EndsAt, &ev.EndsAt}} {
		if t.raw == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339, strings.TrimSpace(*t.raw))
		if err != nil || at.Unix() <= 0 || at.Year() > 9999 {
			return usererr.BadFieldf(t.field, "%s must be an RFC 3339 time after 1970, such as 2030-05-01T18:00:00Z", t.field)
		}
		*t.dst = at.Unix()
	}
	return checkEventFields(ev)
}

// checkEventFields holds a whole event to the chain's rules.
func checkEventFields(ev *chaincalendar.Create) error {
	if ev.Title == "" || utf8.RuneCountInString(ev.Title) > chainforge.MaxTitle {
		return usererr.BadFieldf("title", "title must be 1 to %d characters", chainforge.MaxTitle)
	}
	for _, f := range [][2]string{{"title", ev.Title}, {"place", ev.Place}, {"timezone", ev.Timezone}, {"online_url", ev.OnlineURL}} {
		if tx.CheckLine(f[0], f[1]) != nil {
			return usererr.BadFieldf(f[0], "%s must be one line of text, without control characters", f[0])
		}
	}
	if len(ev.Description) > chaincalendar.MaxDescription {
		return usererr.BadFieldf("description", "description is %d bytes; the most is %d", len(ev.Description), chaincalendar.MaxDescription)
	}
	if ev.EndsAt <= ev.StartsAt {
		return usererr.BadFieldf("ends_at", "ends_at must be after starts_at: an event ends after it starts")
	}
	if err := checkTimezone(ev.Timezone); err != nil {
		return err
	}
	if ev.OnlineURL != "" {
		u, err := url.Parse(ev.OnlineURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(ev.OnlineURL) > chaincalendar.MaxURL ||
			strings.ContainsAny(ev.OnlineURL, " \t") {
			return usererr.BadFieldf("online_url", "online_url must be an http:// or https:// address of at most %d bytes", chaincalendar.MaxURL)
		}
	}
	if utf8.RuneCountInString(ev.Place) > chaincalendar.MaxPlace {
		return usererr.BadFieldf("place", "place must be at most %d characters", chaincalendar.MaxPlace)
	}
	if ev.OnlineURL == "" && ev.Place == "" {
		return usererr.BadFieldf("place", "give a place, an online_url or both: an event happens somewhere")
	}
	return nil
}

// checkTimezone accepts an IANA zone the zone database knows ("UTC"
// included, "Local", which means this server's, not).
func checkTimezone(tz string) error {
	if chaincalendar.ValidTimezone(tz) != nil || tz == "Local" {
		return usererr.BadFieldf("timezone", "timezone must be an IANA time zone name, such as Europe/Berlin")
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return usererr.BadFieldf("timezone", "timezone %q is not a known IANA time zone", tz)
	}
	return nil
}

// trimmed is v without surrounding space; nil stays nil.
func trimmed(v *string) *string {
	if v == nil {
		return nil
	}
	s := strings.TrimSpace(*v)
	return &s
}
