-- +goose Up
-- Commit statuses (status.create), every one as sent; the latest per
-- context is the commit's status in that context.
CREATE TABLE forge_commit_statuses (
    id          BIGINT PRIMARY KEY,
    repo_id     BIGINT NOT NULL,
    sha         TEXT   NOT NULL,
    context     TEXT   NOT NULL,
    state       TEXT   NOT NULL,
    description TEXT   NOT NULL,
    target_url  TEXT   NOT NULL,
    creator     TEXT   NOT NULL,
    height      BIGINT NOT NULL,
    time_ns     BIGINT NOT NULL
);
CREATE INDEX forge_commit_statuses_sha ON forge_commit_statuses (repo_id, sha, id);

-- Branch protection rules (branch.protect), one per branch name. The
-- lists are JSON arrays (addresses, contexts).
CREATE TABLE forge_branch_protections (
    repo_id               BIGINT NOT NULL,
    branch                TEXT   NOT NULL,
    enable_push           BOOLEAN NOT NULL,
    push_whitelist        TEXT   NOT NULL,
    enable_status_check   BOOLEAN NOT NULL,
    status_check_contexts TEXT   NOT NULL,
    required_approvals    BIGINT NOT NULL,
    created_time_ns       BIGINT NOT NULL,
    updated_time_ns       BIGINT NOT NULL,
    PRIMARY KEY (repo_id, branch)
);

-- +goose Down
DROP TABLE forge_branch_protections;
DROP TABLE forge_commit_statuses;
