-- +goose Up
-- Releases, their assets and Git LFS objects, projected from release.* and
-- repo.lfs actions. The bytes are UnixFS files in the blockstore, named by
-- cid; a replica fetches them by these rows.
CREATE TABLE forge_releases (
    id              BIGINT  NOT NULL PRIMARY KEY,
    repo_id         BIGINT  NOT NULL,
    tag_name        TEXT    NOT NULL,
    target          TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    note            TEXT    NOT NULL,
    draft           BOOLEAN NOT NULL,
    prerelease      BOOLEAN NOT NULL,
    publisher       TEXT    NOT NULL,
    created_height  BIGINT  NOT NULL,
    created_time_ns BIGINT  NOT NULL,
    updated_time_ns BIGINT  NOT NULL
);
CREATE INDEX forge_releases_repo ON forge_releases (repo_id, id);
CREATE UNIQUE INDEX forge_releases_tag ON forge_releases (repo_id, tag_name);

CREATE TABLE forge_release_assets (
    id              BIGINT NOT NULL PRIMARY KEY,
    repo_id         BIGINT NOT NULL,
    release_id      BIGINT NOT NULL,
    name            TEXT   NOT NULL,
    size            BIGINT NOT NULL,
    cid             TEXT   NOT NULL,
    sha256          TEXT   NOT NULL,
    uploader        TEXT   NOT NULL,
    created_time_ns BIGINT NOT NULL
);
CREATE INDEX forge_release_assets_release ON forge_release_assets (release_id, id);
CREATE INDEX forge_release_assets_repo ON forge_release_assets (repo_id);

CREATE TABLE forge_lfs_objects (
    repo_id BIGINT NOT NULL,
    oid     TEXT   NOT NULL,
    size    BIGINT NOT NULL,
    cid     TEXT   NOT NULL,
    height  BIGINT NOT NULL,
    PRIMARY KEY (repo_id, oid)
);

-- How often this node served each asset: node-local, never on chain, so
-- not a projection table (a rebuild keeps it).
CREATE TABLE release_asset_downloads (
    asset_id BIGINT NOT NULL PRIMARY KEY,
    count    BIGINT NOT NULL
);

-- +goose Down
DROP TABLE release_asset_downloads;
DROP TABLE forge_lfs_objects;
DROP TABLE forge_release_assets;
DROP TABLE forge_releases;
