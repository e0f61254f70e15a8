-- +goose Up
-- Draft releases (issue 23): kept on this node until published, never on
-- chain, so a draft's title, notes, tag and assets are its writers' alone.
-- Not projection tables: a rebuild of the projection keeps them. Publishing
-- relays release.create and sets published_id to the chain release's id;
-- the row then only maps the draft's id to it (the tag is free again). An
-- asset's bytes are in the node's private files by sha256.
CREATE TABLE release_drafts (
    id {{ID}},
    repo_id      BIGINT  NOT NULL,
    tag_name     TEXT    NOT NULL,
    target       TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    note         TEXT    NOT NULL,
    prerelease   BOOLEAN NOT NULL,
    author       TEXT    NOT NULL,
    created_ns   BIGINT  NOT NULL,
    updated_ns   BIGINT  NOT NULL,
    published_id BIGINT  NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX release_drafts_tag ON release_drafts (repo_id, tag_name) WHERE published_id = 0;

CREATE TABLE release_draft_assets (
    id {{ID}},
    draft_id   BIGINT NOT NULL,
    name       TEXT   NOT NULL,
    size       BIGINT NOT NULL,
    sha256     TEXT   NOT NULL,
    uploader   TEXT   NOT NULL,
    created_ns BIGINT NOT NULL
);
CREATE INDEX release_draft_assets_draft ON release_draft_assets (draft_id, id);
CREATE INDEX release_draft_assets_sha256 ON release_draft_assets (sha256);

-- +goose Down
DROP TABLE release_draft_assets;
DROP TABLE release_drafts;
