package api_test

import (
	"crypto/ecdsa"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// bountyNode is a node whose genesis funds two wallets.
type bountyNode struct {
	*issuesNode
}

func startBountyNode(t *testing.T, opts []forgetest.Option, keys ...*ecdsa.PrivateKey) *bountyNode {
	t.Helper()
	opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
		for _, k := range keys {
			g.Allocations = append(g.Allocations, ledger.Allocation{Address: crypto.PubkeyToAddress(k.PublicKey), Amount: 1_000_000})
		}
	}))
	return &bountyNode{issuesNode: &issuesNode{Node: forgetest.Start(t, opts...), t: t}}
}

// submit signs kind with u's wallet and relays it as the web does; the
// nonce moves on only when the chain took it.
func (n *bountyNode) submit(u *forgetest.User, kind tx.Kind, msg map[string]any, edit func(*tx.Envelope)) forgetest.Response {
	n.t.Helper()
	msg["from"], msg["nonce"] = u.Address.Hex(), strconv.FormatUint(n.Nonce(u.Address), 10)
	env, err := tx.Sign(u.Key, kind, msg, 7771)
	if err != nil {
		n.t.Fatal(err)
	}
	if edit != nil {
		edit(&env)
	}
	res := n.Call("POST", "/api/v1/chain/txs", nil, env)
	if res.Status == http.StatusOK {
	}
	return res
}

func (n *bountyNode) fund(u *forgetest.User, repo, issue uint64, amount, expiry int64) forgetest.Response {
	n.t.Helper()
	return n.submit(u, tx.KindBountyFund, map[string]any{"repo": strconv.FormatUint(repo, 10), "issue": strconv.FormatUint(issue, 10),
		"amount": strconv.FormatInt(amount, 10), "expiry": strconv.FormatInt(expiry, 10)}, nil)
}

func (n *bountyNode) refund(u *forgetest.User, repo, issue uint64) forgetest.Response {
	n.t.Helper()
	return n.submit(u, tx.KindBountyRefund, map[string]any{"repo": strconv.FormatUint(repo, 10), "issue": strconv.FormatUint(issue, 10)}, nil)
}

func (n *bountyNode) balance(a common.Address) int64 {
	n.t.Helper()
	var acct struct{ Balance int64 }
	n.JSON("GET", "/api/v1/accounts/"+a.Hex(), nil, nil, http.StatusOK, &acct)
	return acct.Balance
}

func (n *bountyNode) height() int64 {
	n.t.Helper()
	var s index.Status
	n.JSON("GET", "/api/v1/chain/status", nil, nil, http.StatusOK, &s)
	return s.Height
}

// refused checks a refusal: its status, code and field, as a client sees them.
func (n *bountyNode) refused(what string, res forgetest.Response, status int, code, field string) {
	n.t.Helper()
	var e apiError
	res.Decode(n.t, &e)
	if res.Status != status || e.Code != code || e.Field != field || e.Message == "" {
		n.t.Fatalf("%s: %d %s, want %d %s on %q", what, res.Status, res.Body, status, code, field)
	}
}

