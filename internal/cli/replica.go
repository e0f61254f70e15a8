package cli

import (
	"context"
	"log/slog"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/replica"
)

// startReplica runs the replicator in the background: the public
// repositories the policy seeds, brought to the chain's refs from the
// nodes the registry lists (the relaying one first), else over bitswap.
// stop cancels it and waits for its workers.
func startReplica(ctx context.Context, policy replica.Policy, operator common.Address, ix *index.Index, git *gitstore.Store,
	hosting *gitrepos.Repos, bs *blocks.Store, ipfs *p2p.Node, log *slog.Logger) (rep *replica.Replicator, stop func()) {
	rep = replica.New(replica.Config{
		Chain: ix, Git: git, Dirs: hosting, Blocks: bs, Bitswap: ipfs,
		Peers: replica.RegistryPeers(ix), Self: operator, Policy: policy, Log: log,
	})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rep.Run(ctx)
	}()
	log.Info("replicating public repositories", "seed", policy.String())
	return rep, func() {
		cancel()
		<-done
	}
}
