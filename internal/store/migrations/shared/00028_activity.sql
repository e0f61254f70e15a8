-- +goose Up
-- One projection of the forge's public actions for Home and the feed
-- (issue 15): the indexer writes a row per action in the block's
-- transaction; reads join forge_repos for the name and the private flag.
-- verb is repo.create, push, issue.open, pr.open, comment, review or
-- pr.merge; k is the row's own key within its repository and verb (the
-- repository id, the ref update's, the issue number, the comment's or
-- review's id). content is a comment's opening text.
CREATE TABLE forge_activity (
    repo_id BIGINT  NOT NULL,
    verb    TEXT    NOT NULL,
    k       BIGINT  NOT NULL,
    ord     INTEGER NOT NULL,
    actor   TEXT    NOT NULL,
    number  BIGINT  NOT NULL,
    is_pull BOOLEAN NOT NULL,
    title   TEXT    NOT NULL,
    detail  TEXT    NOT NULL,
    content TEXT    NOT NULL,
    height  BIGINT  NOT NULL,
    time_ns BIGINT  NOT NULL,
    PRIMARY KEY (repo_id, verb, k)
);
-- The public list (newest first), a followed account's actions and a
-- watched or starred repository's.
CREATE INDEX forge_activity_time ON forge_activity (time_ns, height, ord, k, repo_id);
CREATE INDEX forge_activity_actor ON forge_activity (actor, time_ns);
CREATE INDEX forge_activity_repo ON forge_activity (repo_id, time_ns);

-- What the node projected before this table: the same rows the former
-- query over the forge tables listed, less deleted comments.
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT r.id, 'repo.create', r.id, 0, r.owner, 0, FALSE, '', '', '', r.created_height, r.created_time_ns
FROM forge_repos r;
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT u.repo_id, 'push', u.id, 1, u.pusher, 0, FALSE, '', u.ref, '', u.height, u.time_ns
FROM forge_ref_updates u;
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT i.repo_id, CASE WHEN i.is_pull THEN 'pr.open' ELSE 'issue.open' END, i.number, 2, i.author, i.number, i.is_pull,
    i.title, '', '', i.created_height, i.created_time_ns
FROM forge_issues i;
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT c.repo_id, 'comment', c.id, 3, c.author, c.number, i.is_pull, i.title, '', substr(c.body, 1, 200), c.height, c.time_ns
FROM forge_comments c JOIN forge_issues i ON i.repo_id = c.repo_id AND i.number = c.number
WHERE c.deleted = FALSE;
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT v.repo_id, 'review', v.id, 4, v.author, v.number, TRUE, i.title, v.state, '', v.height, v.time_ns
FROM forge_reviews v JOIN forge_issues i ON i.repo_id = v.repo_id AND i.number = v.number;
INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
SELECT p.repo_id, 'pr.merge', p.number, 5, p.merged_by, p.number, TRUE, i.title, '', '', p.merged_height, p.merged_time_ns
FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
WHERE p.merged = TRUE AND p.merged_height IS NOT NULL AND p.merged_time_ns IS NOT NULL;

-- +goose Down
DROP TABLE forge_activity;
