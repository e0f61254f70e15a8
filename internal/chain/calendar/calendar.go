// Package calendar is the chain module of community events (event.create,
// event.edit, event.cancel, event.rsvp): meetups and calls on the
// chain-wide calendar. Holders of the roles.EventOrganizer role manage the
// calendar together: any of them may create, edit or cancel any event, so
// one leaving the role strands nothing. Anyone may answer going, maybe or
// no; a later answer replaces the earlier one, and the event keeps its
// going and maybe counts so every node shows the same figures. The module
// has no clock: whether an event is past is the reader's business (the API
// decides it from the wall clock). Nor does it load time zone data (I/O):
// it holds the zone name to the shape of an IANA name, and the API checks
// that the zone exists.
//
// Its actions are forge actions: init registers them into the forge
// module's one actions table (forge.Register); the records their events
// carry (forge.Event, forge.EventRSVP) stay in the forge package. README.md
// is the spec.
package calendar

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
)

func init() {
	forge.Register("event.create", Create{}, create)
	forge.Register("event.edit", Edit{}, edit)
	forge.Register("event.cancel", Cancel{}, cancel)
	forge.Register("event.rsvp", RSVP{}, rsvp)
}

// Bounds of an event's fields.
const (
	MaxDescription = 65536
	MaxPlace       = 255
	MaxURL         = 2048
	MaxTimezone    = 64
)

// RSVP answers.
const (
	Going = "going"
	Maybe = "maybe"
	No    = "no"
)

// Create is the payload of event.create.
type Create struct {
	Title       string `json:"title"`
	Description string `json:"description" text:"body"`
	StartsAt    int64  `json:"startsAt"`
	EndsAt      int64  `json:"endsAt"`
	Timezone    string `json:"timezone"`
	OnlineURL   string `json:"onlineUrl"`
	Place       string `json:"place"`
}

// Edit is the payload of event.edit; absent fields stay as they are.
type Edit struct {
	Event       uint64  `json:"event"`
	Title       *string `json:"title"`
	Description *string `json:"description" text:"body"`
	StartsAt    *int64  `json:"startsAt"`
	EndsAt      *int64  `json:"endsAt"`
	Timezone    *string `json:"timezone"`
	OnlineURL   *string `json:"onlineUrl"`
	Place       *string `json:"place"`
}

// Cancel is the payload of event.cancel.
type Cancel struct {
	Event uint64 `json:"event"`
}

// RSVP is the payload of event.rsvp.
type RSVP struct {
	Event  uint64 `json:"event"`
	Status string `json:"status"`
}

func (Create) ActionName() string { return "event.create" }
func (Edit) ActionName() string   { return "event.edit" }
func (Cancel) ActionName() string { return "event.cancel" }
func (RSVP) ActionName() string   { return "event.rsvp" }

// State keys: forge/event/<id> and forge/rsvp/<event>/<address>, under
// the forge module's prefix, where they were before the calendar had its
// own package (the app hash depends on them).
func eventKey(id uint64) []byte { return forge.StateKey([]byte("event"), state.Uint64(id)) }
func rsvpKey(event uint64, user common.Address) []byte {
	return forge.StateKey([]byte("rsvp"), state.Uint64(event), user.Bytes())
}

func create(s *forge.Session, payload []byte) error {
	var p Create
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	if err := organizer(s, "create events"); err != nil {
		return err
	}
	e := &forge.Event{Organizer: s.Actor(), Title: p.Title, Description: p.Description, StartsAt: p.StartsAt, EndsAt: p.EndsAt,
		Timezone: p.Timezone, OnlineURL: p.OnlineURL, Place: p.Place, CreatedHeight: s.Env().Height}
	if err := checkEvent(e); err != nil {
		return err
	}
	id, err := s.NextID("event")
	if err != nil {
		return err
	}
	e.ID = id
	return saveEvent(s, e)
}

