-- +goose Up
-- Actions, Gitea's CI (issue 26): node-local, never on chain. A node runs
-- the workflows of the pushes it relayed, on the runners registered with
-- it; only the commit statuses the jobs post go on chain.

-- Registration tokens: scope_repo > 0 a repository's, scope_owner a
-- user's or organization's (scope_repo 0), both empty the node's.
CREATE TABLE actions_runner_tokens (
    id {{ID}},
    token_hash  TEXT   NOT NULL UNIQUE,
    scope_owner TEXT   NOT NULL,
    scope_repo  BIGINT NOT NULL,
    created_ms  BIGINT NOT NULL
);
CREATE INDEX actions_runner_tokens_scope ON actions_runner_tokens (scope_owner, scope_repo, id);

CREATE TABLE actions_runners (
    id {{ID}},
    uuid           TEXT   NOT NULL UNIQUE,
    token_hash     TEXT   NOT NULL,
    name           TEXT   NOT NULL,
    scope_owner    TEXT   NOT NULL,
    scope_repo     BIGINT NOT NULL,
    labels         TEXT   NOT NULL,
    version        TEXT   NOT NULL DEFAULT '',
    last_online_ms BIGINT NOT NULL DEFAULT 0,
    created_ms     BIGINT NOT NULL
);

-- Triggers are the events the projection saw, written in its transaction
-- so a crash cannot lose one; the detector turns each into runs.
CREATE TABLE actions_triggers (
    id {{ID}},
    repo_id    BIGINT NOT NULL,
    event      TEXT   NOT NULL,
    ref        TEXT   NOT NULL,
    before_sha TEXT   NOT NULL,
    after_sha  TEXT   NOT NULL,
    actor      TEXT   NOT NULL,
    -- the event's own fields (a pull request's number and head, an
    -- issue's, a release's), as JSON
    payload    TEXT   NOT NULL DEFAULT '{}',
    created_ms BIGINT NOT NULL
);

CREATE TABLE actions_runs (
    id {{ID}},
    repo_id    BIGINT NOT NULL,
    number     BIGINT NOT NULL,
    workflow   TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    title      TEXT   NOT NULL,
    event      TEXT   NOT NULL,
    ref        TEXT   NOT NULL,
    sha        TEXT   NOT NULL,
    actor      TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    error      TEXT   NOT NULL DEFAULT '',
    context    TEXT   NOT NULL DEFAULT '{}',
    -- 1: a pull request from a fork, which runs without secrets
    fork       BIGINT NOT NULL DEFAULT 0,
    -- the workflow's concurrency group, evaluated; '' for none
    concurrency TEXT  NOT NULL DEFAULT '',
    created_ms BIGINT NOT NULL,
    started_ms BIGINT NOT NULL DEFAULT 0,
    stopped_ms BIGINT NOT NULL DEFAULT 0,
    UNIQUE (repo_id, number)
);

-- A job is one job of a run (one matrix combination); its task id, as the
-- runner sees it, is its id.
CREATE TABLE actions_jobs (
    id {{ID}},
    run_id       BIGINT NOT NULL,
    repo_id      BIGINT NOT NULL,
    job_key      TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    needs        TEXT   NOT NULL,
    runs_on      TEXT   NOT NULL,
    payload      TEXT   NOT NULL,
    status       TEXT   NOT NULL,
    runner_id    BIGINT NOT NULL DEFAULT 0,
    started_ms   BIGINT NOT NULL DEFAULT 0,
    stopped_ms   BIGINT NOT NULL DEFAULT 0,
    contact_ms   BIGINT NOT NULL DEFAULT 0,
    timeout_ms   BIGINT NOT NULL DEFAULT 0,
    steps        TEXT   NOT NULL DEFAULT '[]',
    outputs      TEXT   NOT NULL DEFAULT '{}',
    log_rows     BIGINT NOT NULL DEFAULT 0,
    posted       TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX actions_jobs_run ON actions_jobs (run_id, id);
CREATE INDEX actions_jobs_status ON actions_jobs (status, id);

CREATE TABLE actions_logs (
    job_id  BIGINT NOT NULL,
    idx     BIGINT NOT NULL,
    time_ms BIGINT NOT NULL,
    content TEXT   NOT NULL,
    PRIMARY KEY (job_id, idx)
);

-- A repository's schedules (on.schedule), held by the node that relayed
-- the last push to its default branch: another node's push there drops
-- them, so one node in the network fires each.
CREATE TABLE actions_schedules (
    id {{ID}},
    repo_id  BIGINT NOT NULL,
    workflow TEXT   NOT NULL,
    spec     TEXT   NOT NULL,
    ref      TEXT   NOT NULL,
    actor    TEXT   NOT NULL,
    next_ms  BIGINT NOT NULL
);
CREATE INDEX actions_schedules_next ON actions_schedules (next_ms);
CREATE INDEX actions_schedules_repo ON actions_schedules (repo_id, ref);

-- +goose Down
DROP TABLE actions_schedules;
DROP TABLE actions_logs;
DROP TABLE actions_jobs;
DROP TABLE actions_runs;
DROP TABLE actions_triggers;
DROP TABLE actions_runners;
DROP TABLE actions_runner_tokens;
