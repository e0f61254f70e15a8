-- +goose Up
-- The SQL projection of the chain, written only by internal/index. It is a
-- view of the chain: `dforge reindex` empties these tables and replays every
-- block, so a migration may drop and rebuild them. Amounts are micro-units;
-- times are a block's time in Unix nanoseconds.

CREATE TABLE chain_blocks (
    height BIGINT PRIMARY KEY,
    hash TEXT NOT NULL,
    time_ns BIGINT NOT NULL,
    proposer TEXT NOT NULL,
    tx_count INTEGER NOT NULL,
    -- the app state root after this block's transactions
    app_hash TEXT NOT NULL
);

CREATE TABLE chain_txs (
    height BIGINT NOT NULL,
    tx_index INTEGER NOT NULL,
    hash TEXT NOT NULL,
    type TEXT NOT NULL,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount BIGINT NOT NULL,
    target TEXT NOT NULL,
    username TEXT NOT NULL,
    nonce BIGINT NOT NULL,
    code BIGINT NOT NULL,
    log TEXT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (height, tx_index)
);
CREATE INDEX chain_txs_hash ON chain_txs (hash);
CREATE INDEX chain_txs_sender ON chain_txs (sender, height, tx_index);
CREATE INDEX chain_txs_recipient ON chain_txs (recipient, height, tx_index);
CREATE INDEX chain_txs_type ON chain_txs (type, height, tx_index);
CREATE INDEX chain_txs_target ON chain_txs (target, height, tx_index);

CREATE TABLE chain_accounts (
    address TEXT PRIMARY KEY,
    balance BIGINT NOT NULL CHECK (balance >= 0),
    staked BIGINT NOT NULL CHECK (staked >= 0),
    unbonding BIGINT NOT NULL CHECK (unbonding >= 0),
    nonce BIGINT NOT NULL CHECK (nonce >= 0),
    -- the claimed username; NULL while the account has its default name
    username TEXT,
    default_name TEXT NOT NULL,
    created_height BIGINT NOT NULL
);
CREATE UNIQUE INDEX chain_accounts_username ON chain_accounts (lower(username));
CREATE INDEX chain_accounts_default_name ON chain_accounts (default_name);

CREATE TABLE chain_index (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    height BIGINT NOT NULL,
    chain_id TEXT NOT NULL,
    genesis_hash TEXT NOT NULL,
    genesis_time_ns BIGINT NOT NULL
);

-- +goose Down
DROP TABLE chain_index;
DROP TABLE chain_accounts;
DROP TABLE chain_txs;
DROP TABLE chain_blocks;
