// Package calendar is the community calendar's part of the projection:
// events and the answers to them (community_events,
// community_event_rsvps), written from the event.* forge actions as
// internal/index projects them (Write, Reset), and their reads (Reader).
package calendar

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Community events (community_events, community_event_rsvps), projected
// from event.create|edit|cancel|rsvp. The chain keeps each event's going
// and maybe counts, so the rows are written as the change carries them.
// An event is upcoming until it ends (one under way is still on the
// upcoming list) and past once it has ended; "now" is the caller's, as the
// chain has no clock.

var tables = []string{"community_event_rsvps", "community_events"}

// Reset empties the events projection: events exist on chain only.
func Reset(ctx context.Context, tx *readdb.WriteTx) error {
	for _, table := range tables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	return nil
}

// Write projects ch, applied at height and time timeNS: the event and the
// answer it carries. A change of anything else writes nothing.
func Write(ctx context.Context, tx *readdb.WriteTx, ch forge.Change, height, timeNS int64) error {
	e := ch.CommunityEvent
	if e == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO community_events (id, organizer, title, description, starts_at, ends_at,
		timezone, online_url, place, cancelled, going, maybe, created_height, created_time_ns, updated_height, updated_time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $14)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
		starts_at = excluded.starts_at, ends_at = excluded.ends_at, timezone = excluded.timezone,
		online_url = excluded.online_url, place = excluded.place, cancelled = excluded.cancelled,
		going = excluded.going, maybe = excluded.maybe, updated_height = excluded.updated_height,
		updated_time_ns = excluded.updated_time_ns`,
		int64(e.ID), e.Organizer.Hex(), e.Title, e.Description, e.StartsAt, e.EndsAt, e.Timezone, e.OnlineURL, e.Place,
		e.Cancelled, int64(e.Going), int64(e.Maybe), int64(e.CreatedHeight), timeNS, height)
	if err != nil {
		return fmt.Errorf("write event %d: %w", e.ID, err)
	}
	if r := ch.RSVP; r != nil {
		_, err = tx.ExecContext(ctx, `INSERT INTO community_event_rsvps (event_id, address, status, height, time_ns)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id, address) DO UPDATE SET status = excluded.status,
			height = excluded.height, time_ns = excluded.time_ns`, int64(r.Event), r.User.Hex(), r.Status, height, timeNS)
		if err != nil {
			return fmt.Errorf("write answer of %s to event %d: %w", r.User.Hex(), r.Event, err)
		}
	}
	return nil
}
