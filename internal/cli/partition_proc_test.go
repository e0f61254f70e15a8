package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
)

// TestAChainHealsAfterTwoValidatorsWereDown stops two of four validators for
// three minutes (the chain halts: three of four must sign), starts them
// again, and sees blocks within 30 s. The two are node0, which dials no
// one, and node1, which dials node0 only: once they are back the chain
// depends on node2 and node3 redialling them. CometBFT's own redial has
// backed off to minutes by then (5 s for about 100 s, then 3^n s), which
// left such a chain split into halves for six minutes; the node's redialer
// dials a missing persistent peer every 5 s. DFORGE_OUTAGE shortens the
// outage for a quick local run (the back-off only shows after ~2 minutes).
//
// The outage is three minutes of waiting on two idle nodes, so this test
// runs in parallel with the package's other multi-node tests (each marked
// "beside the heal test's outage"): Go runs them after the serial tests,
// GOMAXPROCS at a time (two on the 2-core CI machine), and together they
// take about as long as the outage.
// Declared before most of them, this test starts early among them, so
// they are done before its restart, whose 30 s it has to itself.
func TestAChainHealsAfterTwoValidatorsWereDown(t *testing.T) {
	t.Parallel()
	outage := 3 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("DFORGE_OUTAGE")); err == nil && d > 0 {
		outage = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), outage+4*time.Minute)
	defer cancel()
	// node3's admin watches the outage in the admin console's data.
	adminKey, _ := crypto.GenerateKey()
	net := startProcNet(t, ctx, 4, 0, nil, nil, nil, []string{"--admin", crypto.PubkeyToAddress(adminKey.PublicKey).Hex()})
	live := net.nodes[3]
	eventually(t, ctx, "blocks", 30*time.Second, func() (string, bool) {
		h := chainHeight(t, ctx, live)
		return fmt.Sprint("height ", h), h >= 3
	})
	admin := crSignIn(t, ctx, live.url, adminKey)
	consoleShows(t, ctx, live, admin, "all peers, making blocks", true, 3)

	net.nodes[0].stop(t)
	net.nodes[1].stop(t)
	halted := chainHeight(t, ctx, live)
	consoleShows(t, ctx, live, admin, "the outage", false, 1)
	time.Sleep(outage)
	if h := chainHeight(t, ctx, live); h > halted+1 {
		t.Fatalf("the chain made blocks (%d to %d) with two of four validators down", halted, h)
	}

	var wg sync.WaitGroup
	for _, i := range []int{0, 1} {
		wg.Add(1)
		go func() { defer wg.Done(); net.restart(t, ctx, i) }()
	}
	wg.Wait()
	back := time.Now()
	stalled := chainHeight(t, ctx, live)
	eventually(t, ctx, "blocks again", 30*time.Second, func() (string, bool) {
		h := chainHeight(t, ctx, live)
		return fmt.Sprintf("height %d (halted at %d)", h, stalled), h >= stalled+2
	})
	t.Logf("after a %v outage of two validators: blocks again %v after both were up", outage, time.Since(back).Round(100*time.Millisecond))
	consoleShows(t, ctx, live, admin, "the healed network", true, 3)
}

// consoleShows waits until the admin console's node health on p says the
// chain is (or is not) making blocks, with peers connected peers listed.
func consoleShows(t *testing.T, ctx context.Context, p *nodeProc, admin crUser, what string, making bool, peers int) {
	t.Helper()
	eventually(t, ctx, "the admin console showing "+what, 30*time.Second, func() (string, bool) {
		var health struct {
			Chain struct {
				MakingBlocks bool   `json:"making_blocks"`
				Stall        string `json:"stall"`
				PeerList     []struct {
					ID       string `json:"id"`
					Address  string `json:"address"`
					Outbound bool   `json:"outbound"`
				} `json:"peer_list"`
			} `json:"chain"`
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", p.url+"/api/v1/admin/node", nil)
		req.Header.Set("Authorization", "token "+admin.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error(), false
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &health) != nil {
			return fmt.Sprintf("%d %s", res.StatusCode, body), false
		}
		c := health.Chain
		named := len(c.PeerList) == peers
		for _, peer := range c.PeerList {
			named = named && peer.ID != "" && strings.HasPrefix(peer.Address, peer.ID+"@")
		}
		return string(body), c.MakingBlocks == making && (making || c.Stall != "") && named
	})
}
