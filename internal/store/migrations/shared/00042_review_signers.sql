-- +goose Up
-- Who signed each pull request review (issue 22), as 00040 keeps for
-- issues and comments: the key that signed the review and the delegation
-- it acted under ('' when the reviewer signed it). Reviews projected
-- before carry ''.
ALTER TABLE forge_reviews ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_reviews ADD COLUMN delegation TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_reviews DROP COLUMN signer;
ALTER TABLE forge_reviews DROP COLUMN delegation;
