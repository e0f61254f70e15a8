-- +goose Up
-- Node-local identity: never on chain. Secrets (session ids, access tokens,
-- recovery codes) are stored only as SHA-256 hex digests.
CREATE TABLE users (
    id {{ID}},
    address TEXT NOT NULL UNIQUE, -- lowercase 0x-hex
    full_name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);

CREATE TABLE auth_nonces (
    nonce TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX auth_nonces_expires ON auth_nonces (expires_at);

CREATE TABLE sessions (
    id {{ID}},
    token_hash TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    user_agent TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE twofactor_challenges (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE access_tokens (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    last_eight TEXT NOT NULL,
    scopes TEXT NOT NULL, -- comma-separated: read, write, admin
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    UNIQUE (user_id, name)
);

CREATE TABLE user_totp (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT FALSE,
    last_step BIGINT NOT NULL DEFAULT 0, -- the last TOTP time step accepted; no code is accepted twice
    created_at BIGINT NOT NULL
);

CREATE TABLE recovery_codes (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at BIGINT,
    UNIQUE (user_id, code_hash)
);

CREATE TABLE notification_preferences (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email BOOLEAN NOT NULL,
    mentions BOOLEAN NOT NULL,
    reviews BOOLEAN NOT NULL,
    governance BOOLEAN NOT NULL,
    rewards BOOLEAN NOT NULL
);

-- +goose Down
DROP TABLE notification_preferences;
DROP TABLE recovery_codes;
DROP TABLE user_totp;
DROP TABLE access_tokens;
DROP TABLE twofactor_challenges;
DROP TABLE sessions;
DROP TABLE auth_nonces;
DROP TABLE users;
