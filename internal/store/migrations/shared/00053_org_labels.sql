-- +goose Up
-- Organizations' labels (issue 23, Gitea's /orgs/{org}/labels), node-local:
-- labels on chain belong to one repository each, so an organization's set
-- is kept here for its owners to manage (internal/orglabels says why).
-- name_key is the lower-cased name: one name once per organization.
CREATE TABLE org_labels (
    id {{ID}},
    org_id      BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    color       TEXT    NOT NULL,
    description TEXT    NOT NULL,
    exclusive   BOOLEAN NOT NULL,
    UNIQUE (org_id, name_key)
);

-- +goose Down
DROP TABLE org_labels;
