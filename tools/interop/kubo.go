package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// kubo returns the cached Kubo binary, building it first when the cache
// has none. `go install` fails on Kubo's go.mod, so the module is
// downloaded, copied out of the read-only module cache and built there,
// niced: the build takes minutes on 2 cores.
func (r *run) kubo(ctx context.Context, cache string) (string, error) {
	bin := filepath.Join(cache, "ipfs")
	if v, err := runCmd(ctx, 30*time.Second, exec.Command(bin, "version", "--number")); err == nil {
		if strings.TrimSpace(string(v)) == strings.TrimPrefix(kuboVersion, "v") {
			r.logf("Kubo %s: reusing %s", kuboVersion, bin)
			return bin, nil
		}
		r.logf("%s is Kubo %s, not %s: rebuilding", bin, strings.TrimSpace(string(v)), kuboVersion)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	t0 := time.Now()
	r.logf("building Kubo %s into %s (minutes; once)", kuboVersion, cache)

	// 1. The module, outside any module so no go.mod or go.sum changes.
	dl := exec.Command("go", "mod", "download", "-json", "github.com/ipfs/kubo@"+kuboVersion)
	dl.Dir = cache
	dl.Env = append(os.Environ(), "GO111MODULE=on", "GOWORK=off")
	out, err := runCmd(ctx, 10*time.Minute, dl)
	if err != nil {
		return "", err
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download: %s %v", mod.Error, err)
	}

	// 2. A writable copy, built with its own go.mod.
	src := filepath.Join(cache, "src")
	if err := os.RemoveAll(src); err != nil {
		return "", err
	}
	if err := os.CopyFS(src, os.DirFS(mod.Dir)); err != nil {
		return "", fmt.Errorf("copy %s: %w", mod.Dir, err)
	}
	tmp := bin + ".tmp"
	build := exec.Command("nice", "-n", "19", "go", "build", "-trimpath", "-o", tmp, "./cmd/ipfs")
	build.Dir = src
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
	if _, err := runCmd(ctx, 60*time.Minute, build); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	r.logf("built Kubo %s in %s", kuboVersion, r.time("Kubo build", t0).Round(time.Second))
	return bin, nil
}

// kuboNode is a running `ipfs daemon` with its repo in a temp dir.
type kuboNode struct {
	bin, path string
}

// ipfs runs the Kubo CLI against the daemon and returns its stdout.
func (k *kuboNode) ipfs(ctx context.Context, timeout time.Duration, args ...string) ([]byte, error) {
	cmd := exec.Command(k.bin, args...)
	cmd.Env = k.env()
	return runCmd(ctx, timeout, cmd)
}

func (k *kuboNode) env() []string {
	// IPFS_TELEMETRY=off: the telemetry plugin would post to the internet.
	return append(envWithout(envWithout(os.Environ(), "IPFS_"), "LIBP2P_"), "IPFS_PATH="+k.path, "IPFS_TELEMETRY=off")
}

// startKubo inits a Kubo repo that reaches nothing but loopback (the test
// profile: loopback addresses, no bootstrap peers, no mDNS, no AutoTLS, no
// AutoConf; and no routing at all, so wants go to connected peers only)
// and runs its daemon.
func (r *run) startKubo(ctx context.Context, bin string) (*kuboNode, error) {
	k := &kuboNode{bin: bin, path: filepath.Join(r.tmp, "kubo")}
	if _, err := k.ipfs(ctx, time.Minute, "init", "--profile=test", "--empty-repo"); err != nil {
		return nil, fmt.Errorf("kubo: %w", err)
	}
	ports := make([]int, 3)
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	settings := [][2]string{
		{"Addresses.API", fmt.Sprintf(`"/ip4/127.0.0.1/tcp/%d"`, ports[0])},
		{"Addresses.Gateway", fmt.Sprintf(`"/ip4/127.0.0.1/tcp/%d"`, ports[1])},
		{"Addresses.Swarm", fmt.Sprintf(`["/ip4/127.0.0.1/tcp/%d"]`, ports[2])},
		{"Addresses.Announce", `[]`},
		{"Addresses.NoAnnounce", `[]`},
		{"Bootstrap", `[]`},
		{"Peering.Peers", `[]`},
		{"Routing.Type", `"none"`},
		{"Routing.DelegatedRouters", `[]`},
		{"Ipns.DelegatedPublishers", `[]`},
		{"DNS.Resolvers", `{}`},
		{"AutoConf.Enabled", `false`},
		{"AutoTLS.Enabled", `false`},
		{"Discovery.MDNS.Enabled", `false`},
		{"Swarm.DisableNatPortMap", `true`},
		{"Swarm.RelayClient.Enabled", `false`},
		{"Swarm.RelayService.Enabled", `false`},
		{"Swarm.Transports.Network.QUIC", `false`},
		{"Swarm.Transports.Network.WebTransport", `false`},
		{"Swarm.Transports.Network.WebRTCDirect", `false`},
		{"Swarm.Transports.Network.Websocket", `false`},
		{"Provide.Enabled", `false`},
		{"Plugins.Plugins.telemetry.Config.Mode", `"off"`},
	}
	for _, s := range settings {
		if _, err := k.ipfs(ctx, 30*time.Second, "config", "--json", s[0], s[1]); err != nil {
			return nil, fmt.Errorf("kubo config %s: %w", s[0], err)
		}
	}
	if _, err := k.ipfs(ctx, 30*time.Second, "bootstrap", "rm", "--all"); err != nil {
		return nil, fmt.Errorf("kubo: %w", err)
	}
	t0 := time.Now()
	cmd := exec.Command(bin, "daemon", "--migrate=false")
	cmd.Env = k.env()
	if _, err := r.startProc(ctx, "ipfs daemon", filepath.Join(r.tmp, "kubo.log"), cmd, 2*time.Minute,
		func(line string) bool { return strings.Contains(line, "Daemon is ready") }); err != nil {
		return nil, err
	}
	r.logf("kubo daemon ready in %s (API 127.0.0.1:%d, swarm 127.0.0.1:%d)", r.time("Kubo daemon start", t0).Round(time.Millisecond), ports[0], ports[2])
	return k, nil
}
