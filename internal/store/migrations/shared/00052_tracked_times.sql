-- +goose Up
-- Time tracked on issues (issue 23, Gitea's /issues/{index}/times): a
-- person's own bookkeeping, node-local and never on chain. repo_id and
-- issue_number name the issue on chain; user_address is who spent it.
CREATE TABLE tracked_times (
    id {{ID}},
    repo_id      BIGINT NOT NULL,
    issue_number BIGINT NOT NULL,
    user_address TEXT   NOT NULL,
    seconds      BIGINT NOT NULL,
    created_ms   BIGINT NOT NULL
);
CREATE INDEX tracked_times_issue ON tracked_times (repo_id, issue_number, id);

-- +goose Down
DROP TABLE tracked_times;
