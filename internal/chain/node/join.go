package node

import (
	"fmt"
	"os"
	"strings"

	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/types"
)

// Join makes cfg.Home a node of the running network whose genesis is
// genesis (genesis.json's bytes, as any node serves them) and whose nodes
// are reachable at peers (id@host:port): its own keys, that genesis
// verbatim and the peers to dial. The node is no validator; it syncs,
// takes transactions and relays them. An existing home is refused: a
// node joins once.
func Join(cfg Config, genesis []byte, peers []string) error {
	if _, err := types.GenesisDocFromJSON(genesis); err != nil {
		return fmt.Errorf("join: the peer's genesis: %w", err)
	}
	cc, err := cometConfig(cfg)
	if err != nil {
		return err
	}
	if exists(cc.GenesisFile()) {
		return fmt.Errorf("join: %s holds a chain already", cfg.Home)
	}
	if err := ensureDirs(cc); err != nil {
		return err
	}
	if _, err := p2p.LoadOrGenNodeKey(cc.NodeKeyFile()); err != nil {
		return fmt.Errorf("join: node key: %w", err)
	}
	if _, err := loadOrGenPV(cc); err != nil {
		return err
	}
	if err := os.WriteFile(cc.GenesisFile(), genesis, 0o644); err != nil {
		return fmt.Errorf("join: write genesis: %w", err)
	}
	cc.P2P.PersistentPeers = strings.Join(peers, ",")
	cc.P2P.AllowDuplicateIP = true // every node of a test network is on one host
	if err := writeConfig(cfg.configFile(), cc); err != nil {
		return err
	}
	return nil
}

// PeerAddress is the CometBFT peer address of the node in home:
// id@host:port, as another node's persistent_peers names it.
func PeerAddress(home string) (string, error) {
	cc, err := cometConfig(Config{Home: home})
	if err != nil {
		return "", err
	}
	key, err := p2p.LoadNodeKey(cc.NodeKeyFile())
	if err != nil {
		return "", fmt.Errorf("read node key: %w", err)
	}
	return string(key.ID()) + "@" + strings.TrimPrefix(cc.P2P.ListenAddress, "tcp://"), nil
}
