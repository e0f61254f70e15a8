-- +goose Up
-- Actions' artifacts (issue 26): what actions/upload-artifact@v4 uploads
-- from a job, node-local. The file is <datadir>/artifacts/<id>.zip; a row
-- is 'pending' while the client uploads, 'ready' once finalize checked
-- its size and hash, 'expired' once the retention sweep removed the file.
-- A public repository's ready artifact is also a UnixFS file in the
-- blockstore, named by cid ('' otherwise).
CREATE TABLE actions_artifacts (
    id {{ID}},
    run_id     BIGINT NOT NULL,
    job_id     BIGINT NOT NULL,
    repo_id    BIGINT NOT NULL,
    name       TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    size       BIGINT NOT NULL DEFAULT 0,
    sha256     TEXT   NOT NULL DEFAULT '',
    cid        TEXT   NOT NULL DEFAULT '',
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    UNIQUE (run_id, name)
);
CREATE INDEX actions_artifacts_repo ON actions_artifacts (repo_id, id);
CREATE INDEX actions_artifacts_expiry ON actions_artifacts (status, expires_ms);

-- +goose Down
DROP TABLE actions_artifacts;
