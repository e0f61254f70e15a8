package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"
	dbm "github.com/cometbft/cometbft-db"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcfg "github.com/cometbft/cometbft/config"
	nm "github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/proxy"
	"github.com/cometbft/cometbft/rpc/client/local"
)

// Node is a running CometBFT node with its application in the same process.
type Node struct {
	cmt    *nm.Node
	client *local.Local
	dbs    *dbSet
	redial *redialer // nil without persistent peers

	stopOnce sync.Once
	stopErr  error
}

// Start initializes cfg.Home if needed (see Init) and starts CometBFT with app
// as its ABCI application, called in process. On a restart CometBFT first
// replays the stored blocks the application has not seen (all of them for an
// application that keeps its state in memory). ctx bounds that start-up, not
// the node's life: call Stop.
func Start(ctx context.Context, cfg Config, app abcitypes.Application) (*Node, error) {
	if err := Init(cfg); err != nil {
		return nil, fmt.Errorf("init chain home: %w", err)
	}
	cc, err := cometConfig(cfg)
	if err != nil {
		return nil, err
	}
	n, err := newNode(ctx, cc, cfg, app)
	if err != nil {
		return nil, err
	}
	if err := n.cmt.Start(); err != nil {
		n.abortStart()
		return nil, fmt.Errorf("start cometbft: %w", err)
	}
	n.client = local.New(n.cmt)
	n.redial = startRedialer(n.cmt.Switch(), cc.P2P.PersistentPeers, cfg.logger())
	if err := n.catchUpIndex(); err != nil {
		// The chain runs without them; only /tx_search misses those blocks.
		cfg.logger().Warn("re-index the last blocks", "err", err)
	}
	return n, nil
}

func newNode(ctx context.Context, cc *cmtcfg.Config, cfg Config, app abcitypes.Application) (*Node, error) {
	pv, err := loadPV(cc.PrivValidatorKeyFile(), cc.PrivValidatorStateFile())
	if err != nil {
		return nil, err
	}
	nodeKey, err := p2p.LoadNodeKey(cc.NodeKeyFile())
	if err != nil {
		return nil, fmt.Errorf("load node key: %w", err)
	}
	dbs := &dbSet{log: cfg.logger(), level: cfg.logLevel()}
	cmt, err := nm.NewNode(ctx, cc, pv, nodeKey,
		clientCreator(app),
		nm.DefaultGenesisDocProviderFunc(cc),
		dbs.provide,
		metricsProvider(cc.Instrumentation),
		newLogger(cfg),
	)
	if err != nil {
		// NewNode leaves whatever databases it opened open.
		return nil, errors.Join(fmt.Errorf("create cometbft node: %w", err), dbs.closeAll())
	}
	return &Node{cmt: cmt, dbs: dbs}, nil
}

// metricsOnce gives CometBFT's Prometheus metrics (consensus height,
// rounds, peers, mempool size, block interval: the usual cometbft_*
// names) to the first node a process starts. They register in
// Prometheus's default registry, which the node's /metrics serves beside
// its own; CometBFT's own listener stays off (one port per node is
// enough), and a second node in one process (tests) gets none, as a
// second registration of the same names would panic.
var metricsOnce sync.Once

func metricsProvider(ic *cmtcfg.InstrumentationConfig) nm.MetricsProvider {
	on := false
	metricsOnce.Do(func() { on = true })
	withMetrics := *ic
	withMetrics.Prometheus = on
	return nm.DefaultMetricsProvider(&withMetrics)
}

// ConcurrentApp is an application whose mempool and query calls may run
// concurrently with each other and with consensus; it locks for itself.
type ConcurrentApp interface {
	abcitypes.Application
	ConcurrentCheckTx()
}

// clientCreator serializes only consensus calls for an app that says it is
// safe (so CheckTx runs on every RPC goroutine at once), and every call for
// any other app, such as CometBFT's kvstore.
func clientCreator(app abcitypes.Application) proxy.ClientCreator {
	if _, ok := app.(ConcurrentApp); ok {
		return proxy.NewConsensusSyncLocalClientCreator(app)
	}
	return proxy.NewLocalClientCreator(app)
}

// Client returns an RPC client that calls the node directly, without HTTP:
// broadcast transactions, query the application, read blocks, status and
// validators. It stays usable until Stop.
func (n *Node) Client() *local.Local { return n.client }

