-- +goose Up
-- A repository's issues or pull requests in one state, most recently
-- updated first (issue 27): Gitea's "recentupdate" and "leastupdate" sorts,
-- which its clients and the issue list's sort menu ask for. Without this
-- index a page in that order sorted every match in a temporary B-tree
-- (about 20 ms for page 1 of 7,500 open issues); with it, a page and a deep
-- page's seek (readdb.SeekPage) read the index in order and stop.
-- Two, as for the number order (forge_issues_list, forge_issues_state): a
-- list of issues or of pull requests, and one of both kinds.
CREATE INDEX forge_issues_updated ON forge_issues (repo_id, is_pull, state, updated_time_ns, number);
CREATE INDEX forge_issues_state_updated ON forge_issues (repo_id, state, updated_time_ns, number);

-- +goose Down
DROP INDEX forge_issues_state_updated;
DROP INDEX forge_issues_updated;
