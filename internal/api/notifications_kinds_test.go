package api_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// kindThreadJSON is a thread with the fields the chain's kinds add.
type kindThreadJSON struct {
	ID      int64 `json:"id"`
	Subject struct {
		Title   string `json:"title"`
		Type    string `json:"type"`
		URL     string `json:"url"`
		HTMLURL string `json:"html_url"`
	} `json:"subject"`
	Unread bool   `json:"unread"`
	Reason string `json:"reason"`
	Amount int64  `json:"amount"`
	Reward *struct {
		Kind     string `json:"kind"`
		Withheld int64  `json:"withheld"`
		Reason   string `json:"reason"`
	} `json:"reward"`
}

// kindThreads lists u's threads with query q, and checks that the list's
// X-Total-Count (read from the counters) is the number of threads.
func (n *issuesNode) kindThreads(u *forgetest.User, q string) []kindThreadJSON {
	n.t.Helper()
	var out []kindThreadJSON
	res := n.JSON("GET", "/api/v1/notifications"+q, u, nil, http.StatusOK, &out)
	if got := res.Header.Get("X-Total-Count"); got != strconv.Itoa(len(out)) {
		n.t.Fatalf("GET /notifications%s: X-Total-Count %s for %d threads", q, got, len(out))
	}
	return out
}