func edit(s *forge.Session, payload []byte) error {
	var p Edit
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	if err := organizer(s, "edit events"); err != nil {
		return err
	}
	e, err := liveEvent(s, p.Event, "edited")
	if err != nil {
		return err
	}
	setIf(&e.Title, p.Title)
	setIf(&e.Description, p.Description)
	setIf(&e.StartsAt, p.StartsAt)
	setIf(&e.EndsAt, p.EndsAt)
	setIf(&e.Timezone, p.Timezone)
	setIf(&e.OnlineURL, p.OnlineURL)
	setIf(&e.Place, p.Place)
	if err := checkEvent(e); err != nil {
		return err
	}
	return saveEvent(s, e)
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func cancel(s *forge.Session, payload []byte) error {
	var p Cancel
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	if err := organizer(s, "cancel events"); err != nil {
		return err
	}
	e, err := liveEvent(s, p.Event, "cancelled again")
	if err != nil {
		return err
	}
	e.Cancelled = true
	return saveEvent(s, e)
}

func rsvp(s *forge.Session, payload []byte) error {
	var p RSVP
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	if p.Status != Going && p.Status != Maybe && p.Status != No {
		return forge.Invalid("status", "must be going, maybe or no")
	}
	if s.Env().Private {
		return forge.Forbidden("events are public: a private store holds none")
	}
	e, err := liveEvent(s, p.Event, "answered")
	if err != nil {
		return err
	}
	k := rsvpKey(e.ID, s.Actor())
	old, err := s.KV().Get(k)
	if err != nil {
		return err
	}
	countRSVP(e, string(old), -1)
	countRSVP(e, p.Status, +1)
	if err := s.KV().Set(k, []byte(p.Status)); err != nil {
		return err
	}
	s.Change().RSVP = &forge.EventRSVP{Event: e.ID, User: s.Actor(), Status: p.Status}
	return saveEvent(s, e)
}

// countRSVP moves the event's count of status by delta; "no" (and no
// answer yet) is not counted.
func countRSVP(e *forge.Event, status string, delta int) {
	n := &e.Going
	switch status {
	case Going:
	case Maybe:
		n = &e.Maybe
	default:
		return
	}
	if delta < 0 {
		if *n > 0 {
			*n--
		}
		return
	}
	*n++
}

// organizer refuses an actor without the event organizer role.
func organizer(s *forge.Session, what string) error {
	if s.Env().Private {
		return forge.Forbidden("events are public: a private store holds none")
	}
	ok, err := roles.Has(s.KV(), s.Actor(), roles.EventOrganizer)
	if err != nil {
		return err
	}
	if !ok {
		return forge.Forbidden("only event organizers may %s: %s does not hold the event organizer role", what, s.Actor().Hex())
	}
	return nil
}

// liveEvent loads event id; a cancelled one is a conflict (it cannot be
// what).
func liveEvent(s *forge.Session, id uint64, what string) (*forge.Event, error) {
	var e forge.Event
	ok, err := s.GetJSON(eventKey(id), &e)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, forge.NotFound("event %d does not exist", id)
	}
	if e.Cancelled {
		return nil, forge.Conflict("event %d is cancelled: it cannot be %s", id, what)
	}
	return &e, nil
}

func saveEvent(s *forge.Session, e *forge.Event) error {
	e.UpdatedHeight = s.Env().Height
	if err := s.PutJSON(eventKey(e.ID), e); err != nil {
		return err
	}
	s.Change().CommunityEvent = e
	return nil
}

// checkEvent holds an event's fields to the rules.
func checkEvent(e *forge.Event) error {
	if err := forge.ValidateTitle(e.Title); err != nil {
		return err
	}
	if err := forge.ValidateText("description", e.Description, MaxDescription); err != nil {
		return err
	}
	if e.StartsAt <= 0 || e.StartsAt > forge.MaxTime {
		return forge.Invalid("startsAt", "must be a Unix time after 1970 and before the year 10000")
	}
	if e.EndsAt <= 0 || e.EndsAt > forge.MaxTime {
		return forge.Invalid("endsAt", "must be a Unix time after 1970 and before the year 10000")
	}
	if e.EndsAt <= e.StartsAt {
		return forge.Invalid("endsAt", "must be after startsAt: an event ends after it starts")
	}
	if err := ValidTimezone(e.Timezone); err != nil {
		return err
	}
	if err := validURL(e.OnlineURL); err != nil {
		return err
	}
	if utf8.RuneCountInString(e.Place) > MaxPlace {
		return forge.Invalid("place", "is longer than %d characters", MaxPlace)
	}
	if strings.TrimSpace(e.OnlineURL) == "" && strings.TrimSpace(e.Place) == "" {
		return forge.Invalid("place", "or onlineUrl must be given: an event happens somewhere")
	}
	return nil
}

// ValidTimezone holds a zone name to the shape of an IANA name: 1 to 64
// letters, digits, '/', '_', '-' and '+'. Whether the zone exists needs
// the zone database, which the API reads.
func ValidTimezone(tz string) error {
	if tz == "" || len(tz) > MaxTimezone {
		return forge.Invalid("timezone", "must be an IANA time zone name of 1 to %d characters", MaxTimezone)
	}
	for _, c := range tz {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/_-+", c)
		if !ok {
			return forge.Invalid("timezone", "must be an IANA time zone name (letters, digits, '/', '_', '-', '+')")
		}
	}
	return nil
}

// validURL holds an online link to an absolute http(s) URL with a host, of
// at most MaxURL bytes; "" is none.
func validURL(s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxURL {
		return forge.Invalid("onlineUrl", "is %d bytes; the most is %d", len(s), MaxURL)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\n\r") {
		return forge.Invalid("onlineUrl", "must be an http:// or https:// address")
	}
	return nil
}
