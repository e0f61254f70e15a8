-- +goose Up
-- Milestones (milestone.create/edit/delete) and the milestone an issue or
-- pull request is filed under. The open and closed counts of a milestone
-- are counted from forge_issues (forge_issues_milestone serves it).
CREATE TABLE forge_milestones (
    id BIGINT PRIMARY KEY,
    repo_id BIGINT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    state TEXT NOT NULL,
    -- the due date in Unix seconds; NULL for none
    due_unix BIGINT,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL,
    updated_time_ns BIGINT NOT NULL,
    closed_time_ns BIGINT
);
CREATE INDEX forge_milestones_repo ON forge_milestones (repo_id, state, id);

ALTER TABLE forge_issues ADD COLUMN milestone_id BIGINT;
CREATE INDEX forge_issues_milestone ON forge_issues (milestone_id, state);

-- Edited and deleted comments (comment.edit/delete): a deleted comment is
-- kept, marked, and shown nowhere.
ALTER TABLE forge_comments ADD COLUMN updated_time_ns BIGINT;
ALTER TABLE forge_comments ADD COLUMN deleted BOOLEAN NOT NULL DEFAULT FALSE;

-- Reactions on an issue or pull request (comment_id 0) or a comment.
CREATE TABLE forge_reactions (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    comment_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    content TEXT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number, comment_id, user_address, content)
);

-- Pinned issues, in pin order (issue.pin/unpin).
CREATE TABLE forge_issue_pins (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    pin_order BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number)
);

-- Issue subscriptions (issue.subscribe/unsubscribe).
CREATE TABLE forge_issue_subscriptions (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    PRIMARY KEY (repo_id, number, user_address)
);

-- An issue's timeline, in projection order: its comments (comment_id) and
-- the events the indexer reads off the changes (kind; data is JSON).
CREATE TABLE forge_timeline (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    comment_id BIGINT,
    data TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);
CREATE INDEX forge_timeline_issue ON forge_timeline (repo_id, number, id);
-- The comments projected before the timeline existed.
INSERT INTO forge_timeline (repo_id, number, kind, actor, comment_id, data, height, time_ns)
    SELECT repo_id, number, 'comment', author, id, '{}', height, time_ns FROM forge_comments ORDER BY id;

-- +goose Down
DROP TABLE forge_timeline;
DROP TABLE forge_issue_subscriptions;
DROP TABLE forge_issue_pins;
DROP TABLE forge_reactions;
ALTER TABLE forge_comments DROP COLUMN deleted;
ALTER TABLE forge_comments DROP COLUMN updated_time_ns;
DROP INDEX forge_issues_milestone;
ALTER TABLE forge_issues DROP COLUMN milestone_id;
DROP TABLE forge_milestones;
