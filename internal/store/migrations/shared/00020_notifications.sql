-- +goose Up
-- Notifications: one thread per user and subject (an issue or pull
-- request, a transfer), derived by the indexer from projected chain events
-- in the block's own transaction, so every node derives the same threads
-- and a rebuild derives them again. unread and pinned are the node-local
-- read state: never on chain.
CREATE TABLE notifications (
    id {{ID}},
    user_address TEXT    NOT NULL,
    thread       TEXT    NOT NULL,
    repo_id      BIGINT  NOT NULL,
    number       BIGINT  NOT NULL,
    subject_type TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    actor        TEXT    NOT NULL,
    comment_id   BIGINT  NOT NULL,
    amount       BIGINT  NOT NULL,
    unread       BOOLEAN NOT NULL,
    pinned       BOOLEAN NOT NULL DEFAULT FALSE,
    height       BIGINT  NOT NULL,
    updated_ns   BIGINT  NOT NULL,
    UNIQUE (user_address, thread)
);
CREATE INDEX notifications_user ON notifications (user_address, updated_ns DESC, id DESC);
CREATE INDEX notifications_status ON notifications (user_address, unread, pinned, reason);

-- +goose Down
DROP TABLE notifications;
