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

-- +goose StatementBegin
CREATE TRIGGER forge_comments_count_insert AFTER INSERT ON forge_comments WHEN NOT new.deleted BEGIN
    INSERT INTO forge_comment_counts (repo_id, number, comments) VALUES (new.repo_id, new.number, 1), (new.repo_id, 0, 1)
    ON CONFLICT (repo_id, number) DO UPDATE SET comments = comments + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_comments_count_delete AFTER DELETE ON forge_comments WHEN NOT old.deleted BEGIN
    UPDATE forge_comment_counts SET comments = comments - 1
    WHERE repo_id = old.repo_id AND number IN (old.number, 0);
    DELETE FROM forge_comment_counts
    WHERE repo_id = old.repo_id AND number IN (old.number, 0) AND comments <= 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_comments_count_update AFTER UPDATE OF repo_id, number, deleted ON forge_comments
WHEN old.repo_id <> new.repo_id OR old.number <> new.number OR old.deleted <> new.deleted BEGIN
    UPDATE forge_comment_counts SET comments = comments - 1
    WHERE NOT old.deleted AND repo_id = old.repo_id AND number IN (old.number, 0);
    DELETE FROM forge_comment_counts
    WHERE repo_id = old.repo_id AND number IN (old.number, 0) AND comments <= 0;
    INSERT INTO forge_comment_counts (repo_id, number, comments) SELECT new.repo_id, new.number, 1 WHERE NOT new.deleted
    ON CONFLICT (repo_id, number) DO UPDATE SET comments = comments + 1;
    INSERT INTO forge_comment_counts (repo_id, number, comments) SELECT new.repo_id, 0, 1 WHERE NOT new.deleted
    ON CONFLICT (repo_id, number) DO UPDATE SET comments = comments + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_comments_count_update;
DROP TRIGGER forge_comments_count_delete;
DROP TRIGGER forge_comments_count_insert;
DROP TABLE forge_comment_counts;
