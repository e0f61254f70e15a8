-- +goose Up
-- The manifest of a push's big objects (git objects over 1 MiB, stored as
-- UnixFS files too): the CID of the dag-cbor block mapping their ids to
-- their UnixFS roots, on each ref update of the push ('' for none). A
-- replica walking a repository over bitswap reads those objects in chunks.
ALTER TABLE forge_ref_updates ADD COLUMN manifest TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_ref_updates DROP COLUMN manifest;
