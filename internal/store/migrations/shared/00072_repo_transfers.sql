-- +goose Up
-- Pending repository transfers (issue 23, the pending-transfers upgrade):
-- a repository offered to a new owner who has not answered yet. One row
-- per repository, written when the offer is made and deleted when it is
-- accepted, rejected or cancelled, or the repository is deleted; teams is
-- the JSON array of the receiving organization's team ids.
CREATE TABLE forge_repo_transfers (
    repo_id BIGINT PRIMARY KEY,
    doer TEXT NOT NULL,
    recipient TEXT NOT NULL,
    teams TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);
CREATE INDEX forge_repo_transfers_recipient ON forge_repo_transfers (recipient);

-- +goose Down
DROP TABLE forge_repo_transfers;
