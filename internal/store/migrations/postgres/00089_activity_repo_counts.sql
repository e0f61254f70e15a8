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

-- Statement triggers over transition tables, as 00087's: a reset or a
-- deleted repository removes many rows in one statement.
-- +goose StatementBegin
CREATE FUNCTION forge_activity_repo_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forge_activity_repo_counts (repo_id, actions)
    SELECT repo_id, COUNT(*) FROM new_rows GROUP BY repo_id
    ON CONFLICT (repo_id) DO UPDATE SET actions = forge_activity_repo_counts.actions + excluded.actions;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_activity_repo_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_activity_repo_counts c SET actions = c.actions - d.n
    FROM (SELECT repo_id, COUNT(*) AS n FROM old_rows GROUP BY repo_id) d
    WHERE c.repo_id = d.repo_id;
    DELETE FROM forge_activity_repo_counts WHERE actions <= 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forge_activity_repo_count_insert AFTER INSERT ON forge_activity
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_activity_repo_count_add();
CREATE TRIGGER forge_activity_repo_count_delete AFTER DELETE ON forge_activity
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_activity_repo_count_remove();

-- +goose Down
DROP TRIGGER forge_activity_repo_count_delete ON forge_activity;
DROP TRIGGER forge_activity_repo_count_insert ON forge_activity;
DROP FUNCTION forge_activity_repo_count_remove();
DROP FUNCTION forge_activity_repo_count_add();
DROP TABLE forge_activity_repo_counts;
