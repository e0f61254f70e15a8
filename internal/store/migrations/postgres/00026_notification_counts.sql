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
CREATE FUNCTION notifications_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE notification_counts SET threads = threads - 1
        WHERE user_address = OLD.user_address AND subject_type = OLD.subject_type AND reason = OLD.reason
            AND unread = OLD.unread AND pinned = OLD.pinned;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
        VALUES (NEW.user_address, NEW.subject_type, NEW.reason, NEW.unread, NEW.pinned, 1)
        ON CONFLICT (user_address, subject_type, reason, unread, pinned)
        DO UPDATE SET threads = notification_counts.threads + 1;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_count();
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_count();
CREATE TRIGGER notifications_count_update AFTER UPDATE OF user_address, subject_type, reason, unread, pinned ON notifications
    FOR EACH ROW WHEN (OLD.user_address <> NEW.user_address OR OLD.subject_type <> NEW.subject_type
        OR OLD.reason <> NEW.reason OR OLD.unread <> NEW.unread OR OLD.pinned <> NEW.pinned)
    EXECUTE FUNCTION notifications_count();

-- +goose Down
CREATE INDEX notifications_user ON notifications (user_address, updated_ns DESC, id DESC);
DROP INDEX notifications_list;
DROP TRIGGER notifications_count_update ON notifications;
DROP TRIGGER notifications_count_delete ON notifications;
DROP TRIGGER notifications_count_insert ON notifications;
DROP FUNCTION notifications_count();
DROP TABLE notification_counts;
