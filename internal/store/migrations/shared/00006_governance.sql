-- +goose Up
-- Governance, rewards and reputation in the chain's SQL projection,
-- written only by internal/index from the chain's Proposal, Reward and
-- Epoch events. Like the other chain tables they are a view: `dforge
-- reindex` empties them and replays every block. Amounts and voting power
-- are micro-units; times are a block's time in Unix nanoseconds.

-- A proposal as its latest Proposal event has it (gov.Proposal).
CREATE TABLE gov_proposals (
    id BIGINT PRIMARY KEY,
    proposer TEXT NOT NULL,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    -- the payload as submitted: a JSON object of strings
    payload TEXT NOT NULL,
    deposit BIGINT NOT NULL,
    status TEXT NOT NULL,
    failure TEXT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    -- the block at whose start voting ends: votes are taken before it
    voting_end_height BIGINT NOT NULL,
    -- when a passed proposal with an effect executes; 0 for none
    execute_height BIGINT NOT NULL,
    -- when its vote was tallied; NULL while active
    ended_height BIGINT,
    quorum_bps BIGINT NOT NULL,
    threshold_bps BIGINT NOT NULL,
    total_power BIGINT NOT NULL,
    yes_power BIGINT NOT NULL,
    no_power BIGINT NOT NULL,
    abstain_power BIGINT NOT NULL,
    voters BIGINT NOT NULL,
    updated_height BIGINT NOT NULL
);
CREATE INDEX gov_proposals_status ON gov_proposals (status, id);

-- Each account's current vote on a proposal; a changed vote replaces it.
CREATE TABLE gov_votes (
    proposal BIGINT NOT NULL,
    voter TEXT NOT NULL,
    option TEXT NOT NULL,
    power BIGINT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (proposal, voter)
);
CREATE INDEX gov_votes_height ON gov_votes (proposal, height);

-- Every contribution's reward outcome (rewards.Outcome), withheld ones
-- included; seq is its place among the block's rewards.
CREATE TABLE chain_rewards (
    height BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    account TEXT NOT NULL,
    kind TEXT NOT NULL,
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    sha TEXT NOT NULL,
    base BIGINT NOT NULL,
    multiplier_bps BIGINT NOT NULL,
    minted BIGINT NOT NULL,
    treasury BIGINT NOT NULL,
    withheld BIGINT NOT NULL,
    reason TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    -- the account's reputation score after this reward
    reputation BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (height, seq)
);
CREATE INDEX chain_rewards_account ON chain_rewards (account, height);
CREATE INDEX chain_rewards_epoch ON chain_rewards (epoch);
CREATE INDEX chain_rewards_time ON chain_rewards (time_ns);

-- The block each reward epoch began in; epoch 0 begins with the chain
-- and has no row.
CREATE TABLE chain_epochs (
    epoch BIGINT PRIMARY KEY,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);

-- +goose Down
DROP TABLE chain_epochs;
DROP TABLE chain_rewards;
DROP TABLE gov_votes;
DROP TABLE gov_proposals;
