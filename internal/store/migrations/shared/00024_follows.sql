-- +goose Up
-- Who follows whom (user.follow, user.unfollow), projected from the chain.
-- Keyed by follower first: the feed of followed accounts (issue 15) reads
-- it by follower; the index on followed serves follower lists and counts.
CREATE TABLE forge_follows (
    follower TEXT   NOT NULL,
    followed TEXT   NOT NULL,
    height   BIGINT NOT NULL,
    time_ns  BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX forge_follows_followed ON forge_follows (followed);

-- +goose Down
DROP TABLE forge_follows;
