-- +goose Up
-- Pending (draft) pull request reviews: private to their author until
-- submitted, so they stay on this node and never go on chain. Submitting
-- one sends pr.review and deletes the row. payload is the review as it
-- will be sent (chainforge.PullReview as JSON, without its state).
CREATE TABLE review_drafts (
    id {{ID}},
    author     TEXT   NOT NULL,
    repo_id    BIGINT NOT NULL,
    number     BIGINT NOT NULL,
    payload    TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX review_drafts_pull ON review_drafts (repo_id, number, author);

-- +goose Down
DROP TABLE review_drafts;
