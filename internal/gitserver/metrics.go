package gitserver

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// sshMetrics are git over SSH's Prometheus metrics.
type sshMetrics struct {
	conns    *prometheus.CounterVec
	sessions prometheus.Gauge
	commands *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newSSHMetrics registers the metrics in reg; nil reg keeps them
// unregistered (counted, never served).
func newSSHMetrics(reg prometheus.Registerer) *sshMetrics {
	m := &sshMetrics{
		conns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_ssh_connections_total",
			Help: "SSH connections by outcome: ok (authenticated), failed (handshake or key refused), refused (server full).",
		}, []string{"result"}),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "dforge_ssh_sessions_active", Help: "SSH sessions open now.",
		}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_ssh_git_commands_total",
			Help: "Commands run over SSH by service (git-upload-pack, git-receive-pack, ...) and result (ok: exit status 0).",
		}, []string{"service", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "dforge_ssh_git_command_duration_seconds", Help: "How long SSH commands ran, by service.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 8), // 10ms .. ~3 min: clones of big repositories
		}, []string{"service"}),
	}
	if reg != nil {
		reg.MustRegister(m.conns, m.sessions, m.commands, m.duration)
	}
	return m
}

// command records one command's service, exit status and duration.
func (m *sshMetrics) command(service string, status uint32, took time.Duration) {
	result := "ok"
	if status != 0 {
		result = "error"
	}
	m.commands.WithLabelValues(service, result).Inc()
	m.duration.WithLabelValues(service).Observe(took.Seconds())
}

// commandService names a command's service for the metrics' label: one
// of the served services, else "other" (a label per arbitrary command a
// client sends would grow without bound).
func commandService(command string) string {
	if svc, _, ok := cutService(command); ok {
		return svc
	}
	if firstWord(command) == lfsAuthenticate {
		return lfsAuthenticate
	}
	return "other"
}
