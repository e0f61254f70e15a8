-- +goose Up
-- An issue's rows in the activity table by its number (issue 27): every
-- issue.create retitles the issue's rows (activityIssue), and without
-- this index that UPDATE read every activity row of the repository, so
-- creating an issue got slower as the repository's issues grew (38% of
-- the node's CPU at 15,000 issues, 16% at 2,000).
CREATE INDEX forge_activity_number ON forge_activity (repo_id, number);

-- +goose Down
DROP INDEX forge_activity_number;
