package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
)

type replicationOut struct {
	Node struct {
		Operator string `json:"operator"`
		URL      string `json:"url"`
	} `json:"node"`
	State        string            `json:"state"`
	RefsDone     int               `json:"refs_done"`
	RefsTotal    int               `json:"refs_total"`
	Error        string            `json:"error"`
	Heads        map[string]string `json:"heads"`
	MatchesChain bool              `json:"matches_chain"`
}

// A node says how it holds a repository to the app of any node: CORS for
// everyone, public repositories only.
func TestReplicationState(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()

	// 1. A public repository pushed to here: ready, at the chain's refs,
	// readable from any origin without credentials.
	create(t, n, alice, "hello", false)
	dir := n.Clone(n.Remote(alice, alice.Name(), "hello"))
	tip := n.Commit(dir, "Add the license", map[string]string{"LICENSE": "MIT\n"})
	n.Git(dir, "push", "--quiet", "origin", "main")
	path := repoPath(alice, "hello") + "/replication"
	var got replicationOut
	deadline := time.Now().Add(10 * time.Second)
	for {
		got = replicationOut{}
		res := n.JSON("GET", path, nil, nil, http.StatusOK, &got)
		if res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("Access-Control-Allow-Origin %q", res.Header.Get("Access-Control-Allow-Origin"))
		}
		if got.Heads["refs/heads/main"] == tip && got.MatchesChain || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // the index follows the chain's block
	}
	if got.State != "ready" || !got.MatchesChain || got.Heads["refs/heads/main"] != tip || got.RefsDone != 1 || got.RefsTotal != 1 || got.Error != "" {
		t.Fatalf("replication of a pushed repository %+v, want ready at %s", got, tip)
	}
	if got.Node.Operator != n.Forge.Operator().Hex() || got.Node.URL != n.URL {
		t.Fatalf("node %+v, want %s at %s", got.Node, n.Forge.Operator().Hex(), n.URL)
	}

	// 2. A private repository never replicates: not there for anyone who
	// cannot read it (the 404 readable cross-origin too), "private" for
	// its owner.
	create(t, n, alice, "secret", true)
	secret := repoPath(alice, "secret") + "/replication"
	for _, who := range []*forgetest.User{nil, bob} {
		res := n.JSON("GET", secret, who, nil, http.StatusNotFound, nil)
		if res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("404's Access-Control-Allow-Origin %q", res.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	var private replicationOut
	n.JSON("GET", secret, alice, nil, http.StatusOK, &private)
	if private.State != "private" || len(private.Heads) != 0 || private.MatchesChain {
		t.Fatalf("replication of a private repository %+v", private)
	}

	// 3. A repository nobody made.
	n.JSON("GET", repoPath(alice, "nothing")+"/replication", nil, nil, http.StatusNotFound, nil)
}
