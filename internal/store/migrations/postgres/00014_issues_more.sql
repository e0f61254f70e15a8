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

-- +goose Down
DROP INDEX forge_issues_milestone;
ALTER TABLE forge_issues DROP COLUMN milestone_id;
DROP TABLE forge_milestones;
