package forge_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	comet "github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index/indextest"
)

// twoNodes writes a two-validator network as `dforge testnet` does (each
// node with its own operator key, both keys in the genesis) and runs both.
func twoNodes(t *testing.T) (*node, *node) {
	t.Helper()
	base := t.TempDir()
	dirs := []string{filepath.Join(base, "node0"), filepath.Join(base, "node1")}
	ops := make([]common.Address, len(dirs))
	for i, d := range dirs {
		ops[i] = crypto.PubkeyToAddress(operatorKey(t, d).PublicKey)
	}
	appState, err := json.Marshal(app.Genesis{Params: testParams, Operators: ops})
	if err != nil {
		t.Fatal(err)
	}
	ports, err := comet.FreePorts(2 * len(dirs))
	if err != nil {
		t.Fatal(err)
	}
	homes := make([]comet.TestnetNode, len(dirs))
	for i, d := range dirs {
		homes[i] = comet.TestnetNode{Home: filepath.Join(d, "chain", "comet"), RPCPort: ports[2*i], P2PPort: ports[2*i+1]}
	}
	if err := comet.WriteTestnet(tx.ChainIDString(testParams.ChainID), appState, homes); err != nil {
		t.Fatal(err)
	}
	// Both must run for blocks to commit (2 of 2 validators); start them
	// side by side.
	nodes := make([]*node, len(dirs))
	done := make(chan struct{})
	go func() {
		defer close(done)
		nodes[1] = startNode(t, dirs[1], chain.Config{})
	}()
	nodes[0] = startNode(t, dirs[0], chain.Config{})
	<-done
	if nodes[1] == nil {
		t.FailNow()
	}
	return nodes[0], nodes[1]
}

// forgeDump is the forge part of a node's projection.
func forgeDump(t *testing.T, n *node) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, rows := range indextest.Dump(t, n.store) {
		if strings.HasPrefix(table, "forge_") {
			out[table] = rows
		}
	}
	return out
}

// TestSecondNodeProjectsTheSameForge: users on two nodes of one chain
// work on the same repository, each node relaying its users' actions with
// its own operator key; both nodes project the same issues, pull requests,
// reviews and merge, row for row. Private repositories stay on their node.
func TestSecondNodeProjectsTheSameForge(t *testing.T) {
	t.Parallel()
	n0, n1 := twoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	alice, _ := newAddress()
	bob, _ := newAddress()
	carol, _ := newAddress()

	id := n0.do(t, alice, "repo.create", m{"name": "shared", "description": "on two nodes"}).Change.Repos[0].ID
	n0.do(t, alice, "repo.collaborator.set", m{"repo": id, "user": carol, "permission": "write"})
	issue := n1.do(t, bob, "issue.create", m{"repo": id, "title": "Seen from node 1", "body": "hello"}).Change.Issue.Number
	n0.do(t, alice, "issue.comment", m{"repo": id, "number": issue, "body": "answered on node 0"})
	n1.do(t, carol, "repo.push", m{"repo": id, "ref": "refs/heads/topic", "old": chainforge.ZeroSHA, "new": sha2})
	pr := n1.do(t, carol, "pr.create", m{"repo": id, "title": "Topic", "headBranch": "topic", "headSha": sha2, "baseSha": sha1}).Change.Issue.Number
	n1.do(t, bob, "pr.review", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha2,
		"comments": []m{{"path": "a.txt", "line": 1, "side": "new", "body": "inline, from node 1"}}})
	n0.do(t, alice, "pr.review", m{"repo": id, "number": pr, "state": "approve", "commitSha": sha2})
	last := n0.do(t, alice, "pr.merge", m{"repo": id, "number": pr, "style": "merge", "mergeSha": sha3})

	for _, n := range []*node{n0, n1} {
		if err := n.index.WaitFor(ctx, last.Height); err != nil {
			t.Fatal(err)
		}
	}
	indextest.SameDump(t, "node 1's forge projection", forgeDump(t, n1), forgeDump(t, n0))
	pull, err := n1.index.Pull(ctx, id, pr)
	if err != nil || !pull.Merged || pull.MergedBy.Address != alice.Hex() {
		t.Fatalf("node 1 sees %+v %v", pull, err)
	}
	reviews, err := n1.index.Reviews(ctx, id, pr)
	if err != nil || len(reviews) != 2 || reviews[0].Comments[0].Body != "inline, from node 1" || reviews[1].State != "approve" {
		t.Fatalf("node 1's reviews %+v %v", reviews, err)
	}
	if is, err := n0.index.Issue(ctx, id, issue); err != nil || is.Comments != 1 || is.Author.Address != bob.Hex() {
		t.Fatalf("node 0's issue %+v %v", is, err)
	}

	// A private repository on node 0 is nowhere on node 1.
	priv := n0.do(t, alice, "repo.create", m{"name": "mine", "private": true}).Change.Repos[0].ID
	if _, err := n1.index.RepoByID(ctx, priv); !isNotFound(err) {
		t.Fatalf("node 1 has node 0's private repository: %v", err)
	}
	if _, _, err := n1.forge.Repo(ctx, alice, alice.Hex(), "mine"); !isNotFound(err) {
		t.Fatalf("node 1 shows node 0's private repository: %v", err)
	}
}
