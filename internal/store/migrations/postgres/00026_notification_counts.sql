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

-- Statement-level triggers with transition tables: a statement that
-- writes many threads of one user (a mark of all as read, a reset) moves
-- each counter once by the number of its rows. A row-level trigger would
-- update the same counter row once per thread, and PostgreSQL keeps every
-- version of a row updated within one transaction: quadratic.
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
CREATE FUNCTION notifications_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only the rows whose counted columns changed move between counters.
    UPDATE notification_counts c SET threads = c.threads - d.n
    FROM (SELECT o.user_address, o.subject_type, o.reason, o.unread, o.pinned, COUNT(*) AS n
          FROM old_rows o JOIN new_rows w ON w.id = o.id
          WHERE (o.user_address, o.subject_type, o.reason, o.unread, o.pinned)
              IS DISTINCT FROM (w.user_address, w.subject_type, w.reason, w.unread, w.pinned)
          GROUP BY o.user_address, o.subject_type, o.reason, o.unread, o.pinned) d
    WHERE c.user_address = d.user_address AND c.subject_type = d.subject_type AND c.reason = d.reason
        AND c.unread = d.unread AND c.pinned = d.pinned;
    INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
    SELECT w.user_address, w.subject_type, w.reason, w.unread, w.pinned, COUNT(*)
    FROM new_rows w JOIN old_rows o ON o.id = w.id
    WHERE (o.user_address, o.subject_type, o.reason, o.unread, o.pinned)
        IS DISTINCT FROM (w.user_address, w.subject_type, w.reason, w.unread, w.pinned)
    GROUP BY w.user_address, w.subject_type, w.reason, w.unread, w.pinned
    ON CONFLICT (user_address, subject_type, reason, unread, pinned)
    DO UPDATE SET threads = notification_counts.threads + excluded.threads;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_add();
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_remove();
CREATE TRIGGER notifications_count_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_move();

-- +goose Down
CREATE INDEX notifications_user ON notifications (user_address, updated_ns DESC, id DESC);
DROP INDEX notifications_list;
DROP TRIGGER notifications_count_update ON notifications;
DROP TRIGGER notifications_count_delete ON notifications;
DROP TRIGGER notifications_count_insert ON notifications;
DROP FUNCTION notifications_count_move();
DROP FUNCTION notifications_count_remove();
DROP FUNCTION notifications_count_add();
DROP TABLE notification_counts;
