-- +goose Up
-- The marketplace (listing.publish|update|delete, listing.install|
-- uninstall), projected from the chain: listings and the public
-- repositories they are installed in. A deleted listing keeps its row
-- (deleted = true, hidden from the lists) so its installs still name it.
-- Events are the listing's webhook events joined with commas.
CREATE TABLE market_listings (
    id              BIGINT  PRIMARY KEY,
    publisher       TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    lower_name      TEXT    NOT NULL,
    description     TEXT    NOT NULL,
    events          TEXT    NOT NULL,
    url_template    TEXT    NOT NULL,
    homepage        TEXT    NOT NULL,
    deleted         BOOLEAN NOT NULL,
    created_height  BIGINT  NOT NULL,
    created_time_ns BIGINT  NOT NULL,
    updated_height  BIGINT  NOT NULL,
    updated_time_ns BIGINT  NOT NULL
);
CREATE INDEX market_listings_publisher ON market_listings (publisher);

-- One row per repository a listing is installed in: the listing's install
-- count is the number of its rows. Deleted with the repository.
CREATE TABLE market_installs (
    listing_id BIGINT NOT NULL,
    repo_id    BIGINT NOT NULL,
    installer  TEXT   NOT NULL,
    height     BIGINT NOT NULL,
    time_ns    BIGINT NOT NULL,
    PRIMARY KEY (listing_id, repo_id)
);
CREATE INDEX market_installs_repo ON market_installs (repo_id);

-- Node-local, not the chain's (a rebuild keeps it): the webhook this node
-- created for an install it relayed, so uninstalling removes that hook.
CREATE TABLE market_hooks (
    listing_id BIGINT NOT NULL,
    repo_id    BIGINT NOT NULL,
    hook_id    BIGINT NOT NULL,
    PRIMARY KEY (listing_id, repo_id)
);

-- +goose Down
DROP TABLE market_hooks;
DROP TABLE market_installs;
DROP TABLE market_listings;
