-- +goose Up
-- Who signed each repository, label, milestone and release (issue 22), as
-- 00040 keeps for issues and comments: the key that signed the creating
-- action and the delegation it acted under ('' when the owner signed it).
-- Records projected before carry '' until the projection is rebuilt.
ALTER TABLE forge_repos ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_repos ADD COLUMN delegation TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_labels ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_labels ADD COLUMN delegation TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_milestones ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_milestones ADD COLUMN delegation TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_releases ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_releases ADD COLUMN delegation TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_repos DROP COLUMN signer;
ALTER TABLE forge_repos DROP COLUMN delegation;
ALTER TABLE forge_labels DROP COLUMN signer;
ALTER TABLE forge_labels DROP COLUMN delegation;
ALTER TABLE forge_milestones DROP COLUMN signer;
ALTER TABLE forge_milestones DROP COLUMN delegation;
ALTER TABLE forge_releases DROP COLUMN signer;
ALTER TABLE forge_releases DROP COLUMN delegation;
