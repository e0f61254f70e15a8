-- +goose Up
-- Community events, projected from the chain's event.* actions: each Forge
-- event carries the event in its new state (counts included) and, for
-- event.rsvp, the answer. A view like the forge tables: a reindex empties
-- and rebuilds it from the blocks. Times are Unix seconds (starts_at,
-- ends_at) and nanoseconds (*_time_ns, block times).
CREATE TABLE community_events (
    id BIGINT PRIMARY KEY,
    organizer TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    timezone TEXT NOT NULL,
    online_url TEXT NOT NULL,
    place TEXT NOT NULL,
    cancelled BOOLEAN NOT NULL,
    going BIGINT NOT NULL,
    maybe BIGINT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL,
    updated_time_ns BIGINT NOT NULL
);
-- Upcoming lists read ends_at forward, past lists backward by start.
CREATE INDEX community_events_ends ON community_events (ends_at, starts_at, id);
CREATE INDEX community_events_starts ON community_events (starts_at, id);

CREATE TABLE community_event_rsvps (
    event_id BIGINT NOT NULL,
    address TEXT NOT NULL,
    status TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (event_id, address)
);

-- +goose Down
DROP TABLE community_event_rsvps;
DROP TABLE community_events;
