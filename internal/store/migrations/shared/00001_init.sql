-- +goose Up
CREATE TABLE web_vitals (
    id {{ID}},
    name TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    rating TEXT NOT NULL,
    delta DOUBLE PRECISION NOT NULL,
    metric_id TEXT NOT NULL,
    navigation_type TEXT NOT NULL,
    page TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    reported_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL
);
CREATE INDEX web_vitals_received ON web_vitals (received_at);

CREATE TABLE contact_messages (
    id {{ID}},
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE contact_messages;
DROP TABLE web_vitals;
