package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/chain/node"
)

// childEnv marks the test binary, re-executed, as a dforge process.
const childEnv = "DFORGE_TEST_CLI_CHILD"

// TestMain lets the test binary stand in for the dforge binary: the tests
// run nodes as real child processes (so killing one is a real SIGKILL)
// without a `go build` step, and under -race the nodes are checked too.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild is cmd/dforge's main, plus one thing: the parent holds the
// child's stdin open, so EOF means the test process died (a panic or a
// -timeout) and the node stops instead of outliving it. A git hook the
// node runs (the same binary, `hook <name>`) reads its stdin itself.
func runChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 || os.Args[1] != "hook" {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	if err := Run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dforge:", err)
		return 1
	}
	return 0
}

// nodeProc is a `dforge serve --home` child process.
type nodeProc struct {
	name string
	url  string // the HTTP API, from the node's start-up line
	rpc  string // CometBFT's RPC, http://host:port
	cmd  *exec.Cmd
	log  string // the child's stderr
	done chan struct{}
}

// startNodeProc runs `dforge serve --home home` and waits for the line that
// says it listens. The process is killed when the test ends.
func startNodeProc(t *testing.T, ctx context.Context, home, name string) *nodeProc {
	t.Helper()
	rpc, _, err := node.ListenAddrs(cometHome(home))
	if err != nil {
		t.Fatal(err)
	}
	p := &nodeProc{name: name, rpc: strings.Replace(rpc, "tcp://", "http://", 1), done: make(chan struct{})}
	p.log = filepath.Join(t.TempDir(), name+".log")
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the child has its own descriptor
	p.cmd = exec.Command(os.Args[0], "serve", "--home", home)
	p.cmd.Env = append(withoutDForgeEnv(os.Environ()), childEnv+"=1")
	p.cmd.Stderr = logFile
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.cmd.StdinPipe(); err != nil { // held open until we exit
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	t.Cleanup(func() { p.report(t) })
	p.url = waitListening(t, ctx, p, stdout)
	return p
}

// waitListening reads the child's stdout until it announces its URL.
func waitListening(t *testing.T, ctx context.Context, p *nodeProc, stdout io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "running at "); ok {
				found <- strings.TrimSpace(url)
				break
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-found:
		return url
	case <-p.done:
		t.Fatalf("%s exited before listening: %s", p.name, p.cmd.ProcessState)
	case <-ctx.Done():
		t.Fatalf("%s did not start: %v", p.name, ctx.Err())
	}
	return ""
}

// kill sends SIGKILL, as a crash or power loss would, and waits for the exit.
func (p *nodeProc) kill() {
	p.cmd.Process.Kill()
	<-p.done
}

// report shows the end of the node's log when the test failed, and fails it
// when the race detector reported a race in the node.
func (p *nodeProc) report(t *testing.T) {
	data, _ := os.ReadFile(p.log)
	if bytes.Contains(data, []byte("WARNING: DATA RACE")) {
		t.Errorf("%s: the race detector reported a race:\n%s", p.name, data)
		return
	}
	if t.Failed() {
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		t.Logf("%s log (last lines):\n%s", p.name, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
}

// withoutDForgeEnv drops DFORGE_* variables, which would override the
// settings the node dirs hold.
func withoutDForgeEnv(env []string) []string {
	kept := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DFORGE_") {
			kept = append(kept, kv)
		}
	}
	return kept
}

// rpcResult calls a CometBFT RPC method over HTTP and decodes its result.
func rpcResult(ctx context.Context, base, path string, result any) error {
	var envelope struct {
		Result json.RawMessage
		Error  *struct{ Message, Data string }
	}
	if err := getJSON(ctx, base+path, &envelope); err != nil {
		return err
	}
	if envelope.Error != nil {
		return fmt.Errorf("%s: %s %s", path, envelope.Error.Message, envelope.Error.Data)
	}
	return json.Unmarshal(envelope.Result, result)
}

func getJSON(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w in %s", url, err, body)
	}
	return nil
}

// eventually polls check until it reports done, and fails the test with the
// last state it described when that takes longer than within.
func eventually(t *testing.T, ctx context.Context, what string, within time.Duration, check func() (state string, done bool)) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		state, done := check()
		if done {
			return state
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("%s: still %s after %v", what, state, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
