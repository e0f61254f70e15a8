-- +goose Up
-- Direct messages between accounts of this node. They are node-local and
-- private: never on chain, never replicated. A conversation is one pair of
-- users (user_low < user_high, by users.id); each of the two has a member
-- row with the other's id and how far they have read; a block is one
-- user's refusal of messages from an account (signed in here or not).
CREATE TABLE conversations (
    id {{ID}},
    user_low BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_high BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_message_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_low, user_high),
    CHECK (user_low < user_high)
);

CREATE TABLE conversation_members (
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    peer_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_read_id BIGINT NOT NULL DEFAULT 0, -- the last message this member has read
    last_message_id BIGINT NOT NULL DEFAULT 0, -- the conversation's, copied for the member's list order
    PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX conversation_members_user ON conversation_members (user_id, last_message_id DESC);

CREATE TABLE direct_messages (
    id {{ID}},
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    sender_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX direct_messages_conversation ON direct_messages (conversation_id, id);

CREATE TABLE user_blocks (
    blocker_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_address TEXT NOT NULL, -- lowercase 0x-hex
    note TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_address)
);

-- +goose Down
DROP TABLE user_blocks;
DROP TABLE direct_messages;
DROP TABLE conversation_members;
DROP TABLE conversations;
