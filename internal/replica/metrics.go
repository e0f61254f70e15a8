package replica

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are replication's Prometheus metrics.
type metrics struct {
	syncs    *prometheus.CounterVec
	duration prometheus.Histogram
}

// newMetrics registers the metrics in reg (nil: none). The queue and the
// repositories behind the chain are read from the replicator at each
// scrape.
func newMetrics(reg prometheus.Registerer, r *Replicator) *metrics {
	m := &metrics{
		syncs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_replica_syncs_total",
			Help: "Runs bringing a seeded repository to the chain's refs, by result (ok, failed).",
		}, []string{"result"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "dforge_replica_sync_duration_seconds", Help: "How long a repository's replication run took.",
			Buckets: prometheus.ExponentialBuckets(0.05, 4, 8), // 50ms .. ~14 min
		}),
	}
	if reg != nil {
		reg.MustRegister(m.syncs, m.duration, summaryCollector{r})
	}
	return m
}

func (m *metrics) run(err error, took time.Duration) {
	result := "ok"
	if err != nil {
		result = "failed"
	}
	m.syncs.WithLabelValues(result).Inc()
	m.duration.Observe(took.Seconds())
}

var (
	queueDesc = prometheus.NewDesc("dforge_replica_queue_length",
		"Seeded repositories waiting for a replication run.", nil, nil)
	reposDesc = prometheus.NewDesc("dforge_replica_repos",
		"Seeded repositories by state: ready (at the chain's refs), replicating (behind, under way or queued), failed (behind, retried).",
		[]string{"state"}, nil)
)

// summaryCollector reports Summary: how far replication lags the chain.
type summaryCollector struct{ r *Replicator }

func (c summaryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queueDesc; ch <- reposDesc }

func (c summaryCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.r.Summary()
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(s.Queued))
	for state, n := range map[string]int{Ready: s.Ready, Replicating: s.Replicating, Failed: s.Failed} {
		ch <- prometheus.MustNewConstMetric(reposDesc, prometheus.GaugeValue, float64(n), state)
	}
}
