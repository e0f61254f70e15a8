-- +goose Up
-- A job's own concurrency group (issue 26): jobs.<id>.concurrency,
-- evaluated when its run is created. A ready job waits while an older job
-- of the same group in its repository is ready or running.
ALTER TABLE actions_jobs ADD COLUMN concurrency TEXT NOT NULL DEFAULT '';
CREATE INDEX actions_jobs_concurrency ON actions_jobs (repo_id, concurrency) WHERE concurrency <> '';

-- +goose Down
DROP INDEX actions_jobs_concurrency;
ALTER TABLE actions_jobs DROP COLUMN concurrency;
