package cli

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// TestMetricsCountEachSurface drives each of a node's services once (a
// relayed forge action, a webhook delivery, git ls-remote over SSH, a
// repository replicated to the other node) and checks its counters on
// /metrics moved, not only that they exist.
func TestMetricsCountEachSurface(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Fatal("this test needs OpenSSH's client (scripts/ensure-ssh.sh)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var hits atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.Copy(io.Discard, r.Body)
	}))
	defer receiver.Close()
	net := startProcNet(t, ctx, 2, 0, []string{"--webhook-allow-private"})
	node0, node1 := net.nodes[0].url, net.nodes[1].url

	// 1. A relayed forge action (the repository's creation) and a hook.
	key := newWallet(t).key
	alice := crSignIn(t, ctx, node0, key)
	crCreateRepo(t, ctx, node0, alice, "demo")
	res, body := crTokenPost(t, ctx, node0+"/api/v1/repos/"+alice.login+"/demo/hooks", alice, map[string]any{
		"type": "gitea", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": receiver.URL + "/hook", "content_type": "json"},
	})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create hook: %d %s", res.StatusCode, body)
	}
	wantMetric(t, ctx, node0, `dforge_relay_txs_total{code="0",result="committed"}`)

	// 2. A push: the hook delivers it, node1 replicates it.
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	work.run("push", "--quiet", alice.remote(node0, "demo"), "main")
	wantMetric(t, ctx, node0, `dforge_webhook_deliveries_total{event="push",status="2xx"}`)
	if hits.Load() == 0 {
		t.Fatal("the receiver got no delivery")
	}
	net.waitServes(t, ctx, 1, "/"+alice.login+"/demo.git", work.headRefs("main"))
	wantMetric(t, ctx, node1, `dforge_replica_syncs_total{result="ok"}`)

	// 3. git ls-remote over SSH with a key registered on chain.
	keyFile := sshKeyWithWallet(t, ctx, node0, alice, key)
	ls := exec.CommandContext(ctx, "git", "ls-remote", sshURL(t, ctx, node0, alice.login, "demo"))
	ls.Env = append(gitEnv(t.TempDir()), "GIT_SSH_COMMAND="+forgetest.SSHCommand(keyFile))
	if out, err := ls.CombinedOutput(); err != nil || !strings.Contains(string(out), "refs/heads/main") {
		t.Fatalf("ls-remote over ssh: %v\n%s", err, out)
	}
	wantMetric(t, ctx, node0, `dforge_ssh_connections_total{result="ok"}`)
	wantMetric(t, ctx, node0, `dforge_ssh_git_commands_total{result="ok",service="git-upload-pack"}`)
	wantMetric(t, ctx, node0, `dforge_ssh_git_command_duration_seconds_count{service="git-upload-pack"}`)
	// Present, though replication over git needed no block over bitswap.
	for _, name := range []string{"dforge_bitswap_blocks_sent_total", "dforge_webhook_queue_length", "dforge_replica_queue_length", "dforge_ssh_sessions_active"} {
		wantPresent(t, ctx, node0, name)
	}
}

// wantMetric waits until the sample named (with its labels, as the
// exposition format writes them) is above zero on the node's /metrics.
func wantMetric(t *testing.T, ctx context.Context, base, sample string) {
	t.Helper()
	line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` (\S+)$`)
	eventually(t, ctx, sample+" > 0 on "+base, 45*time.Second, func() (string, bool) {
		body, err := scrape(ctx, base)
		if err != nil {
			return err.Error(), false
		}
		m := line.FindStringSubmatch(body)
		if m == nil {
			return "absent", false
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return m[1], v > 0
	})
}

func wantPresent(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	body, err := scrape(ctx, base)
	if err != nil || !strings.Contains(body, "\n"+name) {
		t.Fatalf("no %s on %s/metrics (%v)", name, base, err)
	}
}

func scrape(ctx context.Context, base string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

// sshKeyWithWallet makes an SSH key and registers it as the web app does:
// adding a key is never delegated, so the wallet signs the transaction the
// node's refusal carries.
func sshKeyWithWallet(t *testing.T, ctx context.Context, base string, u crUser, key *ecdsa.PrivateKey) string {
	t.Helper()
	private := filepath.Join(t.TempDir(), "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", private).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, _ := os.ReadFile(private + ".pub")
	body := map[string]any{"title": "metrics", "key": strings.TrimSpace(string(pub))}
	res, refusal := crTokenPost(t, ctx, base+"/api/v1/user/keys", u, body)
	var sign struct {
		Sign struct {
			Type    string         `json:"type"`
			Message map[string]any `json:"message"`
		} `json:"sign"`
	}
	if res.StatusCode != http.StatusForbidden || json.Unmarshal([]byte(refusal), &sign) != nil {
		t.Fatalf("add key: %d %s, want the transaction to sign", res.StatusCode, refusal)
	}
	env, err := tx.Sign(key, tx.Kind(sign.Sign.Type), sign.Sign.Message, app.DefaultParams().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.Encode(env)
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/user/keys", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+u.token)
	req.Header.Set("X-Dforge-Signed-Tx", base64.StdEncoding.EncodeToString(raw))
	signed, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer signed.Body.Close()
	if out, _ := io.ReadAll(signed.Body); signed.StatusCode != http.StatusCreated {
		t.Fatalf("add key signed by the wallet: %d %s", signed.StatusCode, out)
	}
	return private
}

// sshURL is the repository's ssh_url as the API gives it.
func sshURL(t *testing.T, ctx context.Context, base, owner, name string) string {
	t.Helper()
	var repo struct {
		SSHURL string `json:"ssh_url"`
	}
	if err := getJSON(ctx, fmt.Sprintf("%s/api/v1/repos/%s/%s", base, owner, name), &repo); err != nil || repo.SSHURL == "" {
		t.Fatalf("ssh_url of %s/%s: %q %v", owner, name, repo.SSHURL, err)
	}
	return repo.SSHURL
}
