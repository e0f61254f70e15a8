package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

type (
	roleHolderJSON struct {
		User struct {
			Login       string `json:"login"`
			FullName    string `json:"full_name"`
			Description string `json:"description"`
			Location    string `json:"location"`
			Wallet      string `json:"wallet_address"`
		} `json:"user"`
		Role     string `json:"role"`
		Height   int64  `json:"height"`
		Proposal uint64 `json:"proposal"`
		Granted  string `json:"granted"`
	}
	overviewRepoJSON struct {
		FullName string `json:"full_name"`
		Stars    uint64 `json:"stars_count"`
	}
	overviewJSON struct {
		Repositories  int64 `json:"repositories"`
		Contributors  int64 `json:"contributors"`
		Proposals     int64 `json:"proposals"`
		OpenProposals int64 `json:"open_proposals"`
		WindowDays    int   `json:"window_days"`
		Trending      []struct {
			Repository     overviewRepoJSON `json:"repository"`
			RecentStars    int64            `json:"recent_stars"`
			RecentActivity int64            `json:"recent_activity"`
		} `json:"trending"`
		MostStarred     []overviewRepoJSON `json:"most_starred"`
		TopContributors []rankJSON         `json:"top_contributors"`
		Roles           []struct {
			Role    string `json:"role"`
			Holders int64  `json:"holders"`
		} `json:"roles"`
		Topics       int64 `json:"topics"`
		LatestTopics []struct {
			Title string `json:"title"`
		} `json:"latest_topics"`
		UpcomingEvents []struct {
			Title string `json:"title"`
		} `json:"upcoming_events"`
	}
)

// TestCommunityRolesAndOverview runs a whole node whose genesis makes
// carol an event organizer: a role proposal makes bob an ambassador, who
// then appears with his profile in /community/roles; the overview counts
// the public repositories, the contributors, the proposals and the
// holders, and orders the starred repositories; a second proposal revokes
// bob's role.
func TestCommunityRolesAndOverview(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testCommunity(t, opts)
		})
	}
}

