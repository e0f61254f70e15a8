-- +goose Up
-- Manifests of big objects recorded after their push (repo.manifest): the
-- node that took the push builds one while it stores the push's objects as
-- blocks. A replica reads these and those on forge_ref_updates.
CREATE TABLE forge_manifests (
    repo_id  BIGINT NOT NULL,
    manifest TEXT   NOT NULL,
    height   BIGINT NOT NULL,
    PRIMARY KEY (repo_id, manifest)
);

-- +goose Down
DROP TABLE forge_manifests;
