-- +goose Up
-- Treasury grants in the chain's SQL projection, written only by
-- internal/index from the Proposal events of grant proposals (proposed,
-- rejected) and the Grant events (active, completed, expired, each
-- approval and release). Like the other chain tables they are a view:
-- `dforge reindex` empties them and replays every block. Amounts are
-- micro-units.

-- A grant: id is its proposal's. status is proposed (voted on, or passed
-- and waiting to execute), rejected (the vote failed, or its execution
-- did: failure says why), active, completed or expired.
CREATE TABLE grants (
    id BIGINT PRIMARY KEY,
    title TEXT NOT NULL,
    proposer TEXT NOT NULL,
    status TEXT NOT NULL,
    failure TEXT NOT NULL,
    total BIGINT NOT NULL,
    released BIGINT NOT NULL,
    -- what went back to the treasury at expiry
    refunded BIGINT NOT NULL,
    -- the block at whose start it expires
    expiry BIGINT NOT NULL,
    -- the reviewers' checksummed addresses, comma-separated, in order
    reviewers TEXT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL
);
CREATE INDEX grants_status ON grants (status, id);

CREATE TABLE grant_milestones (
    grant_id BIGINT NOT NULL,
    -- its place in the grant, from 0, as GrantApprove names it
    milestone INTEGER NOT NULL,
    description TEXT NOT NULL,
    amount BIGINT NOT NULL,
    recipient TEXT NOT NULL,
    released BOOLEAN NOT NULL,
    -- 0 until released
    released_height BIGINT NOT NULL,
    PRIMARY KEY (grant_id, milestone)
);
CREATE INDEX grant_milestones_recipient ON grant_milestones (recipient);

-- Each reviewer's approval of a milestone.
CREATE TABLE grant_approvals (
    grant_id BIGINT NOT NULL,
    milestone INTEGER NOT NULL,
    reviewer TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (grant_id, milestone, reviewer)
);

-- +goose Down
DROP TABLE grant_approvals;
DROP TABLE grant_milestones;
DROP TABLE grants;
