package api_test

import (
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// transferOut is a repository with Gitea's repo_transfer.
type transferOut struct {
	repoOut
	RepoTransfer *struct {
		Doer      struct{ Login string } `json:"doer"`
		Recipient struct{ Login string } `json:"recipient"`
		Teams     []struct{ ID int64 }   `json:"teams"`
	} `json:"repo_transfer"`
}

// A repository is given to a user only with their consent (issue 23):
// the transfer is an offer (201, Gitea's pending transfer) the recipient
// hears of and accepts (202) or rejects (200); a stranger's answer is
// 403 and changes nothing; the owner may cancel.
func TestTransferWaitsForTheRecipient(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	create(t, n, alice, "lib", false)
	offer := func(to *forgetest.User, want int) {
		t.Helper()
		res := n.WalletCall("POST", repoPath(alice, "lib")+"/transfer", alice, map[string]string{"new_owner": to.Name()})
		if res.Status != want {
			t.Fatalf("transfer to %s signed by alice's wallet: %d %s, want %d", to.Name(), res.Status, res.Body, want)
		}
	}
	pending := func(who *forgetest.User) transferOut {
		t.Helper()
		var got transferOut
		n.JSON("GET", repoPath(alice, "lib"), who, nil, http.StatusOK, &got)
		if got.Owner.Login != alice.Name() {
			t.Fatalf("the offered repository moved: %+v", got)
		}
		return got
	}

	// 1. Offered to bob: still alice's, with its repo_transfer; bob is told.
	offer(bob, http.StatusCreated)
	got := pending(nil)
	if got.RepoTransfer == nil || got.RepoTransfer.Doer.Login != alice.Name() || got.RepoTransfer.Recipient.Login != bob.Name() || got.RepoTransfer.Teams == nil {
		t.Fatalf("repo_transfer = %+v", got.RepoTransfer)
	}
	var threads []struct {
		Reason  string
		Subject struct {
			Title   string
			Type    string
			HTMLURL string `json:"html_url"`
		}
		Repository *struct {
			FullName string `json:"full_name"`
		}
	}
	n.JSON("GET", "/api/v1/notifications", bob, nil, http.StatusOK, &threads)
	if len(threads) != 1 || threads[0].Subject.Type != "Repository" || threads[0].Reason != "repo_transfer" ||
		threads[0].Subject.Title != alice.Name()+"/lib" || threads[0].Repository == nil || threads[0].Repository.FullName != alice.Name()+"/lib" {
		t.Fatalf("bob's notifications = %+v", threads)
	}
	n.JSON("GET", "/api/v1/notifications", carol, nil, http.StatusOK, &threads)
	if len(threads) != 0 {
		t.Fatalf("carol was told of bob's offer: %+v", threads)
	}
	// One offer at a time (Gitea: 409).
	offer(carol, http.StatusConflict)

	// 2. A stranger answers nothing; bob rejects and nothing moved.
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/accept", carol, nil, http.StatusForbidden, nil)
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/reject", carol, nil, http.StatusForbidden, nil)
	pending(nil)
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/reject", bob, nil, http.StatusOK, &got)
	if got.Owner.Login != alice.Name() || got.RepoTransfer != nil {
		t.Fatalf("rejected: %+v", got)
	}
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/accept", bob, nil, http.StatusNotFound, nil)

	// 3. Alice cancels an offer to carol.
	offer(carol, http.StatusCreated)
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/reject", alice, nil, http.StatusOK, &got)
	if got.RepoTransfer != nil {
		t.Fatalf("cancelled: %+v", got.RepoTransfer)
	}

	// 4. Offered again, bob accepts: it is his, and the old path is gone
	// as after any transfer.
	offer(bob, http.StatusCreated)
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/accept", bob, nil, http.StatusAccepted, &got)
	if got.Owner.Login != bob.Name() || got.RepoTransfer != nil {
		t.Fatalf("accepted: %+v", got)
	}
	n.JSON("GET", repoPath(alice, "lib"), nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", repoPath(bob, "lib")+"/contents/README.md", nil, nil, http.StatusOK, nil)
	n.Clone(n.Remote(bob, bob.Name(), "lib"))

	// Teams are for a transfer into an organization (Gitea: 422).
	res := n.WalletCall("POST", repoPath(bob, "lib")+"/transfer", bob, map[string]any{"new_owner": carol.Name(), "team_ids": []int64{1}})
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("teams for a user: %d %s", res.Status, res.Body)
	}
}
