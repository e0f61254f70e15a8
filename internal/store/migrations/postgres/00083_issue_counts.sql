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

-- Inserts and deletes (a block's new issues, a deleted repository, a
-- reset) are counted by statement triggers over transition tables: one
-- grouped write per statement, so a statement deleting a repository's
-- thousands of issues does not update one counter row once each (which
-- PostgreSQL keeps as a row version each). A change of state moves an
-- issue between counters by a row trigger, which fires only when the
-- counted columns change (an edit of the title changes none).
-- +goose StatementBegin
CREATE FUNCTION forge_issues_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, issues)
    SELECT repo_id, is_pull, state, COUNT(*) FROM new_rows GROUP BY repo_id, is_pull, state
    ON CONFLICT (repo_id, is_pull, state) DO UPDATE SET issues = forge_issue_counts.issues + excluded.issues;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_issues_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_issue_counts c SET issues = c.issues - d.n
    FROM (SELECT repo_id, is_pull, state, COUNT(*) AS n FROM old_rows GROUP BY repo_id, is_pull, state) d
    WHERE c.repo_id = d.repo_id AND c.is_pull = d.is_pull AND c.state = d.state;
    DELETE FROM forge_issue_counts c USING (SELECT DISTINCT repo_id FROM old_rows) d
    WHERE c.repo_id = d.repo_id AND c.issues <= 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_issues_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_issue_counts SET issues = issues - 1
    WHERE repo_id = OLD.repo_id AND is_pull = OLD.is_pull AND state = OLD.state;
    DELETE FROM forge_issue_counts
    WHERE repo_id = OLD.repo_id AND is_pull = OLD.is_pull AND state = OLD.state AND issues <= 0;
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, issues)
    VALUES (NEW.repo_id, NEW.is_pull, NEW.state, 1)
    ON CONFLICT (repo_id, is_pull, state) DO UPDATE SET issues = forge_issue_counts.issues + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forge_issues_count_insert AFTER INSERT ON forge_issues
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_issues_count_add();
CREATE TRIGGER forge_issues_count_delete AFTER DELETE ON forge_issues
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_issues_count_remove();
CREATE TRIGGER forge_issues_count_update AFTER UPDATE OF repo_id, is_pull, state ON forge_issues
    FOR EACH ROW WHEN (OLD.repo_id <> NEW.repo_id OR OLD.is_pull <> NEW.is_pull OR OLD.state <> NEW.state)
    EXECUTE FUNCTION forge_issues_count_row();

-- +goose Down
DROP TRIGGER forge_issues_count_update ON forge_issues;
DROP TRIGGER forge_issues_count_delete ON forge_issues;
DROP TRIGGER forge_issues_count_insert ON forge_issues;
DROP FUNCTION forge_issues_count_row();
DROP FUNCTION forge_issues_count_remove();
DROP FUNCTION forge_issues_count_add();
DROP TABLE forge_issue_counts;
