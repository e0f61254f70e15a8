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

-- +goose StatementBegin
CREATE TRIGGER forge_activity_count_insert AFTER INSERT ON forge_activity BEGIN
    INSERT INTO forge_activity_counts (repo_id, actor, actions) VALUES (new.repo_id, new.actor, 1)
    ON CONFLICT (repo_id, actor) DO UPDATE SET actions = actions + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_activity_count_delete AFTER DELETE ON forge_activity BEGIN
    UPDATE forge_activity_counts SET actions = actions - 1 WHERE repo_id = old.repo_id AND actor = old.actor;
    DELETE FROM forge_activity_counts WHERE repo_id = old.repo_id AND actor = old.actor AND actions <= 0;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_activity_count_delete;
DROP TRIGGER forge_activity_count_insert;
DROP INDEX forge_activity_counts_actor;
DROP TABLE forge_activity_counts;
