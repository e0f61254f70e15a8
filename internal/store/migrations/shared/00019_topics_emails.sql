-- +goose Up
-- Repository topics (repo.topics), projected from the repository record:
-- each change to a repository rewrites its rows. forge_repos.topics holds
-- the list as JSON for reading a repository; the table serves search.
ALTER TABLE forge_repos ADD COLUMN topics TEXT NOT NULL DEFAULT '[]';
CREATE TABLE forge_repo_topics (
    repo_id BIGINT NOT NULL,
    topic   TEXT   NOT NULL,
    PRIMARY KEY (repo_id, topic)
);
CREATE INDEX forge_repo_topics_topic ON forge_repo_topics (topic);

-- Exclusive labels (label.create, label.edit): one label of a scope per issue.
ALTER TABLE forge_labels ADD COLUMN exclusive BOOLEAN NOT NULL DEFAULT FALSE;

-- Emails an account claimed on chain (user.emails), so commits under them
-- count as that account's. An email belongs to one account at a time.
CREATE TABLE forge_user_emails (
    email   TEXT NOT NULL PRIMARY KEY,
    address TEXT NOT NULL
);
CREATE INDEX forge_user_emails_address ON forge_user_emails (address);

-- +goose Down
DROP TABLE forge_user_emails;
ALTER TABLE forge_labels DROP COLUMN exclusive;
DROP TABLE forge_repo_topics;
ALTER TABLE forge_repos DROP COLUMN topics;
