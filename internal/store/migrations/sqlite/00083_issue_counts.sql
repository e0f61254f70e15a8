-- +goose Up
-- Per-repository counters of issues and pull requests, by kind and state
-- (issue 27), so the total of a list filtered by kind and state alone
-- (X-Total-Count, the issue list's open and closed tabs) is a sum over at
-- most four rows instead of a COUNT(*) that reads every matching entry of
-- an index, again after every new issue. Triggers keep them in the same
-- transaction as every insert, state change and delete of an issue (the
-- projection, the private store, a reset, a deleted repository), so no
-- writer can forget them. A counter that falls to zero is deleted, so a
-- projection rebuilt in place holds the same rows as a fresh one.
CREATE TABLE forge_issue_counts (
    repo_id BIGINT  NOT NULL,
    is_pull BOOLEAN NOT NULL,
    state   TEXT    NOT NULL,
    issues  BIGINT  NOT NULL,
    PRIMARY KEY (repo_id, is_pull, state)
);
INSERT INTO forge_issue_counts (repo_id, is_pull, state, issues)
    SELECT repo_id, is_pull, state, COUNT(*) FROM forge_issues GROUP BY repo_id, is_pull, state;

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_insert AFTER INSERT ON forge_issues BEGIN
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, issues) VALUES (new.repo_id, new.is_pull, new.state, 1)
    ON CONFLICT (repo_id, is_pull, state) DO UPDATE SET issues = issues + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_delete AFTER DELETE ON forge_issues BEGIN
    UPDATE forge_issue_counts SET issues = issues - 1
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state;
    DELETE FROM forge_issue_counts
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND issues <= 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_update AFTER UPDATE OF repo_id, is_pull, state ON forge_issues
WHEN old.repo_id <> new.repo_id OR old.is_pull <> new.is_pull OR old.state <> new.state BEGIN
    UPDATE forge_issue_counts SET issues = issues - 1
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state;
    DELETE FROM forge_issue_counts
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND issues <= 0;
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, issues) VALUES (new.repo_id, new.is_pull, new.state, 1)
    ON CONFLICT (repo_id, is_pull, state) DO UPDATE SET issues = issues + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_issues_count_update;
DROP TRIGGER forge_issues_count_delete;
DROP TRIGGER forge_issues_count_insert;
DROP TABLE forge_issue_counts;
