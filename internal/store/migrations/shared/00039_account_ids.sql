-- +goose Up
-- Identity is the whole address (issue 22). An account's numeric user id
-- was the first 52 bits of its address and its default name the first 48:
-- two wallets sharing a prefix became one account. Now:
--  * chain_accounts.id is the account's sequence number in the order the
--    projection first meets it (genesis allocations in order, then block
--    by block: block events, then each transaction, sender first, then the
--    accounts its events name). Every node projects the same blocks in the
--    same order, so every node, and every reindex, gives the same ids.
--  * chain_index.wide_names says the chain has crossed the own-keys
--    upgrade: default names are "user-" and 20 hex digits from then on.
-- Neither can be derived from the rows projected so far (ids follow the
-- order of events, the upgrade is a block event), so the projection is
-- rebuilt from the chain: genesis_hash 'reproject' makes the indexer empty
-- the chain's tables and replay every block on its next start. Until then
-- id is NULL.
ALTER TABLE chain_accounts ADD COLUMN id BIGINT;
CREATE UNIQUE INDEX chain_accounts_id ON chain_accounts (id);
ALTER TABLE chain_index ADD COLUMN wide_names BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE chain_index SET genesis_hash = 'reproject';

-- +goose Down
DROP INDEX chain_accounts_id;
ALTER TABLE chain_accounts DROP COLUMN id;
ALTER TABLE chain_index DROP COLUMN wide_names;
