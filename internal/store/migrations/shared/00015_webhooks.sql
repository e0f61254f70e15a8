-- +goose Up
-- Webhooks: node-local, never on chain. A hook is scoped to one repository
-- (repo_id) or to an owner (owner, the address: an organization's or a
-- user's hooks, repo_id 0). The secret stays here and is never returned.
CREATE TABLE webhooks (
    id {{ID}},
    repo_id       BIGINT  NOT NULL DEFAULT 0,
    owner         TEXT    NOT NULL DEFAULT '',
    url           TEXT    NOT NULL,
    http_method   TEXT    NOT NULL DEFAULT 'POST',
    content_type  TEXT    NOT NULL,
    secret        TEXT    NOT NULL DEFAULT '',
    events        TEXT    NOT NULL,
    branch_filter TEXT    NOT NULL DEFAULT '',
    authorization_header TEXT NOT NULL DEFAULT '',
    active        BOOLEAN NOT NULL,
    created_ns    BIGINT  NOT NULL,
    updated_ns    BIGINT  NOT NULL
);
CREATE INDEX webhooks_repo ON webhooks (repo_id);
CREATE INDEX webhooks_owner ON webhooks (owner);

-- The durable queue and the delivery log in one: a row is written in the
-- SQL transaction that projects the event (so a crash loses none), with
-- the change it reports; the worker renders the payload on the first
-- attempt (request_* are then fixed, so a redelivery sends the same
-- bytes), and records each attempt's response. state: pending (next_ns
-- is when to try), delivered, failed (attempts exhausted).
CREATE TABLE webhook_deliveries (
    id {{ID}},
    hook_id       BIGINT NOT NULL,
    uuid          TEXT   NOT NULL,
    event         TEXT   NOT NULL,
    event_type    TEXT   NOT NULL,
    source        TEXT   NOT NULL,
    height        BIGINT NOT NULL,
    block_ns      BIGINT NOT NULL,
    state         TEXT   NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_ns       BIGINT NOT NULL,
    request_url     TEXT NOT NULL DEFAULT '',
    request_headers TEXT NOT NULL DEFAULT '',
    request_body    TEXT NOT NULL DEFAULT '',
    response_status INTEGER NOT NULL DEFAULT 0,
    response_headers TEXT NOT NULL DEFAULT '',
    response_body   TEXT NOT NULL DEFAULT '',
    error         TEXT   NOT NULL DEFAULT '',
    duration_ms   BIGINT NOT NULL DEFAULT 0,
    created_ns    BIGINT NOT NULL,
    delivered_ns  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (hook_id, id);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (state, next_ns);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
