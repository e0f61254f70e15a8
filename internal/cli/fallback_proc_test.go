package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain/node"
)

// TestReplicationFallsBackToBitswap: a node whose dForge peers are
// unreachable restores a repository from an IPFS peer that holds its
// blocks. node0 registers a public URL nothing listens on while its libp2p
// host runs; a push to it, with a 5 MiB file, reaches node1 over bitswap
// after its git fetch fails, complete (same refs, clean fsck). A git-raw
// block of 5 MiB is over libp2p's 4 MiB message limit, so that file can
// only come as its UnixFS chunks, which the push's manifest names (node0
// records it once it has stored the push's blocks, after the push).
func TestReplicationFallsBackToBitswap(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ports, err := node.FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("http://127.0.0.1:%d", ports[0]) // nothing listens there
	net := startProcNet(t, ctx, 1, 1, []string{"--public-url", dead})

	// 1. node0 re-registers with the dead URL, and node1 sees it.
	eventually(t, ctx, "node1 lists node0 at "+dead, 30*time.Second, func() (string, bool) {
		var list []struct{ URL string }
		err := getJSON(ctx, net.nodes[1].url+"/api/v1/nodes", &list)
		return fmt.Sprint(list, err), err == nil && strings.Contains(fmt.Sprint(list), dead)
	})

	// 2. Alice signs in on node0 (for its configured origin, the dead
	// URL's), creates a public repository and pushes three commits on two
	// branches, one with a big file.
	alice := newWallet(t)
	alice.users[0] = crSignInAt(t, ctx, net.nodes[0].url, dead, alice.key)
	url := net.createRepo(t, ctx, 0, alice, "fallback")
	big := make([]byte, 5<<20)
	rand.Read(big)
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# fallback\n"})
	work.run("branch", "dev")
	work.commit(map[string]string{"data/big.bin": string(big)})
	work.commit(map[string]string{"src/main.go": "package main\n"})
	net.push(t, ctx, 0, alice, work, "fallback", "dev", "main")
	want := work.headRefs("dev", "main")

	// 3. node0 holds the push's blocks: its gateway answers the tips and
	// the big file by CID.
	for _, obj := range []string{"main", "dev", "main:data/big.bin"} {
		c := blocks.CIDForGitObject(work.run("rev-parse", obj))
		eventually(t, ctx, "node0's gateway answers "+obj, 30*time.Second, func() (string, bool) {
			code, body := get(ctx, net.nodes[0].url+"/ipfs/"+c.String()+"?format=raw")
			return fmt.Sprint(code, " ", body), code == http.StatusOK
		})
	}

	// 4. node1 serves it, as pushed and complete.
	start := time.Now()
	net.waitServes(t, ctx, 1, url, want)
	t.Logf("node1 serves the push %v after node0 held its blocks", time.Since(start))
	cloneFsck(t, net.nodes[1].url+url)

	// 5. node1 says it came over bitswap once git's fetch from node0's URL
	// failed, and the big file's chunks came.
	data, err := os.ReadFile(net.nodes[1].log)
	if err != nil {
		t.Fatal(err)
	}
	var fetched []map[string]any
	for _, line := range bytes.Split(data, []byte("\n")) {
		var entry map[string]any
		if json.Unmarshal(line, &entry) != nil {
			continue
		}
		switch entry["msg"] {
		case "fetched the objects to replicate":
			fetched = append(fetched, entry)
		case "fetch a big object's chunks; trying its block":
			t.Errorf("node1 did not get the big file as UnixFS chunks: %v", entry)
		}
	}
	if len(fetched) == 0 {
		t.Fatal("node1 never logged where it fetched the repository's objects from")
	}
	for _, f := range fetched {
		failed, _ := f["failed"].(string)
		if f["source"] != "bitswap" || !strings.Contains(failed, dead) {
			t.Errorf("node1 fetched from %v (failed before: %q), want bitswap after %s failed", f["source"], failed, dead)
		}
	}
	t.Logf("node1: source %v after: %v", fetched[0]["source"], fetched[0]["failed"])
}
