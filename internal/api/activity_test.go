package api_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// The home page's node-wide reads: recent activity and top contributors
// over public repositories, and the node's team. One node carries a public
// repository with a whole pull request's life and a private repository
// whose actions must never show.

// activityLine is an activity item in a form easy to compare.
func activityLine(a index.Activity) string {
	s := a.Type + " " + a.Actor.Username + " " + a.Repo.FullName
	if a.Number != 0 {
		s += fmt.Sprintf(" #%d %q", a.Number, a.Title)
	}
	if a.State != "" {
		s += " " + a.State
	}
	if a.Ref != "" {
		s += " " + a.Ref
	}
	return s
}

func TestActivityContributorsAndTeam(t *testing.T) {
	t.Parallel()
	mayaKey, _ := crypto.GenerateKey()
	maya := crypto.PubkeyToAddress(mayaKey.PublicKey)
	quiet := common.HexToAddress("0x52908400098527886E0F7030069857D2E4169EE7")
	n := &issuesNode{Node: forgetest.Start(t, forgetest.WithMaintainers(maya, quiet, maya)), t: t}
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()

	// 1. Public work in alice/mill: bob reports an issue, alice answers,
	// pushes a branch, opens a pull request, bob approves, alice merges.
	n.repo(alice, "mill", false)
	base := "/api/v1/repos/" + alice.Name() + "/mill"
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Crash on start"})
	// 2. Carol's private repository, worked on in between: none of it may show.
	n.repo(carol, "secret", true)
	secret := "/api/v1/repos/" + carol.Name() + "/secret"
	n.must(http.StatusCreated, carol, "POST", secret+"/issues", map[string]any{"title": "Hidden plan"})
	n.must(http.StatusCreated, carol, "POST", secret+"/issues/1/comments", map[string]any{"body": "shh"})
	n.push(carol, carol, "secret", "plan", "main", map[string]string{"plan.txt": "secret\n"})

	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "Looking into it."})
	n.push(alice, alice, "mill", "fix", "main", map[string]string{"fix.go": "package mill\n"})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "fix", "base": "main", "title": "Fix the crash"})
	n.must(http.StatusOK, bob, "POST", base+"/pulls/2/reviews", map[string]any{"event": "APPROVED", "body": "LGTM"})
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})

	// 3. The feed: public actions only, newest first.
	res := n.must(http.StatusOK, nil, "GET", "/api/v1/activity", nil)
	var feed []index.Activity
	if err := json.Unmarshal(res.body, &feed); err != nil {
		t.Fatal(err)
	}
	mill := alice.Name() + "/mill"
	// A merge's move of the base branch is recorded as a push, then the
	// merge; a first commit is a push too.
	want := []string{
		"pr.merge " + alice.Name() + " " + mill + ` #2 "Fix the crash"`,
		"push " + alice.Name() + " " + mill + " refs/heads/main",
		"review " + bob.Name() + " " + mill + ` #2 "Fix the crash" approve`,
		"pr.open " + alice.Name() + " " + mill + ` #2 "Fix the crash"`,
		"push " + alice.Name() + " " + mill + " refs/heads/fix",
		"comment " + alice.Name() + " " + mill + ` #1 "Crash on start"`,
		"issue.open " + bob.Name() + " " + mill + ` #1 "Crash on start"`,
		"push " + alice.Name() + " " + mill + " refs/heads/main",
		"repo.create " + alice.Name() + " " + mill,
	}
	var got []string
	for _, a := range feed {
		got = append(got, activityLine(a))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("activity:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.header.Get("X-Total-Count") != "9" {
		t.Fatalf("X-Total-Count %q, want 9", res.header.Get("X-Total-Count"))
	}
	if strings.Contains(string(res.body), "secret") || strings.Contains(string(res.body), "Hidden") ||
		strings.Contains(string(res.body), carol.Address.Hex()) {
		t.Fatalf("the feed shows the private repository: %s", res.body)
	}
	for i, a := range feed {
		if i > 0 && a.Height > feed[i-1].Height {
			t.Fatalf("item %d (height %d) is newer than item %d (height %d)", i, a.Height, i-1, feed[i-1].Height)
		}
		if a.Time == "" || a.Actor.Address == "" || a.Repo.Owner != alice.Name() || a.Repo.Name != "mill" {
			t.Fatalf("item %d: %+v", i, a)
		}
	}
	if feed[0].Actor.Address != alice.Address.Hex() || !feed[0].IsPull || feed[5].IsPull {
		t.Fatalf("merge %+v, comment %+v", feed[0], feed[5])
	}
	// Paged like every list: page 2 of 3 is the next three, with links.
	res = n.must(http.StatusOK, nil, "GET", "/api/v1/activity?page=2&limit=3", nil)
	var page []index.Activity
	json.Unmarshal(res.body, &page)
	if len(page) != 3 || activityLine(page[0]) != want[3] || activityLine(page[2]) != want[5] ||
		res.header.Get("X-Total-Count") != "9" || !strings.Contains(res.header.Get("Link"), `rel="next"`) {
		t.Fatalf("page 2: %s %v", res.body, res.header)
	}
	n.must(http.StatusBadRequest, nil, "GET", "/api/v1/activity?limit=-1", nil)

	// 4. Top contributors over the last 30 days: alice pushed three times
	// (the first commit, her branch, the merge), opened and merged a pull
	// request, and commented;
	// bob opened an issue and reviewed. Carol's private work counts for
	// nothing.
	var top []index.Contributor
	res = n.must(http.StatusOK, nil, "GET", "/api/v1/contributors/top", nil)
	json.Unmarshal(res.body, &top)
	wantTop := []index.Contributor{
		{Address: alice.Address.Hex(), Username: alice.Name(), Total: 6, Pushes: 3, PullsOpened: 1, PullsMerged: 1, Comments: 1},
		{Address: bob.Address.Hex(), Username: bob.Name(), Total: 2, Reviews: 1, IssuesOpened: 1},
	}
	if mustJSON(top) != mustJSON(wantTop) {
		t.Fatalf("top contributors:\n%s\nwant:\n%s", mustJSON(top), mustJSON(wantTop))
	}
	res = n.must(http.StatusOK, nil, "GET", "/api/v1/contributors/top?limit=1", nil)
	json.Unmarshal(res.body, &top)
	if len(top) != 1 || top[0].Address != alice.Address.Hex() {
		t.Fatalf("limit 1: %s", res.body)
	}
	n.must(http.StatusBadRequest, nil, "GET", "/api/v1/contributors/top?limit=many", nil)

	// 5. The team: the configured maintainers in order, once each, by the
	// name maya claims, and the default name of an account the chain never
	// touched.
	claimUsername(t, n.Node, mayaKey, "maya")
	var team []index.User
	res = n.must(http.StatusOK, nil, "GET", "/api/v1/node/team", nil)
	json.Unmarshal(res.body, &team)
	wantTeam := []index.User{{Address: maya.Hex(), Username: "maya"}, {Address: quiet.Hex(), Username: names.Default(quiet)}} // the harness chain is born with own-keys: 80-bit default names
	if mustJSON(team) != mustJSON(wantTeam) {
		t.Fatalf("team: %s, want %s", res.body, mustJSON(wantTeam))
	}
}

// claimUsername has key's account claim name on chain, through the API.
func claimUsername(t *testing.T, n *forgetest.Node, key *ecdsa.PrivateKey, name string) {
	t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	var acct struct {
		Nonce uint64 `json:"nonce"`
	}
	n.JSON("GET", "/api/v1/accounts/"+from.Hex(), nil, nil, http.StatusOK, &acct)
	env, err := tx.Sign(key, tx.KindClaimUsername, map[string]any{"from": from.Hex(), "username": name, "nonce": strconv.FormatUint(acct.Nonce, 10)}, 7771)
	if err != nil {
		t.Fatal(err)
	}
	n.JSON("POST", "/api/v1/chain/txs", nil, env, http.StatusOK, nil)
}

// A node with no maintainers configured lists an empty team.
func TestTeamEmptyWithoutMaintainers(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	routes.New(slog.New(slog.NewTextHandler(io.Discard, nil)), api.Services{}, "test").Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/api/v1/node/team")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "[]" {
		t.Fatalf("team: %d %s", res.StatusCode, body)
	}
	// Without an index there are no feeds to read.
	if res, err := http.Get(srv.URL + "/api/v1/activity"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("activity without an index: %v %v", res, err)
	}
}
