package webhook

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the webhook deliveries' Prometheus metrics.
type metrics struct {
	deliveries *prometheus.CounterVec
	duration   prometheus.Histogram
}

// newMetrics registers the metrics in reg (nil: none); the queue length
// is read from SQL at each scrape, where the queue lives.
func newMetrics(reg prometheus.Registerer, db *sql.DB) *metrics {
	m := &metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_webhook_deliveries_total",
			Help: "Webhook delivery attempts by event and status class (2xx, 3xx, 4xx, 5xx, or error when no answer came).",
		}, []string{"event", "status"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "dforge_webhook_delivery_duration_seconds", Help: "How long receivers took to answer a delivery.",
			Buckets: prometheus.DefBuckets,
		}),
	}
	if reg == nil {
		return m
	}
	queue := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "dforge_webhook_queue_length", Help: "Webhook deliveries pending (queued or waiting for a retry).",
	}, func() float64 { return float64(pendingCount(db)) })
	reg.MustRegister(m.deliveries, m.duration, queue)
	return m
}

// pendingCount is the number of pending deliveries; -1 when it cannot be
// read (the scrape must not fail for it).
func pendingCount(db *sql.DB) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var n int64
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'`).Scan(&n); err != nil {
		return -1
	}
	return n
}

// attempt records one delivery attempt's outcome.
func (m *metrics) attempt(event string, o outcome) {
	class := "error"
	if o.status >= 100 && o.status < 600 {
		class = strconv.Itoa(o.status/100) + "xx"
	}
	m.deliveries.WithLabelValues(event, class).Inc()
	if o.duration > 0 {
		m.duration.Observe(o.duration.Seconds())
	}
}
