-- +goose Up
-- Counters of the activity rows per repository and actor (issue 27), so
-- the total of the activity lists that pick by repository and actor (the
-- home page's public list, a repository's feed, an account's actions) is a
-- sum over the readable repositories' rows instead of a COUNT(*) over every
-- action, again after every block. Triggers keep them in the same
-- transaction as every insert and delete of forge_activity (the
-- projection, a deleted repository, a reset); a row's repository and actor
-- never change. A counter that falls to zero is deleted, so a projection
-- rebuilt in place holds the same rows as a fresh one.
CREATE TABLE forge_activity_counts (
    repo_id BIGINT NOT NULL,
    actor   TEXT   NOT NULL,
    actions BIGINT NOT NULL,
    PRIMARY KEY (repo_id, actor)
);
-- An account's actions across repositories.
CREATE INDEX forge_activity_counts_actor ON forge_activity_counts (actor);
INSERT INTO forge_activity_counts (repo_id, actor, actions)
    SELECT repo_id, actor, COUNT(*) FROM forge_activity GROUP BY repo_id, actor;

-- Statement triggers over transition tables: a reset or a deleted
-- repository removes many rows in one statement.
-- +goose StatementBegin
CREATE FUNCTION forge_activity_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forge_activity_counts (repo_id, actor, actions)
    SELECT repo_id, actor, COUNT(*) FROM new_rows GROUP BY repo_id, actor
    ON CONFLICT (repo_id, actor) DO UPDATE SET actions = forge_activity_counts.actions + excluded.actions;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_activity_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_activity_counts c SET actions = c.actions - d.n
    FROM (SELECT repo_id, actor, COUNT(*) AS n FROM old_rows GROUP BY repo_id, actor) d
    WHERE c.repo_id = d.repo_id AND c.actor = d.actor;
    DELETE FROM forge_activity_counts WHERE actions <= 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forge_activity_count_insert AFTER INSERT ON forge_activity
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_activity_count_add();
CREATE TRIGGER forge_activity_count_delete AFTER DELETE ON forge_activity
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_activity_count_remove();

-- +goose Down
DROP TRIGGER forge_activity_count_delete ON forge_activity;
DROP TRIGGER forge_activity_count_insert ON forge_activity;
DROP FUNCTION forge_activity_count_remove();
DROP FUNCTION forge_activity_count_add();
DROP INDEX forge_activity_counts_actor;
DROP TABLE forge_activity_counts;
