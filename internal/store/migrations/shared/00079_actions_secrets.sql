-- +goose Up
-- Actions' secrets and variables (issue 26), Gitea's three levels: a
-- repository's (scope_repo > 0, scope_owner ''), and a user's or an
-- organization's (scope_owner their lower-case address, scope_repo 0).
-- Node-local, never on chain. Names are stored upper-case, as Gitea
-- stores them, so the unique key makes them case-insensitively unique.

-- A secret's data is base64 of nonce || AES-256-GCM ciphertext under the
-- node's key (<datadir>/actions-secrets.key); the plaintext is never
-- stored.
CREATE TABLE actions_secrets (
    id {{ID}},
    scope_owner TEXT   NOT NULL,
    scope_repo  BIGINT NOT NULL,
    name        TEXT   NOT NULL,
    data        TEXT   NOT NULL,
    description TEXT   NOT NULL DEFAULT '',
    created_ms  BIGINT NOT NULL,
    updated_ms  BIGINT NOT NULL,
    UNIQUE (scope_owner, scope_repo, name)
);

CREATE TABLE actions_variables (
    id {{ID}},
    scope_owner TEXT   NOT NULL,
    scope_repo  BIGINT NOT NULL,
    name        TEXT   NOT NULL,
    data        TEXT   NOT NULL,
    description TEXT   NOT NULL DEFAULT '',
    created_ms  BIGINT NOT NULL,
    updated_ms  BIGINT NOT NULL,
    UNIQUE (scope_owner, scope_repo, name)
);

-- +goose Down
DROP TABLE actions_variables;
DROP TABLE actions_secrets;
