package cli

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServeFlagsAndEnv(t *testing.T) {
	t.Setenv("DFORGE_ADDR", "127.0.0.1:4000")
	t.Setenv("DFORGE_DATA", "/srv/dforge")
	t.Setenv("DFORGE_DB", "")
	cfg, err := parseServe(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:4000" || cfg.DataDir != "/srv/dforge" || cfg.DB != "/srv/dforge/dforge.db" {
		t.Fatalf("env config = %+v", cfg)
	}
	cfg, err = parseServe([]string{"--addr", "0.0.0.0:5000", "--db", "postgres://u@h/db"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "0.0.0.0:5000" || cfg.DB != "postgres://u@h/db" {
		t.Fatalf("flags must win over env: %+v", cfg)
	}
	if _, err := parseServe([]string{"stray"}); err == nil {
		t.Fatal("a stray argument must be an error")
	}
}

func TestServeOriginFlags(t *testing.T) {
	t.Setenv("DFORGE_ALLOWED_ORIGINS", "http://localhost:5173, https://dev.example")
	cfg, err := parseServe(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.AllowedOrigins, " "); got != "http://localhost:5173 https://dev.example" {
		t.Fatalf("allowed origins from env = %q", got)
	}
	cfg, err = parseServe([]string{"--allowed-origin", "http://a.example", "--allowed-origin", "http://b.example"})
	if err != nil || strings.Join(cfg.AllowedOrigins, " ") != "http://a.example http://b.example" {
		t.Fatalf("flags must replace env and repeat: %+v, %v", cfg.AllowedOrigins, err)
	}
	for _, bad := range [][]string{{"--allowed-origin", "evil.example"}, {"--public-url", "https://forge.example.org/path"}} {
		if _, err := parseServe(bad); err == nil {
			t.Errorf("parseServe(%q) accepted a value that is not an origin", bad)
		}
	}
}

func TestServeAdminFlag(t *testing.T) {
	const a, b = "0x00000000000000000000000000000000000000aa", "0x00000000000000000000000000000000000000bb"
	t.Setenv("DFORGE_ADMINS", a)
	cfg, err := parseServe(nil)
	if err != nil || len(cfg.Admins) != 1 || !strings.EqualFold(cfg.Admins[0].Hex(), a) {
		t.Fatalf("admins from env = %v, %v", cfg.Admins, err)
	}
	cfg, err = parseServe([]string{"--admin", b})
	if err != nil || len(cfg.Admins) != 1 || !strings.EqualFold(cfg.Admins[0].Hex(), b) {
		t.Fatalf("the flag must replace env: %v, %v", cfg.Admins, err)
	}
	if _, err := parseServe([]string{"--admin", "alice"}); err == nil {
		t.Fatal("--admin accepted a value that is not a wallet address")
	}
	t.Setenv("DFORGE_ADMINS", "nope")
	if _, err := parseServe(nil); err == nil {
		t.Fatal("DFORGE_ADMINS accepted a value that is not a wallet address")
	}
}

func TestServeDefaults(t *testing.T) {
	t.Setenv("DFORGE_ADDR", "")
	t.Setenv("DFORGE_DATA", "")
	t.Setenv("DFORGE_DB", "")
	cfg, err := parseServe(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:3000" || cfg.DataDir != "./data" || cfg.DB != filepath.Join("data", "dforge.db") {
		t.Fatalf("defaults = %+v", cfg)
	}
}

// startServe runs Serve on free ports over dir and returns its URL; cancel
// stops it, and done delivers Serve's result.
func startServe(t *testing.T, dir string) (url string, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	result := make(chan error, 1)
	go func() {
		cfg := ServeConfig{Addr: "127.0.0.1:0", DataDir: dir, DB: filepath.Join(dir, "d.db"), RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0"}
		result <- Serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), pw)
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	return strings.TrimSpace(line[strings.Index(line, "http://"):]), cancel, result
}

// TestServeShutsDownGracefully starts a real node, makes a request, cancels
// the context as SIGTERM would, and checks Serve returns cleanly.
func TestServeShutsDownGracefully(t *testing.T) {
	url, cancel, done := startServe(t, t.TempDir())
	res, err := http.Get(url + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz on %s: %v %v", url, res, err)
	}
	res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop after cancel")
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}

// TestInitThenServeHasTheAllocations creates a data dir with `dforge init`
// and checks a node served from it holds the genesis balances.
func TestInitThenServeHasTheAllocations(t *testing.T) {
	dir := t.TempDir()
	addr := "0x00000000000000000000000000000000000A11cE"
	var out strings.Builder
	if err := Run(context.Background(), []string{"init", "--data", dir, "--alloc", addr + "=1234567"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), []string{"init", "--data", dir, "--alloc", "nope=1"}, &out); err == nil {
		t.Fatal("a malformed --alloc must be refused")
	}
	url, cancel, done := startServe(t, dir)
	defer cancel()
	res, err := http.Get(url + "/api/v1/accounts/" + addr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"balance":1234567`) {
		t.Fatalf("account after init = %s", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
}

// Profiles are served only where asked and only on loopback: an address
// another host could reach is refused before the node starts.
func TestServePprofOnLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:6060", ":6060", "192.168.1.2:6060", "example.org:6060", "6060"} {
		if _, err := parseServe([]string{"--pprof-addr", addr}); err == nil || !strings.Contains(err.Error(), "pprof-addr") {
			t.Errorf("--pprof-addr %s: %v, want refused", addr, err)
		}
	}
	cfg, err := parseServe([]string{"--pprof-addr", "127.0.0.1:0"})
	if err != nil || cfg.PprofAddr != "127.0.0.1:0" {
		t.Fatalf("a loopback address: %+v %v", cfg, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	at, err := servePprof(ctx, "127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + at + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "cli.test") {
		t.Fatalf("GET /debug/pprof/cmdline: %d %q", res.StatusCode, body)
	}
}
