package node

import (
	"log/slog"
	"strings"
	"time"

	"github.com/cometbft/cometbft/p2p"
)

// redialEvery is how often a node dials the persistent peers it is not
// connected to. CometBFT's own redial tries every 5 s for about 100 s,
// then backs off exponentially (3^n seconds: 81 s, then 243 s...), so
// validators that come back after a few minutes' outage wait minutes to be
// dialled, and a 4-validator chain stays split into halves that cannot
// make blocks (issue 27: halted six minutes with all four back up).
const redialEvery = 5 * time.Second

// redialer dials, every redialEvery, each of the node's persistent peers it
// has no connection to and is not dialling. Each pair of testnet nodes has
// one dialer (peersBefore), and a joined node dials the others, so this
// never dials a pair from both ends.
type redialer struct {
	sw    *p2p.Switch
	peers []*p2p.NetAddress
	log   *slog.Logger
	stop  chan struct{}
	done  chan struct{}
}

// startRedialer starts redialing the peers of a persistent_peers list; it
// returns nil when there are none.
func startRedialer(sw *p2p.Switch, persistent string, log *slog.Logger) *redialer {
	var list []string
	for _, p := range strings.Split(persistent, ",") {
		if p = strings.TrimSpace(p); p != "" {
			list = append(list, p)
		}
	}
	addrs, errs := p2p.NewNetAddressStrings(list)
	for _, err := range errs {
		log.Warn("a persistent peer's address", "err", err)
	}
	if len(addrs) == 0 {
		return nil
	}
	r := &redialer{sw: sw, peers: addrs, log: log, stop: make(chan struct{}), done: make(chan struct{})}
	go r.run()
	return r
}

func (r *redialer) run() {
	defer close(r.done)
	tick := time.NewTicker(redialEvery)
	defer tick.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-tick.C:
			r.dialMissing()
		}
	}
}

// dialMissing dials, one after another, the peers the switch has no
// connection to; a dial is bounded by CometBFT's dial timeout (3 s).
func (r *redialer) dialMissing() {
	for _, addr := range r.peers {
		if !r.sw.IsRunning() {
			return
		}
		if r.sw.IsDialingOrExistingAddress(addr) {
			continue
		}
		if err := r.sw.DialPeerWithAddress(addr); err != nil {
			r.log.Debug("redial a persistent peer", "peer", addr.String(), "err", err)
		}
	}
}

// close stops the redialer and waits for a dial under way.
func (r *redialer) close() {
	if r == nil {
		return
	}
	close(r.stop)
	<-r.done
}
