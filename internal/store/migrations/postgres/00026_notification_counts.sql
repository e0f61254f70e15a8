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

-- Inserts and deletes (a block's new threads, a reset) are counted by
-- statement triggers over transition tables: one grouped upsert per
-- statement. A thread whose counted columns change moves between counters
-- by a row trigger, which fires only when they change (a new comment on an
-- unread thread changes none). PostgreSQL keeps every version of a row
-- updated within one transaction, so a statement that moves thousands of
-- one user's threads (a mark of all as read) must not update their counter
-- row once each: such a mark sets dforge.recount, which the row trigger
-- honours, and recounts the user at its end.
-- +goose StatementBegin
CREATE FUNCTION notifications_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    SELECT user_address, subject_type, reason, unread, pinned, COUNT(*) FROM new_rows
    GROUP BY user_address, subject_type, reason, unread, pinned
    ON CONFLICT (user_address, subject_type, reason, unread, pinned)
    DO UPDATE SET threads = notification_counts.threads + excluded.threads;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION notifications_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE notification_counts c SET threads = c.threads - d.n
    FROM (SELECT user_address, subject_type, reason, unread, pinned, COUNT(*) AS n FROM old_rows
          GROUP BY user_address, subject_type, reason, unread, pinned) d
    WHERE c.user_address = d.user_address AND c.subject_type = d.subject_type AND c.reason = d.reason
        AND c.unread = d.unread AND c.pinned = d.pinned;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION notifications_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A mark of many threads recounts their user at its end instead
    -- (index.MarkNotifications).
    IF current_setting('dforge.recount', true) = 'on' THEN
        RETURN NULL;
    END IF;
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = OLD.user_address AND subject_type = OLD.subject_type AND reason = OLD.reason
        AND unread = OLD.unread AND pinned = OLD.pinned;
    INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    VALUES (NEW.user_address, NEW.subject_type, NEW.reason, NEW.unread, NEW.pinned, 1)
    ON CONFLICT (user_address, subject_type, reason, unread, pinned)
    DO UPDATE SET threads = notification_counts.threads + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_add();
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_remove();
CREATE TRIGGER notifications_count_update AFTER UPDATE OF user_address, subject_type, reason, unread, pinned ON notifications
    FOR EACH ROW WHEN (OLD.user_address <> NEW.user_address OR OLD.subject_type <> NEW.subject_type
        OR OLD.reason <> NEW.reason OR OLD.unread <> NEW.unread OR OLD.pinned <> NEW.pinned)
    EXECUTE FUNCTION notifications_count_row();

-- +goose Down
CREATE INDEX notifications_user ON notifications (user_address, updated_ns DESC, id DESC);
DROP INDEX notifications_list;
DROP TRIGGER notifications_count_update ON notifications;
DROP TRIGGER notifications_count_delete ON notifications;
DROP TRIGGER notifications_count_insert ON notifications;
DROP FUNCTION notifications_count_row();
DROP FUNCTION notifications_count_remove();
DROP FUNCTION notifications_count_add();
DROP TABLE notification_counts;
