package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/forgenode"
)

// dforgeNode is a running `dforge serve` on loopback.
type dforgeNode struct {
	url     string // http://127.0.0.1:port
	p2pAddr string // /ip4/127.0.0.1/tcp/port/p2p/<peer id>
}

var runningAt = regexp.MustCompile(`running at (http://\S+)`)

// startDForge runs `dforge serve` with a fresh data dir, every listener
// on 127.0.0.1 and the IPFS host on a fixed free port, and reads its URL
// and peer id from its output.
func (r *run) startDForge(ctx context.Context, bin string) (*dforgeNode, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	listen := fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port)
	cmd := exec.Command(bin, "serve", "--data", filepath.Join(r.tmp, "dforge"), "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--p2p-listen", listen)
	cmd.Env = append(envWithout(envWithout(os.Environ(), "DFORGE_"), "SENTRY_DSN="), "DFORGE_DB=")
	n := &dforgeNode{}
	var peerID string
	t0 := time.Now()
	_, err = r.startProc(ctx, "dforge serve", filepath.Join(r.tmp, "dforge.log"), cmd, 3*time.Minute, func(line string) bool {
		if m := runningAt.FindStringSubmatch(line); m != nil {
			n.url = m[1]
		}
		var rec struct {
			Msg    string `json:"msg"`
			PeerID string `json:"peer_id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "ipfs node listening" {
			peerID = rec.PeerID
		}
		return n.url != "" && peerID != ""
	})
	if err != nil {
		return nil, err
	}
	n.p2pAddr = listen + "/p2p/" + peerID
	r.logf("dforge serve at %s, IPFS %s, ready in %s", n.url, n.p2pAddr, r.time("dForge node start", t0).Round(time.Millisecond))
	return n, nil
}

// pushedRepo is a public repository pushed to the node, with the git
// directory it was pushed from.
type pushedRepo struct {
	dir    string // the pusher's work tree
	gitEnv []string
	head   string   // the last commit's id
	tree   string   // its root tree
	blob   string   // README.md at head
	subdir string   // the tree of docs/ at head
	all    []string // every object reachable from head
	remote string   // the repository's URL, with the token
	big    string   // the blob on branch big (big.go)
}

// pushRepo signs a new wallet in, creates a public repository and pushes
// three commits to it with the git binary, then waits until the node has
// stored every pushed object as a block (the node stores them after it
// acknowledges the push).
func (r *run) pushRepo(ctx context.Context, n *dforgeNode) (*pushedRepo, error) {
	c, err := forgenode.SignIn(ctx, n.url)
	if err != nil {
		return nil, fmt.Errorf("sign in: %w", err)
	}
	const name = "interop"
	if err := c.Call(ctx, "POST", "/api/v1/user/repos", map[string]any{
		"name": name, "description": "Kubo interop", "private": false, "auto_init": false, "default_branch": "main",
	}, nil, nil); err != nil {
		return nil, fmt.Errorf("create repository: %w", err)
	}
	r.logf("signed in as %s, created public repository %s/%s", c.Login, c.Login, name)

	home := filepath.Join(r.tmp, "home")
	p := &pushedRepo{dir: filepath.Join(r.tmp, "work")}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	p.gitEnv = append(envWithout(os.Environ(), "GIT_"), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Interop", "GIT_AUTHOR_EMAIL=interop@example.org",
		"GIT_COMMITTER_NAME=Interop", "GIT_COMMITTER_EMAIL=interop@example.org")
	if _, err := p.git(ctx, "", "init", "--quiet", "-b", "main", p.dir); err != nil {
		return nil, err
	}
	commits := []map[string]string{
		{"README.md": "# interop\n\nFetched by Kubo over bitswap.\n"},
		{"docs/guide.md": "# Guide\n", "docs/deep/notes.txt": strings.Repeat("notes ", 500), "main.go": "package main\n\nfunc main() {}\n"},
		{"README.md": "# interop\n\nFetched by Kubo over bitswap, by CID.\n", "bin.dat": string(bytes.Repeat([]byte{0, 1, 2, 255}, 4096))},
	}
	for i, files := range commits {
		for f, content := range files {
			path := filepath.Join(p.dir, f)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				return nil, err
			}
		}
		if _, err := p.git(ctx, p.dir, "add", "-A"); err != nil {
			return nil, err
		}
		if _, err := p.git(ctx, p.dir, "commit", "--quiet", "-m", fmt.Sprintf("commit %d", i+1)); err != nil {
			return nil, err
		}
	}
	remote, _ := url.Parse(n.url)
	remote.Path = "/" + c.Login + "/" + name + ".git"
	remote.User = url.UserPassword("git", c.Token)
	p.remote = remote.String()
	t0 := time.Now()
	if _, err := p.git(ctx, p.dir, "push", "--quiet", p.remote, "main"); err != nil {
		return nil, fmt.Errorf("push: %w", err)
	}
	r.logf("pushed 3 commits in %s", r.time("git push", t0).Round(time.Millisecond))

	for ref, dst := range map[string]*string{"HEAD": &p.head, "HEAD^{tree}": &p.tree, "HEAD:README.md": &p.blob, "HEAD:docs": &p.subdir} {
		out, err := p.git(ctx, p.dir, "rev-parse", ref)
		if err != nil {
			return nil, err
		}
		*dst = strings.TrimSpace(string(out))
	}
	out, err := p.git(ctx, p.dir, "rev-list", "--objects", "HEAD")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		p.all = append(p.all, strings.Fields(line)[0])
	}

	// The node's own gateway (offline: its blockstore only) says when
	// every object is a block, so the fetches below time bitswap alone.
	t0 = time.Now()
	if err := waitForBlocks(ctx, n.url, p.all, time.Minute); err != nil {
		return nil, err
	}
	r.logf("the node stored all %d objects as blocks %s after the push", len(p.all), r.time("blocks stored after push", t0).Round(time.Millisecond))
	if err := r.pushBig(ctx, p); err != nil {
		return nil, fmt.Errorf("push the big branch: %w", err)
	}
	return p, nil
}

func (p *pushedRepo) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, p.gitEnv
	return runCmd(ctx, 2*time.Minute, cmd)
}

// loose is the object id as git stores it loose, "<type> <size>\x00<content>":
// what a git-raw block holds.
func (p *pushedRepo) loose(ctx context.Context, id string) ([]byte, error) {
	typ, err := p.git(ctx, p.dir, "cat-file", "-t", id)
	if err != nil {
		return nil, err
	}
	t := strings.TrimSpace(string(typ))
	body, err := p.git(ctx, p.dir, "cat-file", t, id)
	if err != nil {
		return nil, err
	}
	return append(fmt.Appendf(nil, "%s %d\x00", t, len(body)), body...), nil
}

func waitForBlocks(ctx context.Context, base string, ids []string, wait time.Duration) error {
	cids := make([]cid.Cid, len(ids))
	for i, id := range ids {
		c, err := gitCID(id)
		if err != nil {
			return err
		}
		cids[i] = c
	}
	return waitForCIDs(ctx, base, cids, wait)
}

// waitForCIDs waits until the node's own gateway answers each block.
func waitForCIDs(ctx context.Context, base string, cids []cid.Cid, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	client := &http.Client{Timeout: 10 * time.Second}
	for _, c := range cids {
		for {
			req, _ := http.NewRequestWithContext(ctx, "GET", base+"/ipfs/"+c.String()+"?format=raw", nil)
			res, err := client.Do(req)
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				status := "no answer"
				if err == nil {
					status = res.Status
				}
				return fmt.Errorf("%s is not a block on the node %s after the push (%s)", c, wait, status)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}
