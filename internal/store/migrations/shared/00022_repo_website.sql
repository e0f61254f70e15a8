-- +goose Up
-- A repository's website (repo.update's website), projected from its record.
ALTER TABLE forge_repos ADD COLUMN website TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_repos DROP COLUMN website;
