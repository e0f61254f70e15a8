package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The attack of issue 22, on real processes: node1's operator takes its
// own key from its data dir and signs forge actions in alice's name,
// though alice only ever used node0. node1's CometBFT refuses each at
// CheckTx with a stable code, nothing of alice's changes on either node,
// and alice's own actions through node0 still land.
func TestAHostileOperatorCannotWriteInAUsersName(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 2, 0)
	honest, hostile := net.nodes[0], net.nodes[1]

	aliceKey, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, honest.url, aliceKey)
	repoID := crCreateRepo(t, ctx, honest.url, alice, "victim")
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# victim\n"})
	if out, err := work.push(ctx, alice.remote(honest.url, "victim"), "main"); err != nil {
		t.Fatalf("push: %v\n%s", err, out)
	}
	base := "/api/v1/repos/" + alice.login + "/victim"
	if res, body := crTokenPost(t, ctx, honest.url+base+"/issues", alice, map[string]any{"title": "only alice writes here"}); res.StatusCode != http.StatusCreated {
		t.Fatalf("open issue: %d %s", res.StatusCode, body)
	}
	refs := work.headRefs("main")

	operatorKey, err := crypto.LoadECDSA(chain.OperatorKeyFile(node.TestnetHome(net.dir, 1)))
	if err != nil {
		t.Fatal(err)
	}
	operator := crypto.PubkeyToAddress(operatorKey.PublicKey).Hex()
	attacks := []struct {
		action, payload string
		code            uint32
	}{
		{"issue.comment", fmt.Sprintf(`{"repo":%d,"number":1,"body":"not alice"}`, repoID), tx.CodeNotDelegated},
		{"pr.review", fmt.Sprintf(`{"repo":%d,"number":1,"event":"approve","body":""}`, repoID), tx.CodeNotDelegated},
		{"pr.merge", fmt.Sprintf(`{"repo":%d,"number":1,"style":"merge","mergeSha":"%040d"}`, repoID, 1), tx.CodeNotDelegated},
		{"repo.push", fmt.Sprintf(`{"repo":%d,"updates":[{"ref":"refs/heads/main","old":"","new":"%040d"}]}`, repoID, 2), tx.CodeNotDelegated},
		{"repo.transfer", fmt.Sprintf(`{"repo":%d,"newOwner":"%s"}`, repoID, operator), tx.CodeSignatureRequired},
	}
	for _, at := range attacks {
		env, err := tx.Sign(operatorKey, tx.KindForge, map[string]any{"from": operator, "actor": crypto.PubkeyToAddress(aliceKey.PublicKey).Hex(),
			"action": at.action, "payload": at.payload, "nonce": fmt.Sprint(accountNonce(t, ctx, hostile, operator))}, chainID(t, ctx, hostile))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := tx.Encode(env)
		if err != nil {
			t.Fatal(err)
		}
		code, log, err := broadcast(ctx, hostile, raw)
		if err != nil || code != at.code {
			t.Fatalf("%s in alice's name by node1's operator: code %d %q %v, want %d", at.action, code, log, err, at.code)
		}
	}

	// Nothing of alice's changed, on either node.
	for _, p := range net.nodes {
		var repo struct{ Owner struct{ Login string } }
		var comments []json.RawMessage
		if err := getJSON(ctx, p.url+base, &repo); err != nil || repo.Owner.Login != alice.login {
			t.Fatalf("%s: the repository's owner is %q (%v)", p.name, repo.Owner.Login, err)
		}
		if err := getJSON(ctx, p.url+base+"/issues/1/comments", &comments); err != nil || len(comments) != 0 {
			t.Fatalf("%s: issue 1 has %d comments (%v)", p.name, len(comments), err)
		}
	}
	if got, err := lsRemote(repoURL(honest.url, alice.login, "victim")); err != nil || strings.TrimSpace(got) != refs {
		t.Fatalf("the refs moved: %q %v, want %q", got, err, refs)
	}
	// alice's own comment through node0 lands, signed under her delegation.
	res, body := crTokenPost(t, ctx, honest.url+base+"/issues/1/comments", alice, map[string]any{"body": "still mine"})
	var c struct{ Signer, Delegation string }
	if res.StatusCode != http.StatusCreated || json.Unmarshal([]byte(body), &c) != nil || c.Delegation == "" || c.Signer != c.Delegation {
		t.Fatalf("alice's comment through node0: %d %s", res.StatusCode, body)
	}
}

// accountNonce is addr's next nonce as p's API shows it.
func accountNonce(t *testing.T, ctx context.Context, p *nodeProc, addr string) uint64 {
	t.Helper()
	var acct struct{ Nonce uint64 }
	if err := getJSON(ctx, p.url+"/api/v1/accounts/"+addr, &acct); err != nil {
		t.Fatal(err)
	}
	return acct.Nonce
}

// chainID is the EIP-712 chain id p's chain publishes.
func chainID(t *testing.T, ctx context.Context, p *nodeProc) uint64 {
	t.Helper()
	var params struct{ EIP712Domain struct{ ChainID uint64 } }
	if err := getJSON(ctx, p.url+"/api/v1/chain/params", &params); err != nil {
		t.Fatal(err)
	}
	return params.EIP712Domain.ChainID
}
