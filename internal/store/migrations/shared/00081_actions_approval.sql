-- +goose Up
-- Approval of first-time contributors' pull-request runs (issue 26): a
-- run from a fork whose author is not a writer of the base and has had no
-- pull request merged there waits (need_approval 1) until a writer
-- approves it; approved_by is that writer's lower-case address, in whose
-- name the run's commit statuses are then posted.
ALTER TABLE actions_runs ADD COLUMN need_approval BIGINT NOT NULL DEFAULT 0;
ALTER TABLE actions_runs ADD COLUMN approved_by TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE actions_runs DROP COLUMN approved_by;
ALTER TABLE actions_runs DROP COLUMN need_approval;
