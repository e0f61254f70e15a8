-- +goose Up
-- A user's threads of one repository (Gitea's GET /repos/{o}/{r}/notifications,
-- the notification page's repository filter), in the list's order, with the
-- columns its filters read: a page is a range of this index and its total
-- counts the threads of that repository only. Through notifications_list
-- both stepped over every thread the user has: 11 ms on SQLite for the first
-- page of a user with 100,000 threads in 20 repositories (issue 27).
CREATE INDEX notifications_repo ON notifications (user_address, repo_id, updated_ns DESC, id DESC, unread, pinned, subject_type, reason);

-- +goose Down
DROP INDEX notifications_repo;
