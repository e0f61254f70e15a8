-- +goose Up
-- Counters of the comments of each issue and of each repository (issue
-- 27), so the total of a thread's pages (X-Total-Count) and of a
-- repository's comments is one row instead of a COUNT(*) over the index,
-- again after every new comment. A row with number 0 counts the whole
-- repository (issue numbers start at 1). Deleted comments are not
-- counted, as the lists leave them out. Triggers keep the counters in the
-- same transaction as every write of forge_comments (a comment, its
-- deletion, a deleted repository, a reset), as 00083 does for issues; a
-- counter that falls to zero is deleted, so a projection rebuilt in place
-- holds the same rows as a fresh one.
CREATE TABLE forge_comment_counts (
    repo_id  BIGINT NOT NULL,
    number   BIGINT NOT NULL,
    comments BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number)
);
INSERT INTO forge_comment_counts (repo_id, number, comments)
    SELECT repo_id, number, COUNT(*) FROM forge_comments WHERE NOT deleted GROUP BY repo_id, number;
INSERT INTO forge_comment_counts (repo_id, number, comments)
    SELECT repo_id, 0, COUNT(*) FROM forge_comments WHERE NOT deleted GROUP BY repo_id;

-- Inserts and deletes are counted by statement triggers over transition
-- tables: one grouped write per statement, so deleting a repository's
-- thousands of comments does not update its counter once each (a row
-- version each in PostgreSQL). A deletion by the forge (deleted set) is a
-- row trigger, which fires only when a counted column changes.
-- +goose StatementBegin
CREATE FUNCTION forge_comments_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forge_comment_counts (repo_id, number, comments)
    SELECT repo_id, number, COUNT(*) FROM new_rows WHERE NOT deleted GROUP BY repo_id, number
    UNION ALL
    SELECT repo_id, 0, COUNT(*) FROM new_rows WHERE NOT deleted GROUP BY repo_id
    ON CONFLICT (repo_id, number) DO UPDATE SET comments = forge_comment_counts.comments + excluded.comments;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_comments_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_comment_counts c SET comments = c.comments - d.n
    FROM (SELECT repo_id, number, COUNT(*) AS n FROM old_rows WHERE NOT deleted GROUP BY repo_id, number
          UNION ALL
          SELECT repo_id, 0, COUNT(*) FROM old_rows WHERE NOT deleted GROUP BY repo_id) d
    WHERE c.repo_id = d.repo_id AND c.number = d.number;
    DELETE FROM forge_comment_counts c USING (SELECT DISTINCT repo_id FROM old_rows) d
    WHERE c.repo_id = d.repo_id AND c.comments <= 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_comments_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT OLD.deleted THEN
        UPDATE forge_comment_counts SET comments = comments - 1
        WHERE repo_id = OLD.repo_id AND number IN (OLD.number, 0);
        DELETE FROM forge_comment_counts
        WHERE repo_id = OLD.repo_id AND number IN (OLD.number, 0) AND comments <= 0;
    END IF;
    IF NOT NEW.deleted THEN
        INSERT INTO forge_comment_counts (repo_id, number, comments) VALUES (NEW.repo_id, NEW.number, 1), (NEW.repo_id, 0, 1)
        ON CONFLICT (repo_id, number) DO UPDATE SET comments = forge_comment_counts.comments + 1;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forge_comments_count_insert AFTER INSERT ON forge_comments
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_comments_count_add();
CREATE TRIGGER forge_comments_count_delete AFTER DELETE ON forge_comments
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_comments_count_remove();
CREATE TRIGGER forge_comments_count_update AFTER UPDATE OF repo_id, number, deleted ON forge_comments
    FOR EACH ROW WHEN (OLD.repo_id <> NEW.repo_id OR OLD.number <> NEW.number OR OLD.deleted <> NEW.deleted)
    EXECUTE FUNCTION forge_comments_count_row();

-- +goose Down
DROP TRIGGER forge_comments_count_update ON forge_comments;
DROP TRIGGER forge_comments_count_delete ON forge_comments;
DROP TRIGGER forge_comments_count_insert ON forge_comments;
DROP FUNCTION forge_comments_count_row();
DROP FUNCTION forge_comments_count_remove();
DROP FUNCTION forge_comments_count_add();
DROP TABLE forge_comment_counts;
