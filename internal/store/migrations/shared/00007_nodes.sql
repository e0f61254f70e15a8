-- +goose Up
-- The node registry in the chain's SQL projection: each operator's node as
-- its genesis entry or latest RegisterNode event has it, written only by
-- internal/index. Like the other chain tables it is a view: `dforge
-- reindex` empties it and replays every block.
CREATE TABLE chain_nodes (
    operator TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    peer_id TEXT NOT NULL,
    -- the libp2p multiaddrs, a JSON array of strings
    addrs TEXT NOT NULL,
    -- the block of the registration; the genesis height for genesis entries
    height BIGINT NOT NULL
);

-- +goose Down
DROP TABLE chain_nodes;
