package p2p

import "github.com/prometheus/client_golang/prometheus"

// boxo's bitswap counts through go-metrics-interface, which stays a no-op
// without a binding module (go-metrics-prometheus) this node does not
// carry; its Stat holds the same counters, read here at each scrape.
var (
	bsBlocksRecv = prometheus.NewDesc("dforge_bitswap_blocks_received_total", "Blocks received over bitswap (duplicates included).", nil, nil)
	bsBytesRecv  = prometheus.NewDesc("dforge_bitswap_received_bytes_total", "Bytes of blocks received over bitswap.", nil, nil)
	bsDupRecv    = prometheus.NewDesc("dforge_bitswap_duplicate_blocks_received_total", "Blocks received over bitswap that were already here.", nil, nil)
	bsBlocksSent = prometheus.NewDesc("dforge_bitswap_blocks_sent_total", "Blocks sent to peers over bitswap.", nil, nil)
	bsBytesSent  = prometheus.NewDesc("dforge_bitswap_sent_bytes_total", "Bytes of blocks sent to peers over bitswap.", nil, nil)
	bsWanted     = prometheus.NewDesc("dforge_bitswap_wantlist_length", "Blocks this node wants from its peers now.", nil, nil)
	bsPeers      = prometheus.NewDesc("dforge_bitswap_peers", "Peers bitswap talks to now.", nil, nil)
)

// Metrics is the node's bitswap counters as a Prometheus collector.
func (n *Node) Metrics() prometheus.Collector { return bitswapCollector{n} }

type bitswapCollector struct{ n *Node }

func (c bitswapCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{bsBlocksRecv, bsBytesRecv, bsDupRecv, bsBlocksSent, bsBytesSent, bsWanted, bsPeers} {
		ch <- d
	}
}

func (c bitswapCollector) Collect(ch chan<- prometheus.Metric) {
	st, err := c.n.bitswap.Stat()
	if err != nil {
		return // stopped: nothing to report, and the scrape goes on
	}
	counter := func(d *prometheus.Desc, v uint64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v))
	}
	counter(bsBlocksRecv, st.BlocksReceived)
	counter(bsBytesRecv, st.DataReceived)
	counter(bsDupRecv, st.DupBlksReceived)
	counter(bsBlocksSent, st.BlocksSent)
	counter(bsBytesSent, st.DataSent)
	ch <- prometheus.MustNewConstMetric(bsWanted, prometheus.GaugeValue, float64(len(st.Wantlist)))
	ch <- prometheus.MustNewConstMetric(bsPeers, prometheus.GaugeValue, float64(len(st.Peers)))
}