// TestBounties drives bounties through the API: two funders fund an issue,
// a third user's pull request that fixes it is merged and pays its author
// in the merge's block; the paid history; every refusal as a 4xx naming
// the field; and a refund after the expiry.
func TestBounties(t *testing.T) {
	t.Parallel()
	for store, opts := range forgetest.Stores() {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			k1, k2 := mustKey(t), mustKey(t)
			n := startBountyNode(t, opts, k1, k2)
			f1, f2 := n.NewUserWith(k1), n.NewUserWith(k2)
			alice, bob := n.NewUser(), n.NewUser()
			repo := n.repo(alice, "lib", false)
			base := "/api/v1/repos/" + alice.Name() + "/lib"
			n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "It breaks"})

			// 1. Two funders; the same funder again adds to their share.
			h := n.height()
			for _, f := range []struct {
				u      *forgetest.User
				amount int64
			}{{f1, 300}, {f2, 200}, {f1, 100}} {
				if res := n.fund(f.u, repo.ID, 1, f.amount, h+1000); res.Status != http.StatusOK {
					t.Fatalf("fund: %d %s", res.Status, res.Body)
				}
			}
			var b index.Bounty
			n.JSON("GET", base+"/issues/1/bounty", nil, nil, http.StatusOK, &b)
			if b.Status != "open" || b.Total != 600 || b.FunderCount != 2 || len(b.Funders) != 2 || b.Funders[0].Address != f1.Address.Hex() ||
				b.Funders[0].Amount != 400 || b.Funders[1].Amount != 200 || b.Expiry != uint64(h+1000) || b.Repo != alice.Name()+"/lib" {
				t.Fatalf("bounty: %+v", b)
			}
			var open []index.Bounty
			n.JSON("GET", "/api/v1/bounties?repo="+alice.Name()+"/lib", nil, nil, http.StatusOK, &open)
			if len(open) != 1 || open[0].Total != 600 || open[0].Title != "It breaks" {
				t.Fatalf("open bounties: %+v", open)
			}

			// 2. Bob's pull request fixes it; alice merges; bob is paid in
			// the merge's block and the escrow is empty.
			n.fork(bob, repo)
			n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
			n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "body": "Fixes #1."})
			before := n.balance(bob.Address)
			n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})
			if got := n.balance(bob.Address); got != before+600 {
				t.Fatalf("bob's balance %d, want %d", got, before+600)
			}
			if got := n.balance(app.BountyEscrowAddress); got != 0 {
				t.Fatalf("escrow %d after the payout", got)
			}
			var forgeTxs []struct{ Height int64 }
			n.JSON("GET", "/api/v1/chain/txs?type=Forge&limit=1", nil, nil, http.StatusOK, &forgeTxs)
			var paid []index.Bounty
			n.JSON("GET", "/api/v1/bounties?state=paid", nil, nil, http.StatusOK, &paid)
			if len(paid) != 1 || paid[0].Status != "paid" || paid[0].PaidAmount != 600 || paid[0].PaidTo == nil || paid[0].PaidTo.Address != bob.Address.Hex() ||
				len(forgeTxs) != 1 || paid[0].PaidHeight != forgeTxs[0].Height || paid[0].IssueState != "closed" {
				t.Fatalf("paid history: %+v (merge at %+v)", paid, forgeTxs)
			}
			n.JSON("GET", "/api/v1/bounties", nil, nil, http.StatusOK, &open)
			if len(open) != 0 {
				t.Fatalf("open bounties after the payout: %+v", open)
			}

			// 3. Refusals, nothing applied.
			f1Before := n.balance(f1.Address)
			zero := n.submit(f1, tx.KindBountyFund, map[string]any{"repo": strconv.FormatUint(repo.ID, 10), "issue": "1", "amount": "1", "expiry": "999999"},
				func(env *tx.Envelope) { env.Message["amount"] = "0" })
			n.refused("zero", zero, http.StatusUnprocessableEntity, "non_positive_amount", "amount")
			n.refused("closed issue", n.fund(f1, repo.ID, 1, 10, n.height()+100), http.StatusUnprocessableEntity, "bounty_issue_closed", "issue")
			n.refused("pull request", n.fund(f1, repo.ID, 2, 10, n.height()+100), http.StatusUnprocessableEntity, "bounty_not_an_issue", "issue")
			n.refused("unknown issue", n.fund(f1, repo.ID, 99, 10, n.height()+100), http.StatusNotFound, "not_found", "issue")
			secret := n.repo(alice, "secret", true)
			n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+alice.Name()+"/secret/issues", map[string]any{"title": "Hidden"})
			n.refused("private issue", n.fund(f1, secret.ID, 1, 10, n.height()+100), http.StatusNotFound, "not_found", "issue")
			n.must(http.StatusNotFound, alice, "GET", "/api/v1/repos/"+alice.Name()+"/secret/issues/1/bounty", nil)
			n.must(http.StatusNotFound, f1, "GET", "/api/v1/repos/"+alice.Name()+"/secret/issues/1/bounty", nil)
			n.must(http.StatusNotFound, nil, "GET", "/api/v1/bounties?repo="+alice.Name()+"/secret", nil)
			n.must(http.StatusNotFound, nil, "GET", base+"/issues/42/bounty", nil)
			n.must(http.StatusUnprocessableEntity, nil, "GET", "/api/v1/bounties?state=gone", nil)
			n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Slow"})
			n.refused("expiry now", n.fund(f1, repo.ID, 3, 10, n.height()), http.StatusUnprocessableEntity, "invalid_field", "expiry")
			n.refused("too much", n.fund(f1, repo.ID, 3, 10_000_000, n.height()+100), http.StatusUnprocessableEntity, "insufficient_funds", "amount")
			n.refused("nothing to refund", n.refund(f1, repo.ID, 3), http.StatusUnprocessableEntity, "bounty_nothing_to_refund", "issue")
			if got := n.balance(f1.Address); got != f1Before {
				t.Fatalf("refusals moved f1's balance: %d -> %d", f1Before, got)
			}

			// 4. A refund: refused before the expiry, then the share back.
			// Margin for empty blocks: a share whose expiry passes while it
			// waits in the mempool is dropped on recheck.
			expiry := n.height() + 4
			if res := n.fund(f1, repo.ID, 3, 250, expiry); res.Status != http.StatusOK {
				t.Fatalf("fund #3: %d %s", res.Status, res.Body)
			}
			n.refused("refund before expiry", n.refund(f1, repo.ID, 3), http.StatusUnprocessableEntity, "bounty_not_expired", "expiry")
			for i := 0; n.height() <= expiry; i++ {
				if i == 10 {
					t.Fatal("the chain does not advance")
				}
				n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": fmt.Sprintf("Filler %d", i)})
			}
			if res := n.refund(f1, repo.ID, 3); res.Status != http.StatusOK {
				t.Fatalf("refund after expiry: %d %s", res.Status, res.Body)
			}
			if got := n.balance(f1.Address); got != f1Before {
				t.Fatalf("f1's balance after the refund %d, want %d", got, f1Before)
			}
			b = index.Bounty{}
			n.JSON("GET", base+"/issues/3/bounty", nil, nil, http.StatusOK, &b)
			if b.Status != "refunded" || b.Total != 0 || len(b.Funders) != 0 {
				t.Fatalf("refunded bounty: %+v", b)
			}
		})
	}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestBountyLanguage filters the bounty list by the repositories' main
