package api_test

import (
	"net/http"
	"strings"
	"testing"
)

type rewardJSON struct {
	Height        int64  `json:"height"`
	Time          string `json:"time"`
	Account       string `json:"account"`
	AccountName   string `json:"account_name"`
	Kind          string `json:"kind"`
	Repo          string `json:"repo"`
	Number        uint64 `json:"number"`
	SHA           string `json:"sha"`
	Base          uint64 `json:"base"`
	MultiplierBps uint64 `json:"multiplier_bps"`
	Minted        uint64 `json:"minted"`
	Treasury      uint64 `json:"treasury"`
	Withheld      uint64 `json:"withheld"`
	Reason        string `json:"reason"`
}

type rankJSON struct {
	Rank          int    `json:"rank"`
	Address       string `json:"address"`
	Name          string `json:"name"`
	Earned        uint64 `json:"earned"`
	Contributions uint64 `json:"contributions"`
	Reputation    uint64 `json:"reputation"`
}

// TestRewardsForAMergedPullRequest runs a whole node: in a repository
// with a star and two contributors, bob's pull request from his fork
// fixes carol's issue and alice merges it. The chain rewards bob (the
// pull request and closing the issue) and carol (the report); the API
// shows the rewards, bob's reputation and the leaderboard, and the issue
// the merge closed.
func TestRewardsForAMergedPullRequest(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	// alice's push makes her the first contributor; carol's star makes
	// the repository count; the merge makes bob the second contributor.
	n.push(alice, alice, "lib", "main", "main", map[string]string{"lib.go": "package lib\n"})
	n.must(http.StatusNoContent, carol, "PUT", "/api/v1/user/starred/"+alice.Name()+"/lib", nil)
	n.must(http.StatusCreated, carol, "POST", base+"/issues", map[string]any{"title": "It breaks"})
	n.fork(bob, repo)
	n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "body": "Fixes #1."})
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})

	// 1. The issue the merge closed.
	if is := n.must(http.StatusOK, nil, "GET", base+"/issues/1", nil).obj(); is["state"] != "closed" || is["state_reason"] != "completed" {
		t.Fatalf("issue #1 after the merge: %v %v", is["state"], is["state_reason"])
	}

	// 2. The rewards, newest first, and bob's own.
	var all []rewardJSON
	res := n.JSON("GET", "/api/v1/rewards", nil, nil, http.StatusOK, &all)
	byKind := map[string]rewardJSON{}
	for _, r := range all {
		byKind[r.Kind] = r
	}
	pr, reporter, closer := byKind["pr"], byKind["issue_reporter"], byKind["issue_closer"]
	if res.Header.Get("X-Total-Count") != "3" || len(all) != 3 {
		t.Fatalf("rewards: %s", res.Body)
	}
	if pr.Account != bob.Address.Hex() || pr.AccountName != bob.Name() || pr.Repo != alice.Name()+"/lib" || pr.Number != 2 ||
		pr.Base != 100_000_000 || pr.MultiplierBps != 10_000 || pr.Minted != 90_000_000 || pr.Treasury != 10_000_000 || pr.Withheld != 0 || pr.Reason != "" || pr.Time == "" {
		t.Fatalf("the pull request's reward: %+v", pr)
	}
	if reporter.Account != carol.Address.Hex() || reporter.Number != 1 || reporter.Minted == 0 || closer.Account != bob.Address.Hex() || closer.Minted == 0 {
		t.Fatalf("the issue's rewards: %+v %+v", reporter, closer)
	}
	var mine []rewardJSON
	res = n.JSON("GET", "/api/v1/rewards?account="+strings.ToLower(bob.Address.Hex())+"&limit=1", nil, nil, http.StatusOK, &mine)
	if res.Header.Get("X-Total-Count") != "2" || len(mine) != 1 || !strings.Contains(res.Header.Get("Link"), `rel="next"`) {
		t.Fatalf("bob's rewards: %s (Link %s)", res.Body, res.Header.Get("Link"))
	}

	// 3. Bob's reputation: the points of both, and what they earned.
	var rep reputationJSON
	n.JSON("GET", "/api/v1/accounts/"+bob.Address.Hex()+"/reputation", nil, nil, http.StatusOK, &rep)
	if rep.Reputation != 10+2 || rep.MultiplierBps != 10_000+12*10 || rep.Scores["total"] != 2 || rep.Scores["pr"] != 1 || rep.Scores["issue"] != 1 ||
		rep.Scores["review"] != 0 || rep.Earned != pr.Minted+closer.Minted || rep.Withheld != 0 {
		t.Fatalf("bob's reputation: %+v", rep)
	}
	var acct map[string]any
	n.JSON("GET", "/api/v1/accounts/"+bob.Address.Hex(), nil, nil, http.StatusOK, &acct)
	if acct["balance"] != float64(rep.Earned) {
		t.Fatalf("bob's balance %v, earned %d", acct["balance"], rep.Earned)
	}

	// 4. The leaderboard and the figures.
	var ranks []rankJSON
	n.JSON("GET", "/api/v1/leaderboard?period=week", nil, nil, http.StatusOK, &ranks)
	if len(ranks) != 2 || ranks[0] != (rankJSON{Rank: 1, Address: bob.Address.Hex(), Name: bob.Name(), Earned: rep.Earned, Contributions: 2, Reputation: 12}) ||
		ranks[1].Address != carol.Address.Hex() || ranks[1].Rank != 2 || ranks[1].Contributions != 1 {
		t.Fatalf("leaderboard: %+v", ranks)
	}
	n.JSON("GET", "/api/v1/leaderboard?period=all&limit=1", nil, nil, http.StatusOK, &ranks)
	if len(ranks) != 1 || ranks[0].Address != bob.Address.Hex() {
		t.Fatalf("leaderboard, limit 1: %+v", ranks)
	}
	var figures figuresJSON
	n.JSON("GET", "/api/v1/analytics/governance", nil, nil, http.StatusOK, &figures)
	minted := pr.Minted + pr.Treasury + reporter.Minted + reporter.Treasury + closer.Minted + closer.Treasury
	if len(figures.RewardsPerEpoch) != 1 || figures.RewardsPerEpoch[0].Minted != minted || figures.Treasury < pr.Treasury {
		t.Fatalf("figures: %+v", figures)
	}
}
