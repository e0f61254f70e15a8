-- +goose Up
-- Counters of the activity rows per repository (issue 27), so the total of
-- the activity lists that pick by repository alone (the home page's public
-- list, a repository's feed) is a row or a sum over the readable
-- repositories instead of a COUNT(*) over every action, again after every
-- block. Triggers keep them in the same transaction as every insert and
-- delete of forge_activity (the projection, a deleted repository, a
-- reset); a row's repository never changes. A counter that falls to zero
-- is deleted, so a projection rebuilt in place holds the same rows as a
-- fresh one.
CREATE TABLE forge_activity_counts (
    repo_id BIGINT NOT NULL PRIMARY KEY,
    actions BIGINT NOT NULL
);
INSERT INTO forge_activity_counts (repo_id, actions)
    SELECT repo_id, COUNT(*) FROM forge_activity GROUP BY repo_id;

-- +goose StatementBegin
CREATE TRIGGER forge_activity_count_insert AFTER INSERT ON forge_activity BEGIN
    INSERT INTO forge_activity_counts (repo_id, actions) VALUES (new.repo_id, 1)
    ON CONFLICT (repo_id) DO UPDATE SET actions = actions + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_activity_count_delete AFTER DELETE ON forge_activity BEGIN
    UPDATE forge_activity_counts SET actions = actions - 1 WHERE repo_id = old.repo_id;
    DELETE FROM forge_activity_counts WHERE repo_id = old.repo_id AND actions <= 0;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_activity_count_delete;
DROP TRIGGER forge_activity_count_insert;
DROP TABLE forge_activity_counts;
