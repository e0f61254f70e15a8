-- +goose Up
-- The community forum, projected from the forum.* forge actions: topics,
-- their replies (posts) and the text each edit replaced (revisions). Lists
-- read topics pinned first, then by latest activity (last_post_height),
-- in a category or all; a topic's posts are read in id order.
CREATE TABLE forum_topics (
    id                BIGINT  NOT NULL PRIMARY KEY,
    category          TEXT    NOT NULL,
    title             TEXT    NOT NULL,
    lower_title       TEXT    NOT NULL,
    body              TEXT    NOT NULL,
    author            TEXT    NOT NULL,
    pinned            BOOLEAN NOT NULL DEFAULT FALSE,
    locked            BOOLEAN NOT NULL DEFAULT FALSE,
    answer_post_id    BIGINT  NOT NULL DEFAULT 0,
    reply_count       BIGINT  NOT NULL DEFAULT 0,
    revisions         BIGINT  NOT NULL DEFAULT 0,
    created_height    BIGINT  NOT NULL,
    created_time_ns   BIGINT  NOT NULL,
    updated_height    BIGINT  NOT NULL,
    updated_time_ns   BIGINT  NOT NULL,
    last_post_height  BIGINT  NOT NULL,
    last_post_time_ns BIGINT  NOT NULL
);
CREATE INDEX forum_topics_category ON forum_topics (category, pinned DESC, last_post_height DESC, id DESC);
CREATE INDEX forum_topics_activity ON forum_topics (pinned DESC, last_post_height DESC, id DESC);
CREATE INDEX forum_topics_latest ON forum_topics (id DESC);

CREATE TABLE forum_posts (
    id              BIGINT NOT NULL PRIMARY KEY,
    topic_id        BIGINT NOT NULL,
    author          TEXT   NOT NULL,
    body            TEXT   NOT NULL,
    quote_id        BIGINT NOT NULL DEFAULT 0,
    revisions       BIGINT NOT NULL DEFAULT 0,
    created_height  BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height  BIGINT NOT NULL,
    updated_time_ns BIGINT NOT NULL
);
CREATE INDEX forum_posts_topic ON forum_posts (topic_id, id);

-- kind is 'topic' or 'post'; n numbers a target's edits from 1.
CREATE TABLE forum_revisions (
    kind      TEXT   NOT NULL,
    target_id BIGINT NOT NULL,
    n         BIGINT NOT NULL,
    title     TEXT   NOT NULL,
    body      TEXT   NOT NULL,
    editor    TEXT   NOT NULL,
    height    BIGINT NOT NULL,
    time_ns   BIGINT NOT NULL,
    PRIMARY KEY (kind, target_id, n)
);

-- +goose Down
DROP TABLE forum_revisions;
DROP TABLE forum_posts;
DROP TABLE forum_topics;
