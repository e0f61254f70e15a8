-- +goose Up
-- The issue counters (00083) are kept per block of 1,024 issue numbers as
-- well (issue 27): a deep page of the newest or oldest issues sums the
-- blocks from its end to find the block that holds its offset, and seeks
-- inside that block, where it stepped through every index entry above it
-- (page 1,000 of 50,000 issues stepped through 50,000). A total sums the
-- blocks, a few dozen rows. An issue's number never changes, so its block
-- does not either. The triggers keep 00083's functions' shape.
DROP TRIGGER forge_issues_count_update ON forge_issues;
DROP TRIGGER forge_issues_count_delete ON forge_issues;
DROP TRIGGER forge_issues_count_insert ON forge_issues;
DROP FUNCTION forge_issues_count_row();
DROP FUNCTION forge_issues_count_remove();
DROP FUNCTION forge_issues_count_add();
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
CREATE FUNCTION forge_issues_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, block, issues)
    SELECT repo_id, is_pull, state, number / 1024, COUNT(*) FROM new_rows GROUP BY repo_id, is_pull, state, number / 1024
    ON CONFLICT (repo_id, is_pull, state, block) DO UPDATE SET issues = forge_issue_counts.issues + excluded.issues;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION forge_issues_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE forge_issue_counts c SET issues = c.issues - d.n
    FROM (SELECT repo_id, is_pull, state, number / 1024 AS block, COUNT(*) AS n FROM old_rows GROUP BY repo_id, is_pull, state, number / 1024) d
    WHERE c.repo_id = d.repo_id AND c.is_pull = d.is_pull AND c.state = d.state AND c.block = d.block;
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
    WHERE repo_id = OLD.repo_id AND is_pull = OLD.is_pull AND state = OLD.state AND block = OLD.number / 1024;
    DELETE FROM forge_issue_counts
    WHERE repo_id = OLD.repo_id AND is_pull = OLD.is_pull AND state = OLD.state AND block = OLD.number / 1024 AND issues <= 0;
    INSERT INTO forge_issue_counts (repo_id, is_pull, state, block, issues)
    VALUES (NEW.repo_id, NEW.is_pull, NEW.state, NEW.number / 1024, 1)
    ON CONFLICT (repo_id, is_pull, state, block) DO UPDATE SET issues = forge_issue_counts.issues + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER forge_issues_count_insert AFTER INSERT ON forge_issues
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_issues_count_add();
CREATE TRIGGER forge_issues_count_delete AFTER DELETE ON forge_issues
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forge_issues_count_remove();
CREATE TRIGGER forge_issues_count_update AFTER UPDATE OF repo_id, is_pull, state, number ON forge_issues
    FOR EACH ROW WHEN (OLD.repo_id <> NEW.repo_id OR OLD.is_pull <> NEW.is_pull OR OLD.state <> NEW.state OR OLD.number <> NEW.number)
    EXECUTE FUNCTION forge_issues_count_row();

-- +goose Down
DROP TRIGGER forge_issues_count_update ON forge_issues;
DROP TRIGGER forge_issues_count_delete ON forge_issues;
DROP TRIGGER forge_issues_count_insert ON forge_issues;
DROP FUNCTION forge_issues_count_row();
DROP FUNCTION forge_issues_count_remove();
DROP FUNCTION forge_issues_count_add();
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
