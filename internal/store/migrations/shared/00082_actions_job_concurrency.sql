-- +goose Up
-- A job's own concurrency group (issue 26): jobs.<id>.concurrency,
-- evaluated when its run is created. A ready job waits while an older job
-- of the same group in its repository is ready or running.
ALTER TABLE actions_jobs ADD COLUMN concurrency TEXT NOT NULL DEFAULT '';
CREATE INDEX actions_jobs_concurrency ON actions_jobs (repo_id, concurrency) WHERE concurrency <> '';
-- A run's cancel-in-progress, kept so that a re-run enters its group as
-- the run did.
ALTER TABLE actions_runs ADD COLUMN cancel_in_progress BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE actions_runs DROP COLUMN cancel_in_progress;
DROP INDEX actions_jobs_concurrency;
ALTER TABLE actions_jobs DROP COLUMN concurrency;
