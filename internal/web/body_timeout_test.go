package web_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/web"
)

// TestSlowBodyIsCutOff: a client that announces a body and stops sending
// it held its connection for good (a security test waited 40 s). The node
// gives up on the body after BodyTimeout and frees the connection.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := web.NewHandler(web.Deps{Log: log, API: routes.New(log, api.Services{}, "test"), DB: st, Version: "test",
		Dist: testDist, BodyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /api/v1/markdown HTTP/1.1\r\nHost: node\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"text\":\"")
	// Far longer than BodyTimeout, far shorter than "for good".
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	status, err := bufio.NewReader(conn).ReadString('\n')
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the node still waits for the body after 10 s")
	}
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("read the answer: %v", err)
	}
	if err == nil && status[:10] != "HTTP/1.1 4" {
		t.Fatalf("the node answered %q, want a 4xx for the missing body", status)
	}
}
