-- +goose Up
-- A user's notification counters gain the repository: the total of one
-- repository's threads (Gitea's GET /repos/{o}/{r}/notifications, the
-- notification page's repository filter) and of the public ones only (a
-- token without private scope) become a sum of counter rows, as the
-- unfiltered totals are (migration 00026), instead of a count of the
-- threads themselves. The unread badge sums a row per repository, kind,
-- reason and state: still a handful per user. The triggers keep 00026's
-- shape (statement triggers for inserts and deletes, a row trigger that
-- dforge.recount silences for a mark of many threads).
DROP TRIGGER notifications_count_update ON notifications;
DROP TRIGGER notifications_count_delete ON notifications;
DROP TRIGGER notifications_count_insert ON notifications;
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
CREATE OR REPLACE FUNCTION notifications_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
    SELECT user_address, repo_id, subject_type, reason, unread, pinned, COUNT(*) FROM new_rows
    GROUP BY user_address, repo_id, subject_type, reason, unread, pinned
    ON CONFLICT (user_address, repo_id, subject_type, reason, unread, pinned)
    DO UPDATE SET threads = notification_counts.threads + excluded.threads;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION notifications_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE notification_counts c SET threads = c.threads - d.n
    FROM (SELECT user_address, repo_id, subject_type, reason, unread, pinned, COUNT(*) AS n FROM old_rows
          GROUP BY user_address, repo_id, subject_type, reason, unread, pinned) d
    WHERE c.user_address = d.user_address AND c.repo_id = d.repo_id AND c.subject_type = d.subject_type
        AND c.reason = d.reason AND c.unread = d.unread AND c.pinned = d.pinned;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION notifications_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A mark of many threads recounts their user at its end instead
    -- (index.MarkNotifications).
    IF current_setting('dforge.recount', true) = 'on' THEN
        RETURN NULL;
    END IF;
    UPDATE notification_counts SET threads = threads - 1
    WHERE user_address = OLD.user_address AND repo_id = OLD.repo_id AND subject_type = OLD.subject_type
        AND reason = OLD.reason AND unread = OLD.unread AND pinned = OLD.pinned;
    INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
    VALUES (NEW.user_address, NEW.repo_id, NEW.subject_type, NEW.reason, NEW.unread, NEW.pinned, 1)
    ON CONFLICT (user_address, repo_id, subject_type, reason, unread, pinned)
    DO UPDATE SET threads = notification_counts.threads + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_add();
CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_remove();
CREATE TRIGGER notifications_count_update AFTER UPDATE OF user_address, repo_id, subject_type, reason, unread, pinned ON notifications
    FOR EACH ROW WHEN (OLD.user_address <> NEW.user_address OR OLD.repo_id <> NEW.repo_id OR OLD.subject_type <> NEW.subject_type
        OR OLD.reason <> NEW.reason OR OLD.unread <> NEW.unread OR OLD.pinned <> NEW.pinned)
    EXECUTE FUNCTION notifications_count_row();

-- +goose Down
DROP TRIGGER notifications_count_update ON notifications;
DROP TRIGGER notifications_count_delete ON notifications;
DROP TRIGGER notifications_count_insert ON notifications;
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
CREATE OR REPLACE FUNCTION notifications_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION notifications_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION notifications_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
