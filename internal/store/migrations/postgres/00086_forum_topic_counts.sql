-- +goose Up
-- Counters of the forum's topics per category (issue 27), so the total of
-- a topic list's pages (the whole forum's, a category's) is a row or a sum
-- over the few categories instead of a COUNT(*) over an index, again after
-- every new topic. A topic's replies are counted on its row already
-- (reply_count). Triggers keep the counters in the same transaction as
-- every insert, move and delete of a topic (the projection, a reset); a
-- counter that falls to zero is deleted, so a projection rebuilt in place
-- holds the same rows as a fresh one.
CREATE TABLE forum_topic_counts (
    category TEXT   NOT NULL PRIMARY KEY,
    topics   BIGINT NOT NULL
);
INSERT INTO forum_topic_counts (category, topics)
    SELECT category, COUNT(*) FROM forum_topics GROUP BY category;

-- Inserts and deletes are counted by statement triggers over transition
-- tables (a reset deletes every topic in one statement), a move between
-- categories by a row trigger that fires only when the category changes.
-- +goose StatementBegin
CREATE FUNCTION forum_topics_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forum_topic_counts (category, topics)
    SELECT category, COUNT(*) FROM new_rows GROUP BY category
    ON CONFLICT (category) DO UPDATE SET topics = forum_topic_counts.topics + excluded.topics;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forum_topics_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forum_topic_counts c SET topics = c.topics - d.n
    FROM (SELECT category, COUNT(*) AS n FROM old_rows GROUP BY category) d
    WHERE c.category = d.category;
    DELETE FROM forum_topic_counts WHERE topics <= 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forum_topics_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forum_topic_counts SET topics = topics - 1 WHERE category = OLD.category;
    DELETE FROM forum_topic_counts WHERE category = OLD.category AND topics <= 0;
    INSERT INTO forum_topic_counts (category, topics) VALUES (NEW.category, 1)
    ON CONFLICT (category) DO UPDATE SET topics = forum_topic_counts.topics + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forum_topics_count_insert AFTER INSERT ON forum_topics
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forum_topics_count_add();
CREATE TRIGGER forum_topics_count_delete AFTER DELETE ON forum_topics
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forum_topics_count_remove();
CREATE TRIGGER forum_topics_count_update AFTER UPDATE OF category ON forum_topics
    FOR EACH ROW WHEN (OLD.category <> NEW.category) EXECUTE FUNCTION forum_topics_count_row();

-- +goose Down
DROP TRIGGER forum_topics_count_update ON forum_topics;
DROP TRIGGER forum_topics_count_delete ON forum_topics;
DROP TRIGGER forum_topics_count_insert ON forum_topics;
DROP FUNCTION forum_topics_count_row();
DROP FUNCTION forum_topics_count_remove();
DROP FUNCTION forum_topics_count_add();
DROP TABLE forum_topic_counts;
