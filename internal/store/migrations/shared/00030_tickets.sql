-- +goose Up
-- Support tickets: a contact message from a signed-in user is a ticket
-- with a status and threaded replies; an anonymous one (user_id 0) is a
-- ticket without an account, answered by e-mail outside the node. All of
-- it is node-local: support conversations never go on chain.
ALTER TABLE contact_messages ADD COLUMN user_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE contact_messages ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE contact_messages ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE contact_messages SET updated_at = created_at;
CREATE INDEX contact_messages_user ON contact_messages (user_id, updated_at DESC, id DESC);
CREATE INDEX contact_messages_status ON contact_messages (status, updated_at DESC, id DESC);

-- A reply on a ticket, by its user or by the node's staff (staff TRUE).
CREATE TABLE ticket_replies (
    id {{ID}},
    ticket_id BIGINT NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
    author_id BIGINT NOT NULL,
    staff BOOLEAN NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX ticket_replies_ticket ON ticket_replies (ticket_id, id);

-- +goose Down
DROP TABLE ticket_replies;
DROP INDEX contact_messages_status;
DROP INDEX contact_messages_user;
ALTER TABLE contact_messages DROP COLUMN updated_at;
ALTER TABLE contact_messages DROP COLUMN status;
ALTER TABLE contact_messages DROP COLUMN user_id;
