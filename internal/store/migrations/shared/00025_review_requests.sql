-- +goose Up
-- Review requests (pr.review.request, pr.review.unrequest), projected from
-- the pull request's record: each change to it rewrites its rows. A
-- request has an id from the review sequence, as Gitea's REQUEST_REVIEW
-- review has, and is listed among the reviews.
CREATE TABLE forge_review_requests (
    review_id BIGINT PRIMARY KEY,
    repo_id   BIGINT NOT NULL,
    number    BIGINT NOT NULL,
    reviewer  TEXT   NOT NULL,
    height    BIGINT NOT NULL,
    time_ns   BIGINT NOT NULL
);
CREATE INDEX forge_review_requests_pull ON forge_review_requests (repo_id, number, review_id);

-- Dismissed reviews (pr.review.dismiss, pr.review.undismiss) and the
-- maintainer's reason.
ALTER TABLE forge_reviews ADD COLUMN dismissed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE forge_reviews ADD COLUMN dismiss_message TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE forge_reviews DROP COLUMN dismiss_message;
ALTER TABLE forge_reviews DROP COLUMN dismissed;
DROP TABLE forge_review_requests;
