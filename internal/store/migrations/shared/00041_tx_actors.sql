-- +goose Up
-- A forge action's actor and action (issue 22): under the own-keys rules a
-- node's key signs most of a user's forge actions, so the user is neither
-- its sender nor its recipient. The wallet lists an account's transactions
-- by sender, recipient or actor, and names each action. Rows projected
-- before have neither, so the projection is rebuilt from the chain
-- (genesis_hash 'reproject', as in 00039).
ALTER TABLE chain_txs ADD COLUMN actor TEXT NOT NULL DEFAULT '';
ALTER TABLE chain_txs ADD COLUMN action TEXT NOT NULL DEFAULT '';
CREATE INDEX chain_txs_actor ON chain_txs (actor, height, tx_index);
UPDATE chain_index SET genesis_hash = 'reproject';

-- +goose Down
DROP INDEX chain_txs_actor;
ALTER TABLE chain_txs DROP COLUMN action;
ALTER TABLE chain_txs DROP COLUMN actor;
