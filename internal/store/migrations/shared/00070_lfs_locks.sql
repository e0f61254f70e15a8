-- +goose Up
-- Git LFS file locks (issue 23): node-local, never on chain, as the
-- repository's LFS endpoint is this node's. One lock per path of a
-- repository; the owner is kept by address (whose lock it is) and by the
-- name shown at the time it was taken.
CREATE TABLE lfs_locks (
    id {{ID}},
    repo_id TEXT NOT NULL,
    path TEXT NOT NULL,
    owner_address TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    locked_at BIGINT NOT NULL,
    UNIQUE (repo_id, path)
);
CREATE INDEX lfs_locks_repo ON lfs_locks (repo_id, id);

-- +goose Down
DROP TABLE lfs_locks;
