-- +goose Up
-- Per-user counters of notification threads, by subject type, reason and
-- read state, so the list's total (X-Total-Count) and the unread badge
-- are a sum over a handful of rows instead of a COUNT(*) over a user's
-- whole history. Triggers keep them in the same transaction as every
-- insert, mark and delete of a thread (the projection, marks, a reset,
-- node-local notifications), so no writer can forget them.
CREATE TABLE notification_counts (
    user_address TEXT    NOT NULL,
    subject_type TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    unread       BOOLEAN NOT NULL,
    pinned       BOOLEAN NOT NULL,
    threads      BIGINT  NOT NULL,
    PRIMARY KEY (user_address, subject_type, reason, unread, pinned)
);
INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    SELECT user_address, subject_type, reason, unread, pinned, COUNT(*) FROM notifications
    GROUP BY user_address, subject_type, reason, unread, pinned;

-- The list walks a user's threads newest first and filters them by read
-- state, kind and reason: with those columns in the index, the rows a
-- page skips (its OFFSET) and the ones a filter drops are decided from the
-- index alone, without a read of the table.
CREATE INDEX notifications_list ON notifications (user_address, updated_ns DESC, id DESC, unread, pinned, subject_type, reason, repo_id);
DROP INDEX notifications_user;

-- +goose StatementBegin
CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications BEGIN
    INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    VALUES (new.user_address, new.subject_type, new.reason, new.unread, new.pinned, 1)
    ON CONFLICT (user_address, subject_type, reason, unread, pinned) DO UPDATE SET threads = threads + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications BEGIN
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = old.user_address AND subject_type = old.subject_type AND reason = old.reason
        AND unread = old.unread AND pinned = old.pinned;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER notifications_count_update AFTER UPDATE OF user_address, subject_type, reason, unread, pinned ON notifications
WHEN old.user_address <> new.user_address OR old.subject_type <> new.subject_type OR old.reason <> new.reason
    OR old.unread <> new.unread OR old.pinned <> new.pinned BEGIN
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = old.user_address AND subject_type = old.subject_type AND reason = old.reason
        AND unread = old.unread AND pinned = old.pinned;
    INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    VALUES (new.user_address, new.subject_type, new.reason, new.unread, new.pinned, 1)
    ON CONFLICT (user_address, subject_type, reason, unread, pinned) DO UPDATE SET threads = threads + 1;
END;
-- +goose StatementEnd

-- +goose Down
CREATE INDEX notifications_user ON notifications (user_address, updated_ns DESC, id DESC);
DROP INDEX notifications_list;
DROP TRIGGER notifications_count_update;
DROP TRIGGER notifications_count_delete;
DROP TRIGGER notifications_count_insert;
DROP TABLE notification_counts;
