-- +goose Up
-- Deploy keys (issue 23): SSH keys that read (or write) one repository.
-- They are credentials, so they are node-local like tokens: never on chain,
-- and they open the repository over SSH on this node only. repo_id is the
-- forge's repository id; a repository's keys go with it. added_by is the
-- admin who added the key: a key that is not read-only pushes in their
-- name (a push is a person's transaction on chain).
CREATE TABLE deploy_keys (
    id {{ID}},
    repo_id     BIGINT  NOT NULL,
    title       TEXT    NOT NULL,
    key_text    TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    read_only   BOOLEAN NOT NULL,
    added_by    TEXT    NOT NULL,
    created_ms  BIGINT  NOT NULL,
    UNIQUE (repo_id, fingerprint)
);
CREATE INDEX deploy_keys_fingerprint ON deploy_keys (fingerprint);

-- +goose Down
DROP TABLE deploy_keys;