// TestNotificationsFromEditsAndReviewRequests: an edit notifies only the
// people it newly mentions (never the actor), a deleted comment no one,
// and a review request the requested reviewer only; the counters behind
// the totals and the badge stay right through marks and new events.
func TestNotificationsFromEditsAndReviewRequests(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testEditsAndReviewRequests(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func testEditsAndReviewRequests(t *testing.T, n *issuesNode) {
	alice, bob, carol, dave := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	// Stars put them on chain, so their names resolve in mentions; dave watches.
	for _, u := range []*forgetest.User{bob, carol, dave} {
		n.must(http.StatusNoContent, u, "PUT", "/api/v1/user/starred/"+alice.Name()+"/app", nil)
	}
	n.must(http.StatusOK, dave, "PUT", base+"/subscription", nil)

	// 1. An issue mentioning bob, then an edit that adds carol: carol hears
	// of it, bob (mentioned before) and dave (watching) do not again.
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Plan", "body": "cc @" + bob.Name()})
	for _, u := range []*forgetest.User{bob, dave} {
		n.must(http.StatusResetContent, u, "PUT", "/api/v1/notifications", nil)
	}
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"body": "cc @" + bob.Name() + " and @" + carol.Name()})
	if got := n.reasons(carol, ""); got != "Issue Plan mention" {
		t.Fatalf("carol after the edit that mentions her: %q", got)
	}
	if n.unread(bob) != 0 || n.unread(dave) != 0 || n.unread(alice) != 0 {
		t.Fatalf("the edit notified bob %d, dave %d, alice %d", n.unread(bob), n.unread(dave), n.unread(alice))
	}
	// An edit of the title alone notifies no one.
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"title": "The plan"})
	if n.unread(bob) != 0 || n.unread(carol) != 1 {
		t.Fatalf("a title edit: bob %d, carol %d unread", n.unread(bob), n.unread(carol))
	}

	// 2. A comment edited to mention dave notifies him as a mention; the
	// same edit again, or one mentioning its author, notifies no one.
	c := n.must(http.StatusCreated, carol, "POST", base+"/issues/1/comments", map[string]any{"body": "I can help."}).obj()
	commentPath := fmt.Sprintf("%s/issues/comments/%v", base, c["id"])
	n.must(http.StatusResetContent, dave, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusResetContent, alice, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusOK, carol, "PATCH", commentPath, map[string]any{"body": "I can help, with @" + dave.Name() + "."})
	if got := n.reasons(dave, ""); got != "Issue The plan mention" {
		t.Fatalf("dave after the comment edit: %q", got)
	}
	if n.unread(alice) != 0 {
		t.Fatal("the comment's edit notified the issue's author")
	}
	n.must(http.StatusResetContent, dave, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusResetContent, carol, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusOK, carol, "PATCH", commentPath, map[string]any{"body": "I can help, with @" + dave.Name() + " and @" + carol.Name() + "."})
	if n.unread(dave) != 0 || n.unread(carol) != 0 {
		t.Fatalf("an edit with no new mention of another: dave %d, carol %d", n.unread(dave), n.unread(carol))
	}
	n.must(http.StatusNoContent, carol, "DELETE", commentPath, nil)
	if n.unread(dave) != 0 || n.unread(alice) != 0 {
		t.Fatal("a deleted comment notified someone")
	}

	// 3. A review request reaches the requested reviewer only.
	n.push(alice, alice, "app", "feature", "main", map[string]string{"app.go": "package app\n"}, "Add app")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "App"})
	n.must(http.StatusResetContent, dave, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusCreated, alice, "POST", base+"/pulls/2/requested_reviewers", map[string]any{"reviewers": []string{bob.Name()}})
	if got := n.reasons(bob, ""); got != "Pull App review_requested" {
		t.Fatalf("bob after the review request: %q", got)
	}
	if n.unread(dave) != 0 || n.unread(alice) != 0 {
		t.Fatalf("the request notified dave %d, alice %d", n.unread(dave), n.unread(alice))
	}
	// Asking carol as well does not notify bob again.
	n.must(http.StatusResetContent, bob, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusCreated, alice, "POST", base+"/pulls/2/requested_reviewers", map[string]any{"reviewers": []string{carol.Name()}})
	if n.unread(bob) != 0 || n.reasons(carol, "") != "Pull App review_requested" {
		t.Fatalf("the second request: bob %d unread, carol %q", n.unread(bob), n.reasons(carol, ""))
	}
	// With reviews turned off, the request is hidden from list and badge.
	n.must(http.StatusOK, carol, "PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": true, "reviews": false})
	if n.unread(carol) != 0 || len(n.kindThreads(carol, "")) != 0 {
		t.Fatalf("a review request shown with reviews off: %q", n.reasons(carol, ""))
	}

	// 4. The counters: every list's total matches its threads, through
	// pins, marks and filters.
	all := n.kindThreads(carol, "?all=true")
	if len(all) != 1 { // the mention; the request is hidden
		t.Fatalf("carol's threads: %+v", all)
	}
	n.must(http.StatusOK, carol, "PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": true, "reviews": true})
	all = n.kindThreads(carol, "?all=true")
	n.must(http.StatusResetContent, carol, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d?to-status=pinned", all[0].ID), nil)
	n.must(http.StatusResetContent, carol, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%d?to-status=unread", all[1].ID), nil)
	for q, want := range map[string]int{"": 2, "?status-types=pinned": 1, "?status-types=unread": 1, "?status-types=read": 0,
		"?all=true": 2, "?subject-type=pull": 1, "?participating=true": 2} {
		if got := n.kindThreads(carol, q); len(got) != want {
			t.Fatalf("carol's threads%s: %d, want %d", q, len(got), want)
		}
	}
	if n.unread(carol) != 1 {
		t.Fatalf("carol's badge: %d", n.unread(carol))
	}
	var paged []kindThreadJSON
	res := n.JSON("GET", "/api/v1/notifications?all=true&limit=1", carol, nil, http.StatusOK, &paged)
	if res.Header.Get("X-Total-Count") != "2" || len(paged) != 1 {
		t.Fatalf("a page of one: total %s, %d threads", res.Header.Get("X-Total-Count"), len(paged))
	}
	// A new comment makes a read thread unread again: the counters follow.
	n.must(http.StatusResetContent, carol, "PUT", "/api/v1/notifications?status-types=unread&status-types=pinned", nil)
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "Me too."})
	if n.unread(carol) != 1 || len(n.kindThreads(carol, "?status-types=read")) != 1 {
		t.Fatalf("after bob's comment: carol %d unread", n.unread(carol))
	}
}

