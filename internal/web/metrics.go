package web

import (
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
)

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newMetrics registers the node's HTTP metrics, with Go and process metrics,
// on a registry of its own so tests can run several servers in one process.
func newMetrics(reg *prometheus.Registry) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_http_requests_total", Help: "HTTP requests by method, route and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "dforge_http_request_duration_seconds", Help: "HTTP request latency by method and route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// cometMetrics gathers CometBFT's metrics from the default registry: the
// families named cometbft_*, as the default registry also holds the Go
// runtime's and process's, which the node's own registry serves already.
type cometMetrics struct{}

func (cometMetrics) Gather() ([]*dto.MetricFamily, error) {
	all, err := prometheus.DefaultGatherer.Gather()
	return slices.DeleteFunc(all, func(f *dto.MetricFamily) bool { return !strings.HasPrefix(f.GetName(), "cometbft_") }), err
}
