package cli

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A serving node's /metrics holds CometBFT's metrics under their usual
// names beside the node's own, and the chain's height there moves.
func TestMetricsServeCometBFTsOwn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := startProcNet(t, ctx, 1, 0).nodes[0]
	height := regexp.MustCompile(`(?m)^cometbft_consensus_height\{chain_id="[^"]+"\} (\d+)$`)
	eventually(t, ctx, "cometbft_consensus_height past 1 on /metrics", 30*time.Second, func() (string, bool) {
		res, err := http.Get(p.url + "/metrics")
		if err != nil {
			return err.Error(), false
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		for _, name := range []string{"cometbft_consensus_validators", "cometbft_mempool_size", "go_goroutines", "dforge_http_requests_total"} {
			if !strings.Contains(string(body), name) {
				return "no " + name + " in " + res.Status + " " + string(body[:min(len(body), 300)]), false
			}
		}
		m := height.FindSubmatch(body)
		if m == nil {
			return "no cometbft_consensus_height", false
		}
		h, _ := strconv.Atoi(string(m[1]))
		return "height " + string(m[1]), h > 1
	})
}
