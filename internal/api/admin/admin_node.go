package admin

import (
	"context"
	"errors"

	"github.com/dforge/dforge/internal/api"
	"net/http"
	"time"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/replica"
)

// adminNodeJSON is the node's health for its admins.
type adminNodeJSON struct {
	Version     string                `json:"version"`
	Chain       *chainHealthJSON      `json:"chain,omitempty"`
	Index       *indexHealthJSON      `json:"index,omitempty"`
	Replication replicationHealthJSON `json:"replication"`
	Disk        *diskJSON             `json:"disk,omitempty"`
}

// chainHealthJSON is where this node's copy of the chain stands.
type chainHealthJSON struct {
	Height          int64      `json:"height"`
	LatestBlockTime *time.Time `json:"latest_block_time,omitempty"` // none before the first block
	CatchingUp      bool       `json:"catching_up"`
	Peers           int        `json:"peers"`
	// MakingBlocks says whether the network commits blocks now, as far as
	// this node can tell; Stall says why not.
	MakingBlocks bool       `json:"making_blocks"`
	Stall        string     `json:"stall,omitempty"`
	PeerList     []peerJSON `json:"peer_list"`
	Error        string     `json:"error,omitempty"`
}

// peerJSON is a connected peer.
type peerJSON struct {
	ID       string `json:"id"`
	Moniker  string `json:"moniker"`
	Address  string `json:"address"`  // id@host:port it listens on
	Outbound bool   `json:"outbound"` // this node dialled it
	// ConnectedSeconds is how long the connection has lasted.
	ConnectedSeconds int64 `json:"connected_seconds"`
}

// indexHealthJSON is the SQL projection: Lag blocks behind the chain.
type indexHealthJSON struct {
	Height  int64  `json:"height"`
	Lag     int64  `json:"lag"`
	Stalled bool   `json:"stalled"`
	StuckAt int64  `json:"stuck_at,omitempty"`
	Error   string `json:"error,omitempty"`
}

// replicationHealthJSON counts the public repositories this node seeds by
// where their git data stands; Enabled is false on a node that
// replicates none.
type replicationHealthJSON struct {
	Enabled bool `json:"enabled"`
	replica.Summary
}

// diskJSON is the file system that holds the data directory.
type diskJSON struct {
	Path       string `json:"path"`
	TotalBytes uint64 `json:"total_bytes"`
	FreeBytes  uint64 `json:"free_bytes"`
	UsedBytes  uint64 `json:"used_bytes"`
}

// getAdminNode is the node's health: chain height and peers, the
// projection's lag, replication and disk.
func (a *Handler) getAdminNode(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	out := adminNodeJSON{Version: a.Version, Chain: a.chainHealth(r.Context())}
	if a.Index != nil {
		out.Index = &indexHealthJSON{Height: a.Index.Height()}
		if out.Chain != nil {
			out.Index.Lag = max(0, out.Chain.Height-out.Index.Height)
		}
		if s := a.Index.Stall(); s != nil {
			out.Index.Stalled, out.Index.StuckAt, out.Index.Error = true, s.Height, s.Err.Error()
		}
	}
	if rs, ok := a.Replicas.(interface{ Summary() replica.Summary }); ok {
		out.Replication = replicationHealthJSON{Enabled: true, Summary: rs.Summary()}
	}
	if a.DataDir != "" {
		out.Disk = diskUsage(a.DataDir)
	}
	api.WriteNoStore(w, http.StatusOK, out)
	return nil
}

// chainHealth asks the in-process CometBFT node; nil without a chain.
func (a *Handler) chainHealth(ctx context.Context) *chainHealthJSON {
	if a.Chain == nil {
		return nil
	}
	out := &chainHealthJSON{}
	client := a.Chain.Client()
	st, err := client.Status(ctx)
	if err != nil {
		out.Error = "status: " + err.Error()
		return out
	}
	out.Height, out.CatchingUp = st.SyncInfo.LatestBlockHeight, st.SyncInfo.CatchingUp
	if out.Height > 0 {
		t := st.SyncInfo.LatestBlockTime.UTC()
		out.LatestBlockTime = &t
	}
	ni, err := client.NetInfo(ctx)
	if err != nil {
		out.Error = "peers: " + err.Error()
		return out
	}
	out.Peers = ni.NPeers
	out.PeerList = []peerJSON{}
	for _, p := range a.Chain.Peers() {
		out.PeerList = append(out.PeerList, peerJSON{ID: p.ID, Moniker: p.Moniker, Address: p.Address, Outbound: p.Outbound,
			ConnectedSeconds: int64(p.Since / time.Second)})
	}
	var nc *chain.NotCommitting
	switch err := a.Chain.Committing(ctx); {
	case err == nil:
		out.MakingBlocks = true
	case errors.As(err, &nc):
		out.Stall = nc.Reason
	default:
		out.Error = "liveness: " + err.Error()
	}
	return out
}

// getAdminSettings is the settings the node runs with (serve's flags and
// environment), read-only and without secrets.
func (a *Handler) getAdminSettings(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	out := make([]api.Setting, len(a.Settings))
	copy(out, a.Settings)
	api.WriteNoStore(w, http.StatusOK, out)
	return nil
}
