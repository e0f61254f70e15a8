package forge

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/roles"
)

// Community events (event.create, event.edit, event.cancel, event.rsvp):
// meetups and calls on the chain-wide calendar. Holders of the
// roles.EventOrganizer role manage the calendar together: any of them may
// create, edit or cancel any event, so one leaving the role strands
// nothing. Anyone may answer going, maybe or no; a later answer replaces
// the earlier one, and the event keeps its going and maybe counts so every
// node shows the same figures. The module has no clock: whether an event
// is past is the reader's business (the API decides it from the wall
// clock). Nor does it load time zone data (I/O): it holds the zone name to
// the shape of an IANA name, and the API checks that the zone exists.

// Bounds of an event's fields.
const (
	MaxEventDescription = 65536
	MaxEventPlace       = 255
	MaxEventURL         = 2048
	MaxEventTimezone    = 64
)

// RSVP answers.
const (
	RSVPGoing = "going"
	RSVPMaybe = "maybe"
	RSVPNo    = "no"
)

// Event is an event on the community calendar.
type Event struct {
	ID          uint64         `json:"id"`
	Organizer   common.Address `json:"organizer"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	// StartsAt and EndsAt are Unix seconds; EndsAt is after StartsAt.
	StartsAt int64 `json:"startsAt"`
	EndsAt   int64 `json:"endsAt"`
	// Timezone is the IANA zone the organizer gave the times in.
	Timezone  string `json:"timezone"`
	OnlineURL string `json:"onlineUrl,omitempty"`
	Place     string `json:"place,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
	// Going and Maybe count the current answers.
	Going         uint64 `json:"going"`
	Maybe         uint64 `json:"maybe"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// EventRSVP is one account's answer to an event.
type EventRSVP struct {
	Event  uint64         `json:"event"`
	User   common.Address `json:"user"`
	Status string         `json:"status"`
}

// EventCreate is the payload of event.create.
type EventCreate struct {
	Title       string `json:"title"`
	Description string `json:"description" text:"body"`
	StartsAt    int64  `json:"startsAt"`
	EndsAt      int64  `json:"endsAt"`
	Timezone    string `json:"timezone"`
	OnlineURL   string `json:"onlineUrl"`
	Place       string `json:"place"`
}

// EventEdit is the payload of event.edit; absent fields stay as they are.
type EventEdit struct {
	Event       uint64  `json:"event"`
	Title       *string `json:"title"`
	Description *string `json:"description" text:"body"`
	StartsAt    *int64  `json:"startsAt"`
	EndsAt      *int64  `json:"endsAt"`
	Timezone    *string `json:"timezone"`
	OnlineURL   *string `json:"onlineUrl"`
	Place       *string `json:"place"`
}

// EventCancel is the payload of event.cancel.
type EventCancel struct {
	Event uint64 `json:"event"`
}

// EventRSVPSet is the payload of event.rsvp.
type EventRSVPSet struct {
	Event  uint64 `json:"event"`
	Status string `json:"status"`
}

func (EventCreate) ActionName() string  { return "event.create" }
func (EventEdit) ActionName() string    { return "event.edit" }
func (EventCancel) ActionName() string  { return "event.cancel" }
func (EventRSVPSet) ActionName() string { return "event.rsvp" }

func eventKey(id uint64) []byte { return key([]byte("event"), u64(id)) }
func rsvpKey(event uint64, user common.Address) []byte {
	return key([]byte("rsvp"), u64(event), user.Bytes())
}

func eventCreate(s *session, payload []byte) error {
	var p EventCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	if err := s.organizer("create events"); err != nil {
		return err
	}
	e := &Event{Organizer: s.actor, Title: p.Title, Description: p.Description, StartsAt: p.StartsAt, EndsAt: p.EndsAt,
		Timezone: p.Timezone, OnlineURL: p.OnlineURL, Place: p.Place, CreatedHeight: s.env.Height}
	if err := checkEvent(e); err != nil {
		return err
	}
	id, err := s.nextID("event")
	if err != nil {
		return err
	}
	e.ID = id
	return s.saveEvent(e)
}

func eventEdit(s *session, payload []byte) error {
	var p EventEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	if err := s.organizer("edit events"); err != nil {
		return err
	}
	e, err := s.liveEvent(p.Event, "edited")
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
	return s.saveEvent(e)
}

func eventCancel(s *session, payload []byte) error {
	var p EventCancel
	if err := decode(payload, &p); err != nil {
		return err
	}
	if err := s.organizer("cancel events"); err != nil {
		return err
	}
	e, err := s.liveEvent(p.Event, "cancelled again")
	if err != nil {
		return err
	}
	e.Cancelled = true
	return s.saveEvent(e)
}

func eventRSVP(s *session, payload []byte) error {
	var p EventRSVPSet
	if err := decode(payload, &p); err != nil {
		return err
	}
	if p.Status != RSVPGoing && p.Status != RSVPMaybe && p.Status != RSVPNo {
		return invalid("status", "must be going, maybe or no")
	}
	if s.env.Private {
		return forbidden("events are public: a private store holds none")
	}
	e, err := s.liveEvent(p.Event, "answered")
	if err != nil {
		return err
	}
	k := rsvpKey(e.ID, s.actor)
	old, err := s.kv.Get(k)
	if err != nil {
		return err
	}
	countRSVP(e, string(old), -1)
	countRSVP(e, p.Status, +1)
	if err := s.kv.Set(k, []byte(p.Status)); err != nil {
		return err
	}
	s.change.RSVP = &EventRSVP{Event: e.ID, User: s.actor, Status: p.Status}
	return s.saveEvent(e)
}

// countRSVP moves the event's count of status by delta; "no" (and no
// answer yet) is not counted.
func countRSVP(e *Event, status string, delta int) {
	n := &e.Going
	switch status {
	case RSVPGoing:
	case RSVPMaybe:
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
func (s *session) organizer(what string) error {
	if s.env.Private {
		return forbidden("events are public: a private store holds none")
	}
	ok, err := roles.Has(s.kv, s.actor, roles.EventOrganizer)
	if err != nil {
		return err
	}
	if !ok {
		return forbidden("only event organizers may %s: %s does not hold the event organizer role", what, s.actor.Hex())
	}
	return nil
}

// liveEvent loads event id; a cancelled one is a conflict (it cannot be
// what).
func (s *session) liveEvent(id uint64, what string) (*Event, error) {
	var e Event
	ok, err := s.getJSON(eventKey(id), &e)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, notFound("event %d does not exist", id)
	}
	if e.Cancelled {
		return nil, conflict("event %d is cancelled: it cannot be %s", id, what)
	}
	return &e, nil
}

func (s *session) saveEvent(e *Event) error {
	e.UpdatedHeight = s.env.Height
	if err := s.putJSON(eventKey(e.ID), e); err != nil {
		return err
	}
	s.change.CommunityEvent = e
	return nil
}

// checkEvent holds an event's fields to the rules.
func checkEvent(e *Event) error {
	if err := validateTitle(e.Title); err != nil {
		return err
	}
	if err := validateText("description", e.Description, MaxEventDescription); err != nil {
		return err
	}
	if e.StartsAt <= 0 || e.StartsAt > maxDue {
		return invalid("startsAt", "must be a Unix time after 1970 and before the year 10000")
	}
	if e.EndsAt <= 0 || e.EndsAt > maxDue {
		return invalid("endsAt", "must be a Unix time after 1970 and before the year 10000")
	}
	if e.EndsAt <= e.StartsAt {
		return invalid("endsAt", "must be after startsAt: an event ends after it starts")
	}
	if err := ValidTimezone(e.Timezone); err != nil {
		return err
	}
	if err := validEventURL(e.OnlineURL); err != nil {
		return err
	}
	if utf8.RuneCountInString(e.Place) > MaxEventPlace {
		return invalid("place", "is longer than %d characters", MaxEventPlace)
	}
	if strings.TrimSpace(e.OnlineURL) == "" && strings.TrimSpace(e.Place) == "" {
		return invalid("place", "or onlineUrl must be given: an event happens somewhere")
	}
	return nil
}

// ValidTimezone holds a zone name to the shape of an IANA name: 1 to 64
// letters, digits, '/', '_', '-' and '+'. Whether the zone exists needs
// the zone database, which the API reads.
func ValidTimezone(tz string) error {
	if tz == "" || len(tz) > MaxEventTimezone {
		return invalid("timezone", "must be an IANA time zone name of 1 to %d characters", MaxEventTimezone)
	}
	for _, c := range tz {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/_-+", c)
		if !ok {
			return invalid("timezone", "must be an IANA time zone name (letters, digits, '/', '_', '-', '+')")
		}
	}
	return nil
}

// validEventURL holds an online link to an absolute http(s) URL with a
// host, of at most MaxEventURL bytes; "" is none.
func validEventURL(s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxEventURL {
		return invalid("onlineUrl", "is %d bytes; the most is %d", len(s), MaxEventURL)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\n\r") {
		return invalid("onlineUrl", "must be an http:// or https:// address")
	}
	return nil
}
