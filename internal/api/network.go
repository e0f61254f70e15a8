package api

import (
	"net/http"
)

// What a node needs to join the network (dforge join --peer URL): any
// node's genesis and the peer addresses to dial, over its public URL.
// Both are public: the genesis is on every node, peers gossip addresses.

func (a *API) RegisterNetwork(mux *http.ServeMux) {
	if a.Chain == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/chain/genesis", a.Serve(a.getGenesis))
	mux.HandleFunc("GET /api/v1/chain/peers", a.Serve(a.getPeers))
}

func (a *API) getGenesis(w http.ResponseWriter, r *http.Request) error {
	b, err := a.Chain.GenesisJSON(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(b)
	return nil
}

// peersJSON lists CometBFT peer addresses, id@host:port.
type peersJSON struct {
	Peers []string `json:"peers"`
}

func (a *API) getPeers(w http.ResponseWriter, _ *http.Request) error {
	return Reply(w, peersJSON{Peers: a.Chain.PeerAddresses()})
}
