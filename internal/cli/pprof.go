package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// The node's profiles (Go's net/http/pprof) on an address of their own,
// only when asked (--pprof-addr) and only on loopback: a profile shows
// the node's internals, and a CPU profile costs the node while it runs.
// It is how a figure of bench-forge is explained: `go tool pprof
// http://127.0.0.1:6060/debug/pprof/profile?seconds=20`.

// checkPprofAddr refuses an address that is not a loopback host and port.
func checkPprofAddr(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--pprof-addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--pprof-addr %q: profiles are served on loopback only (127.0.0.1:<port>)", addr)
	}
	return nil
}

// servePprof serves the profiles on addr until ctx ends, and says where.
func servePprof(ctx context.Context, addr string, log *slog.Logger) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("listen for profiles on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	log.Info("profiles served", "addr", ln.Addr().String())
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("serve profiles", "err", err)
		}
	}()
	return ln.Addr().String(), nil
}
