-- +goose Up
-- The community roles' holders (internal/chain/roles): a row per account
-- and role it holds, from the genesis grants (proposal 0, the genesis
-- height) and each passed role proposal's Role event; a revocation
-- deletes the row. Like the other chain tables it is a view, rebuilt by a
-- reindex. Addresses are EIP-55 hex; times are Unix nanoseconds.
CREATE TABLE community_roles (
    address  TEXT   NOT NULL,
    role     TEXT   NOT NULL,
    height   BIGINT NOT NULL,
    proposal BIGINT NOT NULL,
    time_ns  BIGINT NOT NULL,
    PRIMARY KEY (address, role)
);
-- A role's holders, the longest-standing first.
CREATE INDEX community_roles_role ON community_roles (role, height, address);

-- +goose Down
DROP TABLE community_roles;
