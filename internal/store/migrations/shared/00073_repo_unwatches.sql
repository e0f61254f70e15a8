-- +goose Up
-- Explicit unwatches (issue 25): a repository's owner, its collaborators
-- with write or maintain and its organization's owners watch it without
-- asking, as on Gitea; a row here is one of them who unwatched it
-- (repo.unwatch) and has not watched it again since (repo.watch deletes
-- the row). Projected from the chain like forge_watches; unwatches made
-- before this table are known again after a reindex.
CREATE TABLE forge_unwatches (
    repo_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (repo_id, user_address)
);
CREATE INDEX forge_unwatches_user ON forge_unwatches (user_address);

-- +goose Down
DROP TABLE forge_unwatches;
