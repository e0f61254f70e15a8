package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/forgenode"
)

// testnet is `dforge testnet --validators 2 --full-nodes 2`: node0 and
// node1 validate, node2 and node3 are the fresh nodes.
type testnet struct {
	bin, dir string
	nodes    [4]*forgenode.Node
	http     *http.Client
}

func newTestnet(ctx context.Context, bin, tmp string, out io.Writer) (*testnet, error) {
	n := &testnet{bin: bin, dir: filepath.Join(tmp, "net"), http: &http.Client{Timeout: 30 * time.Second}}
	cmd := exec.CommandContext(ctx, bin, "testnet", "--validators", "2", "--full-nodes", "2", "--out", n.dir, "--empty-blocks", "1s")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("dforge testnet: %w\n%s", err, msg)
	}
	fmt.Fprintf(out, "  wrote a testnet in %s\n", n.dir)
	return n, nil
}

func (n *testnet) home(i int) string { return filepath.Join(n.dir, fmt.Sprintf("node%d", i)) }

// start runs node i (serve --home, with args and env added).
func (n *testnet) start(ctx context.Context, i int, args, env []string) error {
	node, err := forgenode.Start(ctx, n.bin, append([]string{"serve", "--home", n.home(i)}, args...), env,
		filepath.Join(n.dir, fmt.Sprintf("node%d.log", i)))
	if err != nil {
		return fmt.Errorf("node%d: %w", i, err)
	}
	n.nodes[i] = node
	return nil
}

// stopNode stops node i if it runs.
func (n *testnet) stopNode(i int) error {
	if n.nodes[i] == nil {
		return nil
	}
	err := n.nodes[i].Stop()
	n.nodes[i] = nil
	return err
}

// stop stops every node, noting the warnings and errors they logged.
func (n *testnet) stop(r *report) error {
	var errs []error
	for i, node := range n.nodes {
		if node == nil {
			continue
		}
		for _, l := range node.Logs.Top(3) {
			r.note("node%d logged %dx %s: %s", i, l.Count, l.Level, l.Text)
		}
		errs = append(errs, n.stopNode(i))
	}
	return errors.Join(errs...)
}

// signIn signs a new wallet in on node i. A network just started may not
// commit yet (503): it is asked again.
func (n *testnet) signIn(ctx context.Context, i int) (*forgenode.Client, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := forgenode.SignIn(ctx, n.nodes[i].URL)
		if err == nil || time.Now().After(deadline) {
			return c, err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return nil, err
		}
	}
}

// createRepo creates an empty public repository, asking again while the
// network cannot commit (503).
func createRepo(ctx context.Context, c *forgenode.Client, name string) (*forgenode.Repo, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		repo, err := c.CreateRepo(ctx, name)
		var ae *forgenode.APIError
		if err == nil || !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			return repo, err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return nil, err
		}
	}
}

// advertises reports whether node i's git server lists ref at id for
// repo (one GET of /info/refs, as git's first request).
func (n *testnet) advertises(ctx context.Context, i int, repo forgenode.Repo, ref, id string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.nodes[i].URL+"/"+repo.Path()+".git/info/refs?service=git-upload-pack", nil)
	if err != nil {
		return false
	}
	res, err := n.http.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode == http.StatusOK && strings.Contains(string(body), id+" "+ref)
}

// waitAdvertises polls node i every interval until it lists ref at id,
// and returns when it first did. Each poll runs a git process on the
// node, so the interval is no shorter than the precision needs.
func (n *testnet) waitAdvertises(ctx context.Context, i int, repo forgenode.Repo, ref, id string, interval, within time.Duration) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for !n.advertises(ctx, i, repo, ref, id) {
		if err := sleep(ctx, interval); err != nil {
			return time.Time{}, fmt.Errorf("node%d does not list %s at %s after %s", i, ref, id[:12], within)
		}
	}
	return time.Now(), nil
}

// ipfsPeers are node0's and node1's IPFS addresses as the node registry
// lists them (/p2p/<peer id> appended).
func (n *testnet) ipfsPeers(ctx context.Context, c *forgenode.Client) ([]string, error) {
	var list []struct {
		URL    string
		PeerID string `json:"peer_id"`
		Addrs  []string
	}
	if err := c.Call(ctx, "GET", "/api/v1/nodes", nil, &list, nil); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list {
		if e.URL != n.nodes[0].URL && e.URL != n.nodes[1].URL {
			continue
		}
		for _, a := range e.Addrs {
			out = append(out, a+"/p2p/"+e.PeerID)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the node registry lists no IPFS address for node0 or node1: %+v", list)
	}
	return out, nil
}

// memory is each running node's resident memory, now and at its peak.
func (n *testnet) memory() []nodeMemory {
	var out []nodeMemory
	for i, node := range n.nodes {
		if node == nil {
			continue
		}
		rss, peak, err := node.Memory()
		if err == nil {
			out = append(out, nodeMemory{name: fmt.Sprintf("node%d", i), rss: rss, peak: peak})
		}
	}
	return out
}

// authed is git's -c setting that sends the token as the HTTP Basic
// password from the first request.
func authed(token string) []string {
	return []string{"-c", "http.extraHeader=Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("bench:"+token))}
}
