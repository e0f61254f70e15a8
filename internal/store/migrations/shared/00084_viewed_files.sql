-- +goose Up
-- The files of a pull request a reviewer has marked viewed (issue 25), with
-- the version of the file's change each mark was made on (its new blob id,
-- else a hash of its patch), so a later push that changes the file un-views
-- it. Private to the reviewer and kept on this node, as pending reviews
-- are: never on chain.
CREATE TABLE pull_viewed_files (
    reviewer TEXT   NOT NULL,
    repo_id  BIGINT NOT NULL,
    number   BIGINT NOT NULL,
    path     TEXT   NOT NULL,
    version  TEXT   NOT NULL,
    PRIMARY KEY (reviewer, repo_id, number, path)
);

-- +goose Down
DROP TABLE pull_viewed_files;
