package webhook

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestGuardRefusesNonPublicAddresses: what Gitea's "external" host list
// refuses is refused on the dialed address, so a name resolving to
// loopback (localhost) is refused like the literal.
func TestGuardRefusesNonPublicAddresses(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1": "loopback", "::1": "loopback", "10.1.2.3": "private", "192.168.0.9": "private", "172.16.5.4": "private",
		"fd00::1": "private", "100.64.0.1": "private", "169.254.169.254": "link-local", "fe80::1": "link-local",
		"0.0.0.0": "unspecified", "239.1.2.3": "multicast", "224.0.0.1": "link-local", "::ffff:127.0.0.1": "loopback",
		"93.184.216.34": "", "2606:4700::1111": "",
	} {
		if got := refused(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
	c := newClient(false, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := newRequest(ctx, "http://localhost:1/")
	if _, err := c.Do(req); err == nil || !strings.Contains(err.Error(), "loopback address") {
		t.Fatalf("localhost: %v", err)
	}
}

// TestBranchFilter: Gitea's glob filter on branches; tags always pass.
func TestBranchFilter(t *testing.T) {
	h := Hook{BranchFilter: "{main,release/*}"}
	for ref, want := range map[string]bool{
		"refs/heads/main": true, "refs/heads/release/1.0": true, "refs/heads/release/1/x": false,
		"refs/heads/feature": false, "refs/tags/v1": true,
	} {
		if got := h.branchMatches(ref); got != want {
			t.Errorf("%s: %v, want %v", ref, got, want)
		}
	}
	if !(Hook{BranchFilter: "feat/**"}).branchMatches("refs/heads/feat/a/b") {
		t.Error("** should cross segments")
	}
}

func newRequest(ctx context.Context, url string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, "POST", url, nil)
}
