-- +goose Up
-- Issue bounties, projected from the chain's Bounty events (internal/chain/
-- bounty): one row per funded issue in its latest state, and its funders'
-- open shares (kept as they were when a merge paid the bounty, for its
-- history). Rebuilt with the rest of the chain tables by reindex.
CREATE TABLE bounties (
    repo_id        BIGINT NOT NULL,
    number         BIGINT NOT NULL,
    status         TEXT   NOT NULL,
    total          BIGINT NOT NULL,
    funders        BIGINT NOT NULL,
    expiry         BIGINT NOT NULL,
    paid_to        TEXT   NOT NULL DEFAULT '',
    paid_amount    BIGINT NOT NULL DEFAULT 0,
    paid_height    BIGINT NOT NULL DEFAULT 0,
    paid_time_ns   BIGINT NOT NULL DEFAULT 0,
    created_height BIGINT NOT NULL,
    updated_height BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number)
);
CREATE INDEX bounties_open ON bounties (status, total, repo_id, number);
CREATE INDEX bounties_paid ON bounties (status, paid_height, repo_id, number);

CREATE TABLE bounty_funders (
    repo_id BIGINT NOT NULL,
    number  BIGINT NOT NULL,
    seq     BIGINT NOT NULL,
    funder  TEXT   NOT NULL,
    amount  BIGINT NOT NULL,
    expiry  BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number, seq)
);

-- +goose Down
DROP TABLE bounty_funders;
DROP TABLE bounties;
