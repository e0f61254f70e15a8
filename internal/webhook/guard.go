package webhook

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// sharedAddressSpace is RFC 6598's carrier-grade NAT range, private in
// all but name.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// refused says why ip may not be a webhook target by default: as Gitea's
// ALLOWED_HOST_LIST=external, anything not reachable on the internet.
func refused(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate() || sharedAddressSpace.Contains(ip):
		return "private"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsMulticast() || ip.IsInterfaceLocalMulticast():
		return "multicast"
	}
	return ""
}

// guard is a net.Dialer Control func refusing what refused names. It runs
// on the address actually dialed, after DNS, so a name that resolves to a
// public address for a check and a private one for the request (DNS
// rebinding) cannot get through.
func guard(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook target %s: %w", address, err)
	}
	if why := refused(ap.Addr()); why != "" {
		return fmt.Errorf("webhook target %s is a %s address: this node delivers to public addresses only (serve --webhook-allow-private opens others)", ap.Addr(), why)
	}
	return nil
}

// newClient is the HTTP client deliveries go through: no proxy from the
// environment, no redirects followed (the answer is logged as it is), the
// guard unless allowPrivate, and timeout per request.
func newClient(allowPrivate bool, timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = guard
	}
	tr := &http.Transport{
		DialContext: d.DialContext, MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second,
		TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