// TestNotificationsOfRewards: a merged pull request's rewards reach their
// contributors with what they earned; an issue closed by its own reporter
// tells them the reward was withheld, and why. Preferences hide them.
func TestNotificationsOfRewards(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testRewardNotifications(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func testRewardNotifications(t *testing.T, n *issuesNode) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	n.push(alice, alice, "lib", "main", "main", map[string]string{"lib.go": "package lib\n"})
	n.must(http.StatusNoContent, carol, "PUT", "/api/v1/user/starred/"+alice.Name()+"/lib", nil)
	n.must(http.StatusCreated, carol, "POST", base+"/issues", map[string]any{"title": "It breaks"})
	n.fork(bob, repo)
	n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "body": "Fixes #1."})
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})

	// 1. bob earned for the pull request and for closing the issue.
	rewards := n.kindThreads(bob, "?subject-type=reward")
	kinds := map[string]kindThreadJSON{}
	for _, th := range rewards {
		if th.Reward == nil {
			t.Fatalf("a reward thread without its reward: %+v", th)
		}
		kinds[th.Reward.Kind] = th
	}
	pr := kinds["pr"]
	if len(rewards) != 2 || pr.Reason != "reward" || pr.Amount != 90_000_000 || pr.Reward.Reason != "" || pr.Reward.Withheld != 0 ||
		pr.Subject.Type != "Reward" || pr.Subject.Title != alice.Name()+"/lib#2" || !strings.HasSuffix(pr.Subject.HTMLURL, "/rewards") ||
		!pr.Unread || kinds["issue_closer"].Reason != "reward" {
		t.Fatalf("bob's rewards: %+v", rewards)
	}
	if got := n.kindThreads(carol, "?subject-type=reward"); len(got) != 1 || got[0].Reward.Kind != "issue_reporter" || got[0].Subject.Title != alice.Name()+"/lib#1" {
		t.Fatalf("carol's reward: %+v", got)
	}

	// 2. carol closes her own issue as completed: withheld, own_issue.
	n.must(http.StatusCreated, carol, "POST", base+"/issues", map[string]any{"title": "Typo"})
	n.must(http.StatusCreated, carol, "PATCH", base+"/issues/3", map[string]any{"state": "closed"})
	var withheld []kindThreadJSON
	for _, th := range n.kindThreads(carol, "?subject-type=reward") {
		if th.Reason == "reward_withheld" {
			withheld = append(withheld, th)
		}
	}
	if len(withheld) == 0 || withheld[0].Reward.Reason != "own_issue" || withheld[0].Amount != 0 || withheld[0].Subject.Title != alice.Name()+"/lib#3" {
		t.Fatalf("carol's withheld reward: %+v", withheld)
	}

	// 3. Rewards off: hidden from the list and the badge.
	before := n.unread(bob)
	n.must(http.StatusOK, bob, "PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": true, "reviews": true, "rewards": false, "governance": true})
	if got := n.unread(bob); got != before-2 || len(n.kindThreads(bob, "?subject-type=reward")) != 0 {
		t.Fatalf("bob with rewards off: %d unread, was %d", got, before)
	}
}

// TestNotificationsOfProposals: a proposal's opening reaches every account
// with stake but its proposer; in the last tenth of its vote (at least its
// last block) those with stake who have not voted hear it is about to end.
func TestNotificationsOfProposals(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testProposalNotifications(t, opts)
		})
	}
}

// stakerKeys are wallets a test genesis funds.
func stakerKeys(k int) []*ecdsa.PrivateKey {
	keys := make([]*ecdsa.PrivateKey, k)
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
	}
	return keys
}

