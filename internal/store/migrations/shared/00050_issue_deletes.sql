-- +goose Up
-- Gitea's DELETE /repos/{owner}/{repo}/issues/{index} (issue 23): an issue
-- on chain cannot be deleted, so the repository's admins remove it from
-- this node only, as a moderator hides it, except that a deleted issue is
-- 404 to everyone but the node's admins (a hidden one shows, masked).
ALTER TABLE mod_hidden ADD COLUMN deleted BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE mod_hidden DROP COLUMN deleted;
