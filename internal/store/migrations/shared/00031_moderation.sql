-- +goose Up
-- Reports and moderation: node-local, never on chain. Chain content cannot
-- be deleted, so this node's moderators hide it here (mod_hidden) and stop
-- accounts from writing through this node (mod_suspensions); other nodes
-- keep their own lists. Targets are keyed by stable ids (an address, a
-- repository id, "repo:number", "repo:comment"), so renames keep them.
CREATE TABLE mod_reports (
    id          {{ID}},
    reporter    TEXT   NOT NULL,
    kind        TEXT   NOT NULL,
    target      TEXT   NOT NULL,
    label       TEXT   NOT NULL,
    subject     TEXT   NOT NULL,
    reason      TEXT   NOT NULL,
    detail      TEXT   NOT NULL,
    status      TEXT   NOT NULL,
    action      TEXT   NOT NULL DEFAULT '',
    note        TEXT   NOT NULL DEFAULT '',
    resolved_by TEXT   NOT NULL DEFAULT '',
    created_ms  BIGINT NOT NULL,
    resolved_ms BIGINT NOT NULL DEFAULT 0
);
-- One open report per reporter and target.
CREATE UNIQUE INDEX mod_reports_open ON mod_reports (reporter, kind, target) WHERE status = 'open';
CREATE INDEX mod_reports_queue ON mod_reports (status, kind, id);
CREATE INDEX mod_reports_reporter ON mod_reports (reporter, id);
CREATE INDEX mod_reports_target ON mod_reports (kind, target, status);

CREATE TABLE mod_hidden (
    kind       TEXT   NOT NULL,
    target     TEXT   NOT NULL,
    label      TEXT   NOT NULL,
    reason     TEXT   NOT NULL,
    hidden_by  TEXT   NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (kind, target)
);

CREATE TABLE mod_suspensions (
    address      TEXT   NOT NULL PRIMARY KEY,
    reason       TEXT   NOT NULL,
    suspended_by TEXT   NOT NULL,
    created_ms   BIGINT NOT NULL
);

-- +goose Down
DROP TABLE mod_suspensions;
DROP TABLE mod_hidden;
DROP TABLE mod_reports;
