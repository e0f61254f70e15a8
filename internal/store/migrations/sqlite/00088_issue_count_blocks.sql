-- +goose Up
-- The issue counters (00083) are kept per block of 1,024 issue numbers as
-- well (issue 27): a deep page of the newest or oldest issues sums the
-- blocks from its end to find the block that holds its offset, and seeks
-- inside that block, where it stepped through every index entry above it
-- (page 1,000 of 50,000 issues stepped through 50,000). A total sums the
-- blocks, a few dozen rows. An issue's number never changes, so its block
-- does not either.
DROP TRIGGER forge_issues_count_update;
DROP TRIGGER forge_issues_count_delete;
DROP TRIGGER forge_issues_count_insert;
DROP TABLE forge_issue_counts;
CREATE TABLE forge_issue_counts (
    repo_id BIGINT  NOT NULL,
    is_pull BOOLEAN NOT NULL,
    state   TEXT    NOT NULL,
    block   BIGINT  NOT NULL,
    issues  BIGINT  NOT NULL,
    PRIMARY KEY (repo_id, is_pull, state, block)
);
INSERT INTO forge_issue_counts (repo_id, is_pull, state, block, issues)
    SELECT repo_id, is_pull, state, number / 1024, COUNT(*) FROM forge_issues GROUP BY repo_id, is_pull, state, number / 1024;

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_insert AFTER INSERT ON forge_issues BEGIN
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, block, issues) VALUES (new.repo_id, new.is_pull, new.state, new.number / 1024, 1)
    ON CONFLICT (repo_id, is_pull, state, block) DO UPDATE SET issues = issues + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_delete AFTER DELETE ON forge_issues BEGIN
    UPDATE forge_issue_counts SET issues = issues - 1
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND block = old.number / 1024;
    DELETE FROM forge_issue_counts
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND block = old.number / 1024 AND issues <= 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER forge_issues_count_update AFTER UPDATE OF repo_id, is_pull, state, number ON forge_issues
WHEN old.repo_id <> new.repo_id OR old.is_pull <> new.is_pull OR old.state <> new.state OR old.number <> new.number BEGIN
    UPDATE forge_issue_counts SET issues = issues - 1
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND block = old.number / 1024;
    DELETE FROM forge_issue_counts
    WHERE repo_id = old.repo_id AND is_pull = old.is_pull AND state = old.state AND block = old.number / 1024 AND issues <= 0;
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, block, issues) VALUES (new.repo_id, new.is_pull, new.state, new.number / 1024, 1)
    ON CONFLICT (repo_id, is_pull, state, block) DO UPDATE SET issues = issues + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER forge_issues_count_update;
DROP TRIGGER forge_issues_count_delete;
DROP TRIGGER forge_issues_count_insert;
DROP TABLE forge_issue_counts;
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