// language, counted from the git data of their default branch.
func TestBountyLanguage(t *testing.T) {
	t.Parallel()
	for store, opts := range forgetest.Stores() {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			k := mustKey(t)
			n := startBountyNode(t, opts, k)
			funder, alice := n.NewUserWith(k), n.NewUser()
			goRepo, pyRepo := n.repo(alice, "gotool", false), n.repo(alice, "pytool", false)
			n.push(alice, alice, "gotool", "main", "main", map[string]string{"main.go": "package main\n\nfunc main() {}\n", "util.py": "x = 1\n"})
			n.push(alice, alice, "pytool", "main", "main", map[string]string{"tool.py": "def main():\n    print('hello, world')\n"})
			for _, r := range []index.Repo{goRepo, pyRepo} {
				n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+alice.Name()+"/"+r.Name+"/issues", map[string]any{"title": "Help " + r.Name})
				if res := n.fund(funder, r.ID, 1, 100, n.height()+1000); res.Status != http.StatusOK {
					t.Fatalf("fund %s: %d %s", r.Name, res.Status, res.Body)
				}
			}
			list := func(query string, want ...string) {
				t.Helper()
				var got []index.Bounty
				res := n.JSON("GET", "/api/v1/bounties"+query, nil, nil, http.StatusOK, &got)
				if total := res.Header.Get("X-Total-Count"); total != strconv.Itoa(len(want)) {
					t.Fatalf("%s: X-Total-Count %q, want %d", query, total, len(want))
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %+v, want %v", query, got, want)
				}
				for i, b := range got {
					if b.Repo+" "+b.Language != want[i] {
						t.Fatalf("%s: row %d is %s in %q, want %s", query, i, b.Repo, b.Language, want[i])
					}
				}
			}
			goRow, pyRow := alice.Name()+"/gotool Go", alice.Name()+"/pytool Python"
			list("", goRow, pyRow)
			list("?language=go", goRow)
			list("?language=GO", goRow)
			list("?language=Python", pyRow)
			list("?language=python&repo=" + alice.Name() + "/gotool")
			list("?language=cobol")
			list("?language=go&state=paid")
			n.must(http.StatusUnprocessableEntity, nil, "GET", "/api/v1/bounties?language="+strings.Repeat("x", 65), nil)
			var b index.Bounty
			n.JSON("GET", "/api/v1/repos/"+alice.Name()+"/pytool/issues/1/bounty", nil, nil, http.StatusOK, &b)
			if b.Language != "Python" {
				t.Fatalf("bounty's language %q, want Python", b.Language)
			}
		})
	}
}