func testCommunity(t *testing.T, opts []forgetest.Option) {
	keys := stakerKeys(3)
	opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
		g.Params.Gov = app.DefaultParams().Gov
		g.Params.Gov.VotingPeriodBlocks, g.Params.Gov.TimelockBlocks, g.Params.Gov.ProposalDeposit, g.Params.Gov.MinProposerStake = votingBlocks, 0, 1_000, 5_000
		for _, k := range keys[:2] {
			g.Allocations = append(g.Allocations, ledger.Allocation{Address: crypto.PubkeyToAddress(k.PublicKey), Amount: 1_000_000})
		}
		g.Roles = append(g.Roles, roles.Grant{Address: crypto.PubkeyToAddress(keys[2].PublicKey), Role: roles.EventOrganizer})
	}))
	n := &issuesNode{Node: forgetest.Start(t, opts...), t: t}
	alice, bob, carol := n.NewUserWith(keys[0]), n.NewUserWith(keys[1]), n.NewUserWith(keys[2])
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
	// pass proposes a role change as alice, votes yes with both stakers
	// and makes blocks until the proposal is no longer active.
	pass := func(id int, payload string) string {
		t.Helper()
		send(alice, tx.KindPropose, map[string]any{"proposalType": "role", "title": "Role change", "description": "", "payload": payload, "deposit": "1000"})
		send(alice, tx.KindVote, map[string]any{"proposal": strconv.Itoa(id), "option": "yes"})
		send(bob, tx.KindVote, map[string]any{"proposal": strconv.Itoa(id), "option": "yes"})
		for range 3 * votingBlocks {
			var p struct{ Status, Failure string }
			n.JSON("GET", "/api/v1/governance/proposals/"+strconv.Itoa(id), nil, nil, http.StatusOK, &p)
			if p.Status != "active" {
				return p.Status + p.Failure
			}
			send(alice, tx.KindTransfer, map[string]any{"to": alice.Address.Hex(), "amount": "1"})
		}
		t.Fatalf("proposal #%d is still active", id)
		return ""
	}
	holders := func(q string, wantTotal int) []roleHolderJSON {
		t.Helper()
		var out []roleHolderJSON
		res := n.JSON("GET", "/api/v1/community/roles"+q, nil, nil, http.StatusOK, &out)
		if res.Header.Get("X-Total-Count") != strconv.Itoa(wantTotal) {
			t.Fatalf("GET /community/roles%s: total %s, want %d: %s", q, res.Header.Get("X-Total-Count"), wantTotal, res.Body)
		}
		return out
	}
	overview := func() overviewJSON {
		t.Helper()
		var o overviewJSON
		n.JSON("GET", "/api/v1/community/overview", nil, nil, http.StatusOK, &o)
		return o
	}

	// 1. The genesis organizer is listed before any block, with no proposal.
	if h := holders("?role=event_organizer", 1); h[0].User.Wallet != carol.Address.Hex() || h[0].Proposal != 0 || h[0].Role != roles.EventOrganizer {
		t.Fatalf("genesis organizer: %+v", h)
	}
	holders("?role=ambassador", 0)
	bad := n.Call("GET", "/api/v1/community/roles?role=pope", nil, nil)
	var e apiError
	if json.Unmarshal(bad.Body, &e); bad.Status != http.StatusBadRequest || e.Field != "role" {
		t.Fatalf("an unknown role: %d %s", bad.Status, bad.Body)
	}

	// 2. A role proposal with a bad account is refused before it is made.
	send(alice, tx.KindStake, map[string]any{"amount": "10000"})
	send(bob, tx.KindStake, map[string]any{"amount": "10000"})
	env, err := tx.Sign(alice.Key, tx.KindPropose, map[string]any{"from": alice.Address.Hex(), "nonce": strconv.FormatUint(n.Nonce(alice.Address), 10),
		"proposalType": "role", "title": "Bad", "description": "", "payload": `{"account":"0x0000000000000000000000000000000000000000","role":"ambassador","action":"grant"}`, "deposit": "1000"}, 7771)
	check(t, "sign", err)
	if res := n.Call("POST", "/api/v1/chain/txs", nil, env); res.Status != http.StatusBadRequest || !json.Valid(res.Body) {
		t.Fatalf("a role proposal for the zero address: %d %s", res.Status, res.Body)
	} else if json.Unmarshal(res.Body, &e); e.Code != "invalid_field" {
		t.Fatalf("a role proposal for the zero address: %s", res.Body)
	}

	// 3. The grant passes; bob appears with his profile.
	if got := pass(1, `{"account":"`+bob.Address.Hex()+`","role":"ambassador","action":"grant"}`); got != "executed" {
		t.Fatalf("the grant: %s", got)
	}
	n.must(http.StatusOK, bob, "PATCH", "/api/v1/user/settings", map[string]any{"full_name": "Bob Builder", "location": "Lisbon", "description": "Runs the Lisbon meetup."})
	h := holders("?role=ambassador", 1)
	if h[0].User.Wallet != bob.Address.Hex() || h[0].User.Login != bob.Name() || h[0].User.FullName != "Bob Builder" || h[0].User.Location != "Lisbon" ||
		h[0].User.Description != "Runs the Lisbon meetup." || h[0].Proposal != 1 || h[0].Height <= 0 || h[0].Granted == "" {
		t.Fatalf("the ambassador: %+v", h)
	}
	if all := holders("", 2); all[0].Role != roles.EventOrganizer || all[1].Role != roles.Ambassador {
		t.Fatalf("every holder, longest-standing first: %+v", all)
	}
	holders("?role=ambassador&page=2&limit=1", 1)

	// 4. Repositories: two public (one starred twice, one once), one
	// private starred too.
	n.repo(alice, "popular", false)
	n.repo(alice, "quiet", false)
	n.repo(alice, "secret", true)
	for _, star := range []struct {
		u    *forgetest.User
		repo string
	}{{bob, "popular"}, {carol, "popular"}, {carol, "quiet"}, {alice, "secret"}} {
		n.must(http.StatusNoContent, star.u, "PUT", "/api/v1/user/starred/"+alice.Name()+"/"+star.repo, nil)
	}
	// A merged pull request makes bob (its author) and carol (the issue's
	// reporter) contributors, as in TestRewardsForAMergedPullRequest.
	lib := n.repo(alice, "lib", false)
	n.push(alice, alice, "lib", "main", "main", map[string]string{"lib.go": "package lib\n"})
	n.must(http.StatusNoContent, carol, "PUT", "/api/v1/user/starred/"+alice.Name()+"/lib", nil)
	n.must(http.StatusCreated, carol, "POST", "/api/v1/repos/"+alice.Name()+"/lib/issues", map[string]any{"title": "It breaks"})
	n.fork(bob, lib)
	n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.must(http.StatusCreated, bob, "POST", "/api/v1/repos/"+alice.Name()+"/lib/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "body": "Fixes #1."})
	n.must(http.StatusOK, alice, "POST", "/api/v1/repos/"+alice.Name()+"/lib/pulls/2/merge", map[string]any{"Do": "merge"})

	o := overview()
	// popular, quiet, lib and bob's fork of lib are public.
	if o.Repositories != 4 || o.Contributors != 2 || o.Proposals != 1 || o.OpenProposals != 0 || o.WindowDays != 7 {
		t.Fatalf("the overview's counts: %+v", o)
	}
	if len(o.MostStarred) != 3 || o.MostStarred[0].FullName != alice.Name()+"/popular" || o.MostStarred[0].Stars != 2 {
		t.Fatalf("most starred: %+v", o.MostStarred)
	}
	for _, r := range append(o.MostStarred, func() (rs []overviewRepoJSON) {
		for _, tr := range o.Trending {
			rs = append(rs, tr.Repository)
		}
		return rs
	}()...) {
		if r.FullName == alice.Name()+"/secret" {
			t.Fatal("the overview lists a private repository")
		}
	}
	// lib: a star plus its creation, pushes, issue, pull request and merge.
	if len(o.Trending) == 0 || o.Trending[0].Repository.FullName != alice.Name()+"/lib" || o.Trending[0].RecentStars != 1 || o.Trending[0].RecentActivity < 4 {
		t.Fatalf("trending: %+v", o.Trending)
	}
	if len(o.TopContributors) != 2 || o.TopContributors[0].Address != bob.Address.Hex() || o.TopContributors[0].Earned == 0 || o.TopContributors[0].Reputation == 0 {
		t.Fatalf("top contributors: %+v", o.TopContributors)
	}
	want := map[string]int64{roles.ForumModerator: 0, roles.EventOrganizer: 1, roles.Ambassador: 1}
	if len(o.Roles) != 3 {
		t.Fatalf("role counts: %+v", o.Roles)
	}
	for i, rc := range o.Roles {
		if rc.Role != roles.All[i] || rc.Holders != want[rc.Role] {
			t.Fatalf("role counts: %+v", o.Roles)
		}
	}

	if o.Topics != 0 || len(o.LatestTopics) != 0 || len(o.UpcomingEvents) != 0 {
		t.Fatalf("forum and events before any: %+v", o)
	}
	// Forum topics and the organizer's events show as they are made; a
	// past event is not upcoming.
	n.must(http.StatusCreated, bob, "POST", "/api/v1/forum/topics", map[string]any{"category": "help", "title": "How do I fork?", "body": "Asking."})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/forum/topics", map[string]any{"category": "showcase", "title": "My library", "body": "See lib."})
	soon, gone := time.Now().UTC().Add(48*time.Hour).Truncate(time.Second), time.Now().UTC().Add(-48*time.Hour).Truncate(time.Second)
	for title, at := range map[string]time.Time{"Meetup": soon, "Last week's call": gone} {
		n.must(http.StatusCreated, carol, "POST", "/api/v1/events", map[string]any{"title": title, "starts_at": at.Format(time.RFC3339),
			"ends_at": at.Add(time.Hour).Format(time.RFC3339), "timezone": "UTC", "place": "Berlin"})
	}
	o = overview()
	if o.Topics != 2 || len(o.LatestTopics) != 2 || o.LatestTopics[0].Title != "My library" || len(o.UpcomingEvents) != 1 || o.UpcomingEvents[0].Title != "Meetup" {
		t.Fatalf("forum and events in the overview: %+v", o)
	}

	// 5. The revocation passes; bob is no longer listed.
	if got := pass(2, `{"account":"`+bob.Address.Hex()+`","role":"ambassador","action":"revoke"}`); got != "executed" {
		t.Fatalf("the revocation: %s", got)
	}
	holders("?role=ambassador", 0)
	if o := overview(); o.Proposals != 2 || o.Roles[2].Holders != 0 {
		t.Fatalf("the overview after the revocation: %+v", o)
	}
}