func testProposalNotifications(t *testing.T, opts []forgetest.Option) {
	keys := stakerKeys(4)
	opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
		def := app.DefaultParams()
		g.Params.Gov = def.Gov
		g.Params.Gov.VotingPeriodBlocks, g.Params.Gov.TimelockBlocks, g.Params.Gov.ProposalDeposit, g.Params.Gov.MinProposerStake = votingBlocks, 0, 1_000, 5_000
		for _, k := range keys {
			g.Allocations = append(g.Allocations, ledger.Allocation{Address: crypto.PubkeyToAddress(k.PublicKey), Amount: 1_000_000})
		}
	}))
	n := &issuesNode{Node: forgetest.Start(t, opts...), t: t}
	alice, bob, carol, dave := n.NewUserWith(keys[0]), n.NewUserWith(keys[1]), n.NewUserWith(keys[2]), n.NewUserWith(keys[3])
	send := func(u *forgetest.User, kind tx.Kind, msg map[string]any) {
		t.Helper()
		msg["from"], msg["nonce"] = u.Address.Hex(), strconv.FormatUint(n.Nonce(u.Address), 10)
		env, err := tx.Sign(u.Key, kind, msg, 7771)
		check(t, "sign", err)
		var out struct{ Code uint32 }
		res := n.Call("POST", "/api/v1/chain/txs", nil, env)
		if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK || out.Code != 0 {
			t.Fatalf("relay %s: %d %s", kind, res.Status, res.Body)
		}
	}
	// alice, bob and carol stake; dave holds none.
	for _, u := range []*forgetest.User{alice, bob, carol} {
		send(u, tx.KindStake, map[string]any{"amount": "10000"})
	}
	send(alice, tx.KindPropose, map[string]any{"proposalType": "text", "title": "Adopt a logo",
		"description": "The fox.", "payload": `{}`, "deposit": "1000"})

	// 1. The opening: bob and carol, not alice (the proposer) nor dave.
	for _, u := range []*forgetest.User{bob, carol} {
		th := n.kindThreads(u, "")
		if len(th) != 1 || th[0].Subject.Type != "Proposal" || th[0].Reason != "proposal_opened" || th[0].Subject.Title != "Adopt a logo" ||
			!strings.HasSuffix(th[0].Subject.HTMLURL, "/governance/1") || !strings.HasSuffix(th[0].Subject.URL, "/api/v1/governance/proposals/1") {
			t.Fatalf("a staker's threads after the proposal: %+v", th)
		}
	}
	if n.unread(alice) != 0 || n.unread(dave) != 0 {
		t.Fatalf("the proposal notified alice %d, dave %d", n.unread(alice), n.unread(dave))
	}

	// 2. bob votes; everyone marks all read; blocks go by until the vote
	// ends. carol (stake, no vote) and alice hear it is about to end,
	// once; bob (voted) and dave (no stake) do not.
	send(bob, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
	for _, u := range []*forgetest.User{alice, bob, carol, dave} {
		n.must(http.StatusResetContent, u, "PUT", "/api/v1/notifications", nil)
	}
	for i := 0; ; i++ {
		var p struct{ Status string }
		n.JSON("GET", "/api/v1/governance/proposals/1", nil, nil, http.StatusOK, &p)
		if p.Status != "active" {
			break
		}
		if i == 3*votingBlocks {
			t.Fatal("the proposal is still active")
		}
		send(dave, tx.KindTransfer, map[string]any{"to": dave.Address.Hex(), "amount": "1"})
	}
	for _, u := range []*forgetest.User{alice, carol} {
		th := n.kindThreads(u, "?subject-type=proposal")
		if len(th) != 1 || th[0].Reason != "proposal_ending" || !th[0].Unread {
			t.Fatalf("a staker who did not vote, after the vote: %+v", th)
		}
	}
	if n.unread(bob) != 0 || n.unread(dave) != 0 {
		t.Fatalf("the end of the vote notified bob %d, dave %d", n.unread(bob), n.unread(dave))
	}

	// 3. Governance off hides them.
	n.must(http.StatusOK, carol, "PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": true, "reviews": true, "rewards": true, "governance": false})
	if n.unread(carol) != 0 || len(n.kindThreads(carol, "?all=true")) != 0 {
		t.Fatal("a proposal shown with governance off")
	}
}
