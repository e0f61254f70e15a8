-- +goose Up
-- Issue lists read a page in number order and count the matches apart
-- (index.Issues). forge_issues_list (repo_id, is_pull, state, number)
-- serves a list of one kind in one state; these serve the other filters
-- a list takes, so none of them reads and sorts a repository's every
-- issue: one state of both kinds (the issue list's default, and its
-- X-Total-Count), and one kind in every state.
CREATE INDEX forge_issues_state ON forge_issues (repo_id, state, number);
CREATE INDEX forge_issues_kind ON forge_issues (repo_id, is_pull, number);

-- +goose Down
DROP INDEX forge_issues_kind;
DROP INDEX forge_issues_state;
