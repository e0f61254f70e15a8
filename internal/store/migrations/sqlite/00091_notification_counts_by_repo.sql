-- +goose Up
-- A user's notification counters gain the repository: the total of one
-- repository's threads (Gitea's GET /repos/{o}/{r}/notifications, the
-- notification page's repository filter) and of the public ones only (a
-- token without private scope) become a sum of counter rows, as the
-- unfiltered totals are (migration 00026), instead of a count of the
-- threads themselves. The unread badge sums a row per repository, kind,
-- reason and state: still a handful per user.
DROP TRIGGER notifications_count_update;
DROP TRIGGER notifications_count_delete;
DROP TRIGGER notifications_count_insert;
DROP TABLE notification_counts;
CREATE TABLE notification_counts (
    user_address TEXT    NOT NULL,
    repo_id      BIGINT  NOT NULL,
    subject_type TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    unread       BOOLEAN NOT NULL,
    pinned       BOOLEAN NOT NULL,
    threads      BIGINT  NOT NULL,
    PRIMARY KEY (user_address, repo_id, subject_type, reason, unread, pinned)
);
INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
    SELECT user_address, repo_id, subject_type, reason, unread, pinned, COUNT(*) FROM notifications
    GROUP BY user_address, repo_id, subject_type, reason, unread, pinned;

-- +goose StatementBegin
CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications BEGIN
    INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
    VALUES (new.user_address, new.repo_id, new.subject_type, new.reason, new.unread, new.pinned, 1)
    ON CONFLICT (user_address, repo_id, subject_type, reason, unread, pinned) DO UPDATE SET threads = threads + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications BEGIN
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = old.user_address AND repo_id = old.repo_id AND subject_type = old.subject_type
        AND reason = old.reason AND unread = old.unread AND pinned = old.pinned;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER notifications_count_update AFTER UPDATE OF user_address, repo_id, subject_type, reason, unread, pinned ON notifications
WHEN old.user_address <> new.user_address OR old.repo_id <> new.repo_id OR old.subject_type <> new.subject_type
    OR old.reason <> new.reason OR old.unread <> new.unread OR old.pinned <> new.pinned BEGIN
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = old.user_address AND repo_id = old.repo_id AND subject_type = old.subject_type
        AND reason = old.reason AND unread = old.unread AND pinned = old.pinned;
    INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
    VALUES (new.user_address, new.repo_id, new.subject_type, new.reason, new.unread, new.pinned, 1)
    ON CONFLICT (user_address, repo_id, subject_type, reason, unread, pinned) DO UPDATE SET threads = threads + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER notifications_count_update;
DROP TRIGGER notifications_count_delete;
DROP TRIGGER notifications_count_insert;
DROP TABLE notification_counts;
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
