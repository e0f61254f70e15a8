-- +goose Up
-- Who signed the forge action that made each timeline event (issue 22), as
-- 00040 and 00076 keep for the records themselves: the key that signed it
-- and the delegation it acted under ('' when the actor signed it). Events
-- projected before carry '' until the projection is rebuilt.
ALTER TABLE forge_timeline ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_timeline ADD COLUMN delegation TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_timeline DROP COLUMN signer;
ALTER TABLE forge_timeline DROP COLUMN delegation;
