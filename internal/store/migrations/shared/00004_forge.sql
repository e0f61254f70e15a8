-- +goose Up
-- The forge's SQL projection, written only by internal/index from the
-- chain's Forge events and from the node's private store (same events,
-- ids from 2^48 up, private = true). Like the chain tables it is a view:
-- `dforge reindex` deletes the chain's rows (ids below 2^48) and replays
-- the blocks; private rows are replayed from the private store's log.
-- Addresses are EIP-55 hex; heights are block heights (the private store's
-- sequence numbers for private rows); times are Unix nanoseconds.

CREATE TABLE forge_repos (
    id BIGINT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    description TEXT NOT NULL,
    default_branch TEXT NOT NULL,
    -- JSON array of branch names
    protected_branches TEXT NOT NULL,
    private BOOLEAN NOT NULL,
    fork_of BIGINT,
    stars BIGINT NOT NULL,
    forks BIGINT NOT NULL,
    watchers BIGINT NOT NULL,
    open_issues BIGINT NOT NULL,
    open_pulls BIGINT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL,
    updated_time_ns BIGINT NOT NULL
);
-- A private and a public repository may share a name (created on two
-- nodes); each store keeps its own names unique.
CREATE UNIQUE INDEX forge_repos_owner_name ON forge_repos (owner, lower_name, private);
CREATE INDEX forge_repos_fork_of ON forge_repos (fork_of);
CREATE INDEX forge_repos_updated ON forge_repos (updated_height, id);

CREATE TABLE forge_collaborators (
    repo_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    permission TEXT NOT NULL,
    PRIMARY KEY (repo_id, user_address)
);
CREATE INDEX forge_collaborators_user ON forge_collaborators (user_address);

CREATE TABLE forge_stars (
    repo_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (repo_id, user_address)
);
CREATE INDEX forge_stars_user ON forge_stars (user_address);

CREATE TABLE forge_watches (
    repo_id BIGINT NOT NULL,
    user_address TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL,
    PRIMARY KEY (repo_id, user_address)
);
CREATE INDEX forge_watches_user ON forge_watches (user_address);

CREATE TABLE forge_labels (
    id BIGINT PRIMARY KEY,
    repo_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    description TEXT NOT NULL
);
CREATE INDEX forge_labels_repo ON forge_labels (repo_id, name);

-- Issues and pull requests share one numbering per repository.
CREATE TABLE forge_issues (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    is_pull BOOLEAN NOT NULL,
    author TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL,
    state_reason TEXT NOT NULL,
    comments BIGINT NOT NULL,
    created_height BIGINT NOT NULL,
    created_time_ns BIGINT NOT NULL,
    updated_height BIGINT NOT NULL,
    updated_time_ns BIGINT NOT NULL,
    -- when last closed; NULL while open
    closed_height BIGINT,
    closed_time_ns BIGINT,
    PRIMARY KEY (repo_id, number)
);
CREATE INDEX forge_issues_list ON forge_issues (repo_id, is_pull, state, number);
CREATE INDEX forge_issues_author ON forge_issues (author);

CREATE TABLE forge_issue_labels (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    label_id BIGINT NOT NULL,
    PRIMARY KEY (repo_id, number, label_id)
);
CREATE INDEX forge_issue_labels_label ON forge_issue_labels (label_id);

CREATE TABLE forge_issue_assignees (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    assignee TEXT NOT NULL,
    PRIMARY KEY (repo_id, number, assignee)
);
CREATE INDEX forge_issue_assignees_user ON forge_issue_assignees (assignee);

CREATE TABLE forge_comments (
    id BIGINT PRIMARY KEY,
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);
CREATE INDEX forge_comments_issue ON forge_comments (repo_id, number, id);

CREATE TABLE forge_pulls (
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    head_repo_id BIGINT NOT NULL,
    head_branch TEXT NOT NULL,
    base_branch TEXT NOT NULL,
    head_sha TEXT NOT NULL,
    base_sha TEXT NOT NULL,
    merged BOOLEAN NOT NULL,
    merge_sha TEXT NOT NULL,
    merge_style TEXT NOT NULL,
    -- '' until merged
    merged_by TEXT NOT NULL,
    merged_height BIGINT,
    merged_time_ns BIGINT,
    PRIMARY KEY (repo_id, number)
);
CREATE INDEX forge_pulls_head ON forge_pulls (head_repo_id, head_branch);

CREATE TABLE forge_reviews (
    id BIGINT PRIMARY KEY,
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    author TEXT NOT NULL,
    state TEXT NOT NULL,
    body TEXT NOT NULL,
    commit_sha TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);
CREATE INDEX forge_reviews_pull ON forge_reviews (repo_id, number, id);

CREATE TABLE forge_review_comments (
    id BIGINT PRIMARY KEY,
    review_id BIGINT NOT NULL,
    repo_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    path TEXT NOT NULL,
    line BIGINT NOT NULL,
    side TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX forge_review_comments_review ON forge_review_comments (review_id, id);
CREATE INDEX forge_review_comments_pull ON forge_review_comments (repo_id, number, id);

CREATE TABLE forge_ref_updates (
    id BIGINT PRIMARY KEY,
    repo_id BIGINT NOT NULL,
    ref TEXT NOT NULL,
    old_sha TEXT NOT NULL,
    new_sha TEXT NOT NULL,
    forced BOOLEAN NOT NULL,
    pusher TEXT NOT NULL,
    height BIGINT NOT NULL,
    time_ns BIGINT NOT NULL
);
CREATE INDEX forge_ref_updates_repo ON forge_ref_updates (repo_id, ref, id);

-- How far the private store's log is projected (node-local; not a chain table).
CREATE TABLE forge_private_index (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL
);

-- +goose Down
DROP TABLE forge_private_index;
DROP TABLE forge_ref_updates;
DROP TABLE forge_review_comments;
DROP TABLE forge_reviews;
DROP TABLE forge_pulls;
DROP TABLE forge_comments;
DROP TABLE forge_issue_assignees;
DROP TABLE forge_issue_labels;
DROP TABLE forge_issues;
DROP TABLE forge_labels;
DROP TABLE forge_watches;
DROP TABLE forge_stars;
DROP TABLE forge_collaborators;
DROP TABLE forge_repos;
