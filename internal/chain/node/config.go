// Package node runs a CometBFT v1 node in process for any ABCI application.
//
// A node's home directory has CometBFT's usual layout (config/config.toml,
// config/genesis.json, config/node_key.json, config/priv_validator_key.json,
// data/priv_validator_state.json, data/*.db), so the cometbft CLI and its docs
// apply to it. Init creates what is missing; Start runs the node; Testnet
// writes the homes of a multi-validator network on one host.
package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	cmtcfg "github.com/cometbft/cometbft/config"
)

// Default listen addresses. Both are loopback: a single-machine forge needs no
// inbound network, and an operator who wants peers edits config.toml.
const (
	DefaultRPCAddr = "tcp://127.0.0.1:26657"
	DefaultP2PAddr = "tcp://127.0.0.1:26656"
)

// validatorPower is each genesis validator's voting power. Only ratios matter
// to consensus; equal powers make any 2/3+ of the validators a quorum.
const validatorPower = 10

// Config says where a node lives and how it starts. Only Home is required;
// ChainID is required the first time, when the genesis is written.
type Config struct {
	// Home is the CometBFT home directory, e.g. <data>/chain.
	Home string
	// ChainID names the chain in a new genesis. Ignored once genesis.json exists.
	ChainID string
	// AppState is the genesis app_state handed to the application's InitChain.
	// Ignored once genesis.json exists.
	AppState json.RawMessage
	// Moniker is the node's human-readable name; "" keeps config.toml's value
	// (CometBFT defaults it to the host name).
	Moniker string
	// RPCAddr is the CometBFT RPC listen address, e.g. "tcp://127.0.0.1:0"
	// for a free port. "" keeps config.toml's value (DefaultRPCAddr when new);
	// a non-empty value overrides config.toml.
	RPCAddr string
	// P2PAddr is the peer-to-peer listen address, with the same rules as RPCAddr
	// (DefaultP2PAddr when new).
	P2PAddr string
	// Logger receives CometBFT's log lines; nil means slog.Default().
	Logger *slog.Logger
	// LogLevel drops CometBFT's lines below it; nil means slog.LevelWarn,
	// because CometBFT logs every block and peer message at info.
	LogLevel slog.Leveler
	// EmptyBlockInterval, when not zero, overrides how long an idle chain
	// waits before it makes an empty block (DefaultEmptyBlockInterval).
	EmptyBlockInterval time.Duration
}

// DefaultEmptyBlockInterval is how often an idle chain makes a block.
// Voting periods, timelocks, unbonding and reward epochs are counted in
// blocks, so time must move them on a quiet chain too; one block in six
// seconds is what the parameters' defaults assume.
const DefaultEmptyBlockInterval = 6 * time.Second

func (c Config) configFile() string {
	return filepath.Join(c.Home, "config", "config.toml")
}

// cometConfig builds the CometBFT configuration for c: dForge's tuned defaults,
// then config.toml if it exists (so operators' edits win), then c's explicit
// overrides.
func cometConfig(c Config) (*cmtcfg.Config, error) {
	if c.Home == "" {
		return nil, errors.New("node config: home directory is empty")
	}
	cc := tunedConfig()
	if _, err := os.Stat(c.configFile()); err == nil {
		if err := readConfigFile(c.configFile(), cc); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("stat config.toml: %w", err)
	}
	applyOverrides(cc, c)
	cc.SetRoot(c.Home)
	if err := cc.ValidateBasic(); err != nil {
		return nil, fmt.Errorf("invalid CometBFT config in %s: %w", c.Home, err)
	}
	return cc, nil
}

func applyOverrides(cc *cmtcfg.Config, c Config) {
	if c.Moniker != "" {
		cc.Moniker = c.Moniker
	}
	if c.RPCAddr != "" {
		cc.RPC.ListenAddress = c.RPCAddr
	}
	if c.P2PAddr != "" {
		cc.P2P.ListenAddress = c.P2PAddr
	}
	if c.EmptyBlockInterval > 0 {
		cc.Consensus.CreateEmptyBlocksInterval = c.EmptyBlockInterval
	}
}

// tunedConfig is CometBFT's default configuration adjusted for a forge: blocks
// only when there are transactions, commits in milliseconds, loopback only.
func tunedConfig() *cmtcfg.Config {
	cc := cmtcfg.DefaultConfig()
	cc.RPC.ListenAddress = DefaultRPCAddr
	cc.P2P.ListenAddress = DefaultP2PAddr
	tuneConsensus(cc.Consensus)
	tuneMempool(cc.Mempool)
	// CometBFT's kv indexer serves /tx, /tx_search and /block_search,
	// which block explorers and CometBFT clients expect. Its goroutine
	// outlives the node's stop: gatedb.go and index.go make that safe.
	cc.TxIndex.Indexer = "kv"
	// Every in-process BroadcastTxCommit subscribes under the same (empty)
	// client name, so this bounds the relays waiting for their block at once.
	cc.RPC.MaxSubscriptionsPerClient = 1024
	// A tx may be up to 1 MiB and travels hex- or base64-encoded in JSON, so
	// the RPC body limit must exceed it.
	cc.RPC.MaxBodyBytes = 3 << 20
	// Peers come from persistent_peers; peer exchange would only gossip
	// addresses nobody asked for. Operators who want discovery turn it on.
	cc.P2P.PexReactor = false
	return cc
}

// tuneConsensus shortens the timeouts, which CometBFT sizes for validators
// spread over the internet. Here they are on one host or a LAN; the timeouts
// only matter when a validator is slow or down (a missing proposer costs one
// timeout_propose per round it would have led).
func tuneConsensus(c *cmtcfg.ConsensusConfig) {
	// A block as soon as a transaction arrives, else one every interval.
	c.CreateEmptyBlocks = false
	c.CreateEmptyBlocksInterval = DefaultEmptyBlockInterval
	c.TimeoutPropose = 400 * time.Millisecond
	c.TimeoutProposeDelta = 100 * time.Millisecond
	c.TimeoutPrevote = 100 * time.Millisecond
	c.TimeoutPrevoteDelta = 50 * time.Millisecond
	c.TimeoutPrecommit = 100 * time.Millisecond
	c.TimeoutPrecommitDelta = 50 * time.Millisecond
	// timeout_commit is the minimum gap between blocks: 10ms lets a burst of
	// transactions share a block without adding noticeable latency.
	c.TimeoutCommit = 10 * time.Millisecond
	// Votes and block parts are gossiped by loops that sleep this long when
	// idle; the default 100ms would dominate a multi-validator commit.
	c.PeerGossipSleepDuration = 10 * time.Millisecond
}

// tuneMempool bounds the mempool. Transactions are signed messages the
// application bounds itself (4 KiB for value transfers, 256 KiB for a forge
// action with its bodies), below MaxTxBytes; 5000 of them or 32 MiB,
// whichever comes first, is minutes of peak load.
func tuneMempool(m *cmtcfg.MempoolConfig) {
	m.Size = 5000
	m.MaxTxBytes = 1 << 20
	m.MaxTxsBytes = 32 << 20
	m.CacheSize = 10000
	m.Recheck = true // nonces and balances change with every block
}

// defaultLogLevel is used when Config.LogLevel is nil.
const defaultLogLevel = slog.LevelWarn

func (c Config) logLevel() slog.Leveler {
	if c.LogLevel == nil {
		return defaultLogLevel
	}
	return c.LogLevel
}

func (c Config) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.Default()
	}
	return c.Logger
}
