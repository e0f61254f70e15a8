-- +goose Up
-- SSH public keys, projected from key.add and key.delete on chain, so
-- every node lets the same keys into git over SSH. fingerprint is
-- OpenSSH's "SHA256:..."; the chain keeps it unique.
CREATE TABLE forge_keys (
    id              BIGINT PRIMARY KEY,
    owner           TEXT   NOT NULL,
    title           TEXT   NOT NULL,
    key             TEXT   NOT NULL,
    fingerprint     TEXT   NOT NULL UNIQUE,
    created_height  BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL
);
CREATE INDEX forge_keys_owner ON forge_keys (owner, id);

-- +goose Down
DROP TABLE forge_keys;
