package chain

import (
	"errors"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/chain/tx"
)

// metrics are the relay's Prometheus metrics: the transactions this node
// sends into the chain (its operator's forge actions, users' signed ones).
type metrics struct {
	txs     *prometheus.CounterVec
	rejects *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		txs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_relay_txs_total",
			Help: "Transactions relayed, by result (committed, failed: in a block with a non-zero code, rejected: refused before a block, error: no answer) and code.",
		}, []string{"result", "code"}),
		rejects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dforge_relay_checktx_rejects_total",
			Help: "Transactions refused before a block, by stage (precheck: CheckTx's strict judgement of this node's own transaction, checktx: any other refusal) and code.",
		}, []string{"stage", "code"}),
	}
	if reg != nil {
		reg.MustRegister(m.txs, m.rejects)
	}
	return m
}

// refused records a transaction the node did not get into the mempool.
func (m *metrics) refused(stage string, err error) {
	var te *tx.Error
	if !errors.As(err, &te) {
		m.txs.WithLabelValues("error", "").Inc()
		return
	}
	code := strconv.FormatUint(uint64(te.Code), 10)
	m.rejects.WithLabelValues(stage, code).Inc()
	m.txs.WithLabelValues("rejected", code).Inc()
}

// committed records a transaction's result in its block.
func (m *metrics) committed(code uint32) {
	result := "committed"
	if code != 0 {
		result = "failed"
	}
	m.txs.WithLabelValues(result, strconv.FormatUint(uint64(code), 10)).Inc()
}