// WaitSynced waits until the node has caught up with its peers and takes part
// in consensus. A single validator is in sync at once; in a network a node
// first syncs blocks, and meanwhile CometBFT refuses BroadcastTxCommit and
// drops transactions gossiped to it (so a transaction that reached only
// syncing validators waits in the mempool until another one triggers a block).
func (n *Node) WaitSynced(ctx context.Context) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		st, err := n.client.Status(ctx)
		if err != nil {
			return fmt.Errorf("node status: %w", err)
		}
		if !st.SyncInfo.CatchingUp {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for sync at height %d: %w", st.SyncInfo.LatestBlockHeight, ctx.Err())
		case <-tick.C:
		}
	}
}

// Comet returns the underlying CometBFT node, for what the RPC client does not
// offer (its block store, event bus or configuration).
func (n *Node) Comet() *nm.Node { return n.cmt }

// Stop stops the node and waits until its databases are closed, so the home
// directory can be opened again. It is safe to call more than once.
func (n *Node) Stop() error {
	n.stopOnce.Do(func() { n.stopErr = n.stop() })
	return n.stopErr
}

func (n *Node) stop() error {
	n.redial.close()
	if err := n.cmt.Stop(); err != nil {
		return fmt.Errorf("stop cometbft: %w", err)
	}
	n.cmt.Wait()
	return errors.Join(n.stopApp(), n.dbs.closeUnowned())
}

// stopApp ends the ABCI connections, which CometBFT's OnStop leaves open.
func (n *Node) stopApp() error {
	if err := n.cmt.ProxyApp().Stop(); err != nil {
		return fmt.Errorf("stop abci connections: %w", err)
	}
	return nil
}

// abortStart cleans up after Start failed half-way. CometBFT reverts to "not
// started" then, so Stop would do nothing; OnStop closes what OnStart opened
// (listeners, switch) and the stores.
func (n *Node) abortStart() {
	n.stopOnce.Do(func() {
		n.cmt.OnStop()
		n.stopErr = errors.Join(n.stopApp(), n.dbs.closeUnowned())
	})
}

// dbSet remembers the databases CometBFT opens through it. Node.OnStop closes
// the block, state and evidence stores but not the indexer's, which would keep
// its lock and make a restart in the same process fail. The ones it closes
// itself are gated (gatedb.go): the indexer's goroutine outlives OnStop.
type dbSet struct {
	log   *slog.Logger
	level slog.Leveler

	mu  sync.Mutex
	dbs map[string]dbm.DB
}

// ownedByNode are the database IDs whose Close is Node.OnStop's job (the
// gate makes a second Close harmless).
var ownedByNode = map[string]bool{"blockstore": true, "state": true, "evidence": true}

func (s *dbSet) provide(ctx *cmtcfg.DBContext) (dbm.DB, error) {
	db, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	if ownedByNode[ctx.ID] {
		// OnStop closes it while consensus goroutines may still read it.
		db = newStoppingStoreDB(db)
	} else {
		// Ours to close, and used by goroutines OnStop does not wait for.
		db = newGatedDB(db)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dbs == nil {
		s.dbs = map[string]dbm.DB{}
	}
	s.dbs[ctx.ID] = db
	return db, nil
}

// open is CometBFT's default provider, except that pebble logs through slog:
// by default it writes recovery notes to the standard logger on every restart.
func (s *dbSet) open(ctx *cmtcfg.DBContext) (dbm.DB, error) {
	if dbm.BackendType(ctx.Config.DBBackend) != dbm.PebbleDBBackend {
		return cmtcfg.DefaultDBProvider(ctx)
	}
	opts := &pebble.Options{Logger: pebbleLogger{l: s.log.With("component", "pebble", "db", ctx.ID), min: s.level}}
	return dbm.NewPebbleDBWithOpts(ctx.ID, ctx.Config.DBDir(), opts)
}

func (s *dbSet) get(id string) dbm.DB {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dbs[id]
}

func (s *dbSet) closeUnowned() error {
	return s.close(func(id string) bool { return !ownedByNode[id] })
}

func (s *dbSet) closeAll() error {
	return s.close(func(string) bool { return true })
}

func (s *dbSet) close(match func(id string) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for id, db := range s.dbs {
		if !match(id) {
			continue
		}
		if err := db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close %s db: %w", id, err))
		}
		delete(s.dbs, id)
	}
	return errors.Join(errs...)
}
