package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// A signed-in user's delegation to this node: listed in settings, named
// on the records the node signs, revoked by the user's wallet (the next
// write is a clear 401 not_delegated), and renewed by signing in again.
func TestDelegationListRevokeAndRenew(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	operator := n.Forge.Operator().Hex()

	var list []struct {
		Delegate string   `json:"delegate"`
		Scopes   []string `json:"scopes"`
		Live     bool     `json:"live"`
		ThisNode bool     `json:"thisNode"`
	}
	n.JSON("GET", "/api/v1/user/delegations", alice, nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].Delegate != operator || !list[0].Live || !list[0].ThisNode || len(list[0].Scopes) != 6 {
		t.Fatalf("delegations after sign-in: %+v", list)
	}
	n.JSON("GET", "/api/v1/user/delegations", nil, nil, http.StatusUnauthorized, nil)

	// 1. The node signs alice's issue under her delegation, and says so.
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "lib"}, http.StatusCreated, nil)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	var issue struct{ Signer, Delegation string }
	n.JSON("POST", base+"/issues", alice, map[string]any{"title": "signed by the node"}, http.StatusCreated, &issue)
	if issue.Signer != operator || issue.Delegation != operator {
		t.Fatalf("issue signer %q delegation %q, want the node's key %s", issue.Signer, issue.Delegation, operator)
	}
	var comment struct{ Signer, Delegation string }
	n.JSON("POST", base+"/issues/1/comments", alice, map[string]any{"body": "me too"}, http.StatusCreated, &comment)
	if comment.Signer != operator || comment.Delegation != operator {
		t.Fatalf("comment signer %q delegation %q", comment.Signer, comment.Delegation)
	}

	// 2. alice's wallet revokes it: the next write is 401 not_delegated,
	// and nothing is written.
	env, err := tx.Sign(alice.Key, tx.KindUndelegate, map[string]any{"from": alice.Address.Hex(), "account": alice.Address.Hex(), "delegate": operator, "nonce": n.Nonce(alice.Address)}, n.Chain.Params().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	n.JSON("POST", "/api/v1/chain/txs", nil, env, http.StatusOK, nil)
	res := n.Call("POST", base+"/issues", alice, map[string]any{"title": "after the revocation"})
	if res.Status != http.StatusUnauthorized || !strings.Contains(string(res.Body), `"not_delegated"`) {
		t.Fatalf("a write after the revocation: %d %s", res.Status, res.Body)
	}
	var issues []struct{ Title string }
	n.JSON("GET", base+"/issues?state=all", alice, nil, http.StatusOK, &issues)
	if len(issues) != 1 {
		t.Fatalf("issues after the refused write: %+v", issues)
	}

	// 3. Signing in again offers the Delegate to sign; once signed, writes work.
	var ask struct {
		Needed  bool           `json:"needed"`
		Message map[string]any `json:"message"`
	}
	n.JSON("GET", "/api/v1/user/delegation", alice, nil, http.StatusOK, &ask)
	if !ask.Needed || ask.Message["delegate"] != operator {
		t.Fatalf("delegation request after the revocation: %+v", ask)
	}
	renew, err := tx.Sign(alice.Key, tx.KindDelegate, ask.Message, n.Chain.Params().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	n.JSON("POST", "/api/v1/chain/txs", nil, renew, http.StatusOK, nil)
	n.JSON("GET", "/api/v1/user/delegation", alice, nil, http.StatusOK, &ask)
	if ask.Needed {
		t.Fatal("a fresh delegation still asked for")
	}
	n.JSON("POST", base+"/issues", alice, map[string]any{"title": "renewed"}, http.StatusCreated, nil)
}

// The wallet lists the user's own forge actions, though the node's key
// signed them: by actor, with each action's name, beside the user's own
// Delegate; another account's list does not hold them.
func TestAccountTxsListForgeActionsByActor(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "lib"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/repos/"+alice.Name()+"/lib/issues", alice, map[string]any{"title": "first"}, http.StatusCreated, nil)

	type row struct{ Type, From, Actor, Action string }
	var txs []row
	n.JSON("GET", "/api/v1/accounts/"+alice.Address.Hex()+"/txs", nil, nil, http.StatusOK, &txs)
	var actions []string
	var delegated bool
	for _, r := range txs {
		switch r.Type {
		case string(tx.KindForge):
			if r.Actor != alice.Address.Hex() || r.From != n.Forge.Operator().Hex() {
				t.Fatalf("a forge action in alice's list: %+v", r)
			}
			actions = append(actions, r.Action)
		case string(tx.KindDelegate):
			delegated = r.From == alice.Address.Hex()
		}
	}
	if strings.Join(actions, ",") != "issue.create,repo.create" || !delegated {
		t.Fatalf("alice's transactions, newest first: %+v", txs)
	}
	n.JSON("GET", "/api/v1/accounts/"+bob.Address.Hex()+"/txs", nil, nil, http.StatusOK, &txs)
	for _, r := range txs {
		if r.Type == string(tx.KindForge) {
			t.Fatalf("bob's list holds a forge action: %+v", r)
		}
	}
}

// Repositories, labels, milestones and releases carry the key that signed
// their creation, as issues and comments do: in the answer to the write,
// in the reads, and unchanged when someone edits them later. So do the
// comments in an issue's timeline.
func TestRecordsNameTheKeyThatSignedThem(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	operator := n.Forge.Operator().Hex()
	type signed struct {
		ID                 int64
		Signer, Delegation string
	}
	want := func(what string, s signed) {
		t.Helper()
		if s.Signer != operator || s.Delegation != operator {
			t.Fatalf("%s: signer %q delegation %q, want the node's key %s", what, s.Signer, s.Delegation, operator)
		}
	}
	var repo, label, milestone, release signed
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "lib", "auto_init": true}, http.StatusCreated, &repo)
	want("the created repository", repo)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	n.JSON("POST", base+"/labels", alice, map[string]any{"name": "bug", "color": "#ee0701"}, http.StatusCreated, &label)
	want("the created label", label)
	n.JSON("POST", base+"/milestones", alice, map[string]any{"title": "v1"}, http.StatusCreated, &milestone)
	want("the created milestone", milestone)
	n.JSON("POST", base+"/releases", alice, map[string]any{"tag_name": "v1.0", "name": "One", "target_commitish": "main"}, http.StatusCreated, &release)
	want("the created release", release)

	var edited signed
	n.JSON("PATCH", base+"/labels/"+fmt.Sprint(label.ID), alice, map[string]any{"name": "defect"}, http.StatusOK, &edited)
	want("the edited label", edited)

	n.JSON("GET", base, nil, nil, http.StatusOK, &repo)
	want("the repository read", repo)
	var labels, milestones, releases []signed
	n.JSON("GET", base+"/labels", nil, nil, http.StatusOK, &labels)
	n.JSON("GET", base+"/milestones", nil, nil, http.StatusOK, &milestones)
	n.JSON("GET", base+"/releases", nil, nil, http.StatusOK, &releases)
	if len(labels) != 1 || len(milestones) != 1 || len(releases) != 1 {
		t.Fatalf("labels %+v, milestones %+v, releases %+v", labels, milestones, releases)
	}
	want("the label read", labels[0])
	want("the milestone read", milestones[0])
	want("the release read", releases[0])

	// An issue's labels are the same records.
	var issue struct{ Labels []signed }
	n.JSON("POST", base+"/issues", alice, map[string]any{"title": "labelled", "labels": []int64{label.ID}}, http.StatusCreated, &issue)
	if len(issue.Labels) != 1 {
		t.Fatalf("issue labels %+v", issue.Labels)
	}
	want("an issue's label", issue.Labels[0])

	// So are its comments in the timeline, and the events of the actions
	// that changed it: a label taken off and put back, a close.
	n.JSON("POST", base+"/issues/1/comments", alice, map[string]any{"body": "noted"}, http.StatusCreated, nil)
	n.JSON("DELETE", base+"/issues/1/labels/"+fmt.Sprint(label.ID), alice, nil, http.StatusNoContent, nil)
	n.JSON("POST", base+"/issues/1/labels", alice, map[string]any{"labels": []int64{label.ID}}, http.StatusOK, nil)
	n.JSON("PATCH", base+"/issues/1", alice, map[string]any{"state": "closed"}, http.StatusCreated, nil)
	var events []struct {
		Type               string
		Body               string
		Signer, Delegation string
	}
	n.JSON("GET", base+"/issues/1/timeline", nil, nil, http.StatusOK, &events)
	seen := map[string]int{}
	for _, e := range events {
		what := e.Type
		if e.Type == "label" {
			what += " " + map[string]string{"1": "added", "": "removed"}[e.Body]
		}
		seen[what]++
		want(what+" in the timeline", signed{Signer: e.Signer, Delegation: e.Delegation})
	}
	if seen["comment"] != 1 || seen["label added"] != 1 || seen["label removed"] != 1 || seen["close"] != 1 {
		t.Fatalf("timeline %+v, want a comment, a label removed and added, a close", events)
	}
}
