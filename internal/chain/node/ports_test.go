package node

import (
	"fmt"
	"net"
	"testing"
)

// TestFreePortsAreBindableAndOutsideTheEphemeralRange: outgoing connections
// take their source ports from the ephemeral range, so a port chosen there
// could be gone before a testnet node binds it.
func TestFreePortsAreBindableAndOutsideTheEphemeralRange(t *testing.T) {
	ports, err := FreePorts(24)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	low := ephemeralLow()
	for _, p := range ports {
		if seen[p] {
			t.Fatalf("port %d returned twice in %v", p, ports)
		}
		seen[p] = true
		if p < fixedPortFloor || p >= low {
			t.Fatalf("port %d is outside [%d, %d)", p, fixedPortFloor, low)
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		l.Close()
	}
}
