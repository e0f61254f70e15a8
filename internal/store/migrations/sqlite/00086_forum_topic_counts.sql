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

-- +goose StatementBegin
CREATE TRIGGER forum_topics_count_insert AFTER INSERT ON forum_topics BEGIN
    INSERT INTO forum_topic_counts (category, topics) VALUES (new.category, 1)
    ON CONFLICT (category) DO UPDATE SET topics = topics + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forum_topics_count_delete AFTER DELETE ON forum_topics BEGIN
    UPDATE forum_topic_counts SET topics = topics - 1 WHERE category = old.category;
    DELETE FROM forum_topic_counts WHERE category = old.category AND topics <= 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forum_topics_count_update AFTER UPDATE OF category ON forum_topics
WHEN old.category <> new.category BEGIN
    UPDATE forum_topic_counts SET topics = topics - 1 WHERE category = old.category;
    DELETE FROM forum_topic_counts WHERE category = old.category AND topics <= 0;
    INSERT INTO forum_topic_counts (category, topics) VALUES (new.category, 1)
    ON CONFLICT (category) DO UPDATE SET topics = topics + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forum_topics_count_update;
DROP TRIGGER forum_topics_count_delete;
DROP TRIGGER forum_topics_count_insert;
DROP TABLE forum_topic_counts;
