-- +goose Up
-- The dashboard's reads (internal/index/dashboard.go, and the issue
-- search's relations in search.go) start from one account's rows: the
-- pull requests it is asked to review, its assignments and reviews, the
-- issues it opened. Each index leads with the account and holds the
-- issue's key, so the read never touches rows of other accounts. The
-- statuses index finds each context's latest status of a head directly.
CREATE INDEX forge_review_requests_reviewer ON forge_review_requests (reviewer, repo_id, number);
CREATE INDEX forge_issue_assignees_issue ON forge_issue_assignees (assignee, repo_id, number);
CREATE INDEX forge_reviews_author ON forge_reviews (author, repo_id, number);
CREATE INDEX forge_issues_author_updated ON forge_issues (author, is_pull, state, updated_time_ns);
CREATE INDEX forge_commit_statuses_context ON forge_commit_statuses (repo_id, sha, context, id);

-- +goose Down
DROP INDEX forge_commit_statuses_context;
DROP INDEX forge_issues_author_updated;
DROP INDEX forge_reviews_author;
DROP INDEX forge_issue_assignees_issue;
DROP INDEX forge_review_requests_reviewer;
