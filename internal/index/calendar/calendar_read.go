package calendar

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Reader reads the community calendar's projection.
type Reader struct {
	db *readdb.DB
}

// NewReader returns a Reader on db, the index's.
func NewReader(db *readdb.DB) *Reader { return &Reader{db: db} }

// Event is an event on the community calendar.
type Event struct {
	ID          uint64
	Organizer   readdb.User
	Title       string
	Description string
	// StartsAt and EndsAt are Unix seconds.
	StartsAt, EndsAt int64
	Timezone         string
	OnlineURL        string
	Place            string
	Cancelled        bool
	Going, Maybe     int64
	// CreatedNS and UpdatedNS are block times in Unix nanoseconds.
	CreatedNS, UpdatedNS int64
}

// RSVP is one account's answer to an event.
type RSVP struct {
	User   readdb.User
	Status string
	TimeNS int64
}

// Which events a list holds.
const (
	Upcoming = "upcoming"
	Past     = "past"
)

const eventCols = `e.id, e.organizer, COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), e.title, e.description, e.starts_at, e.ends_at,
	e.timezone, e.online_url, e.place, e.cancelled, e.going, e.maybe, e.created_time_ns, e.updated_time_ns`

const eventFrom = `community_events e LEFT JOIN chain_accounts a ON a.address = e.organizer`

func scanEvent(row interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var id int64
	var addr, name string
	err := row.Scan(&id, &addr, &name, &e.Title, &e.Description, &e.StartsAt, &e.EndsAt, &e.Timezone, &e.OnlineURL,
		&e.Place, &e.Cancelled, &e.Going, &e.Maybe, &e.CreatedNS, &e.UpdatedNS)
	e.ID, e.Organizer = uint64(id), readdb.UserOf(addr, name)
	return e, err
}

// Events lists one page of the upcoming events (not ended by nowUnix,
// soonest first) or the past ones (latest first). Cancelled events stay
// listed, marked.
func (rd *Reader) Events(ctx context.Context, when string, nowUnix int64, p readdb.Page) ([]Event, int64, error) {
	where, order := "e.ends_at > $1", "e.starts_at, e.id"
	if when == Past {
		where, order = "e.ends_at <= $1", "e.starts_at DESC, e.id DESC"
	}
	out := []Event{}
	total, err := rd.db.ListPage(ctx, eventCols, eventFrom, "community_events e", where, order, []any{nowUnix}, p,
		func(rows *sql.Rows) error {
			e, err := scanEvent(rows)
			out = append(out, e)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list %s events: %w", when, err)
	}
	return out, total, nil
}

// UpcomingEvents are the next limit events that have not ended by
// nowUnix and are not cancelled, soonest first (for /community).
func (rd *Reader) UpcomingEvents(ctx context.Context, nowUnix int64, limit int) ([]Event, error) {
	return rd.eventsWhere(ctx, "e.ends_at > $1 AND NOT e.cancelled", "e.starts_at, e.id", limit, nowUnix)
}

// FeedEvents are the events a calendar feed holds: those that ended
// after sinceUnix (recent and upcoming), cancelled ones included so
// subscribers drop them, by start, at most limit.
func (rd *Reader) FeedEvents(ctx context.Context, sinceUnix int64, limit int) ([]Event, error) {
	return rd.eventsWhere(ctx, "e.ends_at > $1", "e.starts_at, e.id", limit, sinceUnix)
}

func (rd *Reader) eventsWhere(ctx context.Context, where, order string, limit int, args ...any) ([]Event, error) {
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT $%d", eventCols, eventFrom, where, order, len(args)+1)
	rows, err := rd.db.Query(ctx, q, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("read events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Event is event id; false when there is none.
func (rd *Reader) Event(ctx context.Context, id uint64) (Event, bool, error) {
	e, err := scanEvent(rd.db.QueryRow(ctx, "SELECT "+eventCols+" FROM "+eventFrom+" WHERE e.id = $1", int64(id)))
	if err == sql.ErrNoRows {
		return Event{}, false, nil
	}
	if err != nil {
		return Event{}, false, fmt.Errorf("read event %d: %w", id, err)
	}
	return e, true, nil
}

// RSVPs lists one page of the answers to event id, latest first.
func (rd *Reader) RSVPs(ctx context.Context, id uint64, p readdb.Page) ([]RSVP, int64, error) {
	out := []RSVP{}
	total, err := rd.db.ListPage(ctx, "r.address, "+readdb.UserExpr("a")+", r.status, r.time_ns",
		"community_event_rsvps r LEFT JOIN chain_accounts a ON a.address = r.address", "community_event_rsvps r",
		"r.event_id = $1", "r.height DESC, r.address", []any{int64(id)}, p, func(rows *sql.Rows) error {
			var addr, name string
			var r RSVP
			err := rows.Scan(&addr, &name, &r.Status, &r.TimeNS)
			r.User = readdb.UserOf(addr, name)
			out = append(out, r)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list answers to event %d: %w", id, err)
	}
	return out, total, nil
}

// MyRSVPs are who's answers to the events ids, by event ("" for none).
func (rd *Reader) MyRSVPs(ctx context.Context, who common.Address, ids []uint64) (map[uint64]string, error) {
	out := map[uint64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	args := []any{who.Hex()}
	marks := make([]string, len(ids))
	for i, id := range ids {
		args = append(args, int64(id))
		marks[i] = fmt.Sprintf("$%d", i+2)
	}
	rows, err := rd.db.Query(ctx, `SELECT event_id, status FROM community_event_rsvps WHERE address = $1 AND event_id IN (`+
		strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read answers of %s: %w", who.Hex(), err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var status string
		if err := rows.Scan(&id, &status); err != nil {
			return nil, fmt.Errorf("read answers of %s: %w", who.Hex(), err)
		}
		out[uint64(id)] = status
	}
	return out, rows.Err()
}
