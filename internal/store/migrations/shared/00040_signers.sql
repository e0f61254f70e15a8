-- +goose Up
-- Who signed each issue, pull request and comment (issue 22): the key that
-- signed the creating action and the delegation it acted under ('' when
-- the author signed it), from the Forge event under the own-keys rules.
-- Records projected before carry ''.
ALTER TABLE forge_issues ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_issues ADD COLUMN delegation TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_comments ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_comments ADD COLUMN delegation TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_issues DROP COLUMN signer;
ALTER TABLE forge_issues DROP COLUMN delegation;
ALTER TABLE forge_comments DROP COLUMN signer;
ALTER TABLE forge_comments DROP COLUMN delegation;
