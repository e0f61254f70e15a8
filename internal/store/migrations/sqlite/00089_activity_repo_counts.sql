-- +goose Up
-- Each repository's count of actions (issue 27), beside the counters per
-- repository and actor (00087). The total of the home page's public list,
-- read again by the first reader after every block that adds an action,
-- summed those per-actor counters: one row per account that ever acted in
-- a repository, 200,000 rows in bench-feed, 70 ms. It now sums one row
-- per repository. Triggers keep it in the same transaction as every insert
-- and delete of forge_activity; a counter that falls to zero is deleted,
-- so a projection rebuilt in place holds the same rows as a fresh one.
CREATE TABLE forge_activity_repo_counts (
    repo_id BIGINT NOT NULL PRIMARY KEY,
    actions BIGINT NOT NULL
);
INSERT INTO forge_activity_repo_counts (repo_id, actions)
    SELECT repo_id, COUNT(*) FROM forge_activity GROUP BY repo_id;

-- +goose StatementBegin
CREATE TRIGGER forge_activity_repo_count_insert AFTER INSERT ON forge_activity BEGIN
    INSERT INTO forge_activity_repo_counts (repo_id, actions) VALUES (new.repo_id, 1)
    ON CONFLICT (repo_id) DO UPDATE SET actions = actions + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_activity_repo_count_delete AFTER DELETE ON forge_activity BEGIN
    UPDATE forge_activity_repo_counts SET actions = actions - 1 WHERE repo_id = old.repo_id;
    DELETE FROM forge_activity_repo_counts WHERE repo_id = old.repo_id AND actions <= 0;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_activity_repo_count_delete;
DROP TRIGGER forge_activity_repo_count_insert;
DROP TABLE forge_activity_repo_counts;
