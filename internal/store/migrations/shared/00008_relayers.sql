-- +goose Up
-- The operator whose node relayed each ref update and each repository's
-- creation (the forge transaction's sender; '' for private rows and for
-- rows projected before this column, until a reindex). A node replicating
-- a public repository fetches from that node first, and leaves alone what
-- its own node relayed: its git data moved there before the chain's did.
ALTER TABLE forge_ref_updates ADD COLUMN relayer TEXT NOT NULL DEFAULT '';
ALTER TABLE forge_repos ADD COLUMN relayer TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_repos DROP COLUMN relayer;
ALTER TABLE forge_ref_updates DROP COLUMN relayer;
