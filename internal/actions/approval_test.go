package actions_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"

	"github.com/dforge/dforge/internal/forgetest"
)

// prRun is a pull request's run as the API shows it.
type prRun struct {
	ID           int64  `json:"id"`
	State        string `json:"state"`
	HeadSHA      string `json:"head_sha"`
	NeedApproval bool   `json:"need_approval"`
	ApprovedBy   *struct {
		Login string `json:"login"`
	} `json:"approved_by"`
}

// prRuns waits until repo has want pull-request runs and returns them,
// newest first.
func prRuns(t *testing.T, n *forgetest.Node, u *forgetest.User, repo string, want int) []prRun {
	t.Helper()
	type page struct {
		Runs  []prRun `json:"workflow_runs"`
		Total int     `json:"total_count"`
	}
	var out page
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		// A fresh page each poll: decoding into the last one would keep
		// an earlier run's approved_by where this run has none.
		out = page{}
		n.JSON("GET", repo+"/actions/runs?event=pull_request", u, nil, http.StatusOK, &out)
		if out.Total >= want {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out.Total != want {
		t.Fatalf("%d pull-request runs, want %d", out.Total, want)
	}
	return out.Runs
}

func runPath(repo string, id int64) string {
	return repo + "/actions/runs/" + strconv.FormatInt(id, 10)
}

// openForkPull has u fork owner's repository name, push a commit to
// branch there and open a pull request of it into main.
func openForkPull(n *forgetest.Node, u, owner *forgetest.User, name, branch string, fork bool) string {
	if fork {
		n.JSON("POST", "/api/v1/repos/"+owner.Name()+"/"+name+"/forks", u, map[string]any{}, http.StatusAccepted, nil)
	}
	dir := n.Clone(n.Remote(u, u.Name(), name))
	n.Git(dir, "checkout", "--quiet", "-b", branch)
	n.Commit(dir, branch, map[string]string{branch + ".txt": branch})
	n.Git(dir, "push", "--quiet", "origin", branch)
	n.JSON("POST", "/api/v1/repos/"+owner.Name()+"/"+name+"/pulls", u, map[string]any{"head": u.Name() + ":" + branch, "base": "main", "title": branch}, http.StatusCreated, nil)
	return dir
}

// A first-time contributor's pull request from a fork runs only once a
// writer approves it: until then its run is blocked, no runner gets its
// job and no status is posted; others may not approve; once approved the
// job runs and its status lands on the commit in the approver's name. A
// new push to it waits again (and may be cancelled); a re-run of the
// approved run stays approved, one of a run never approved waits again.
// Once a pull request of theirs is merged, and for a writer's fork or a
// branch of the base, nothing waits. On PostgreSQL too, when
// DFORGE_TEST_PG names a server.
func TestAFirstTimeContributorsRunWaitsForAWritersApproval(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testApproval(t, forgetest.Start(t, opts...))
		})
	}
}

func testApproval(t *testing.T, n *forgetest.Node) {
	alice, bob, carol, dave := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	repo := newRepo(n, alice, "lib")
	r := register(t, n, runnerToken(n, alice, repo), "linux:host")
	n.JSON("PUT", repo+"/collaborators/"+dave.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	dir := n.Clone(n.Remote(alice, alice.Name(), "lib"))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/pr.yml": "name: PR\non: pull_request\njobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo hi\n"})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")

	// 1. Bob's first pull request, from his fork: blocked.
	fork := openForkPull(n, bob, alice, "lib", "fix", true)
	first := prRuns(t, n, alice, repo, 1)[0]
	if first.State != "blocked" || !first.NeedApproval || first.ApprovedBy != nil {
		t.Fatalf("a first-time contributor's run: %+v", first)
	}
	if task := r.fetch(2 * time.Second); task != nil {
		t.Fatalf("a runner got the job of a run waiting for approval: %v", task)
	}
	var combined struct {
		State    string
		Statuses []struct {
			Context, Status string
			Creator         struct{ Login string }
		}
	}
	n.JSON("GET", repo+"/commits/"+first.HeadSHA+"/status", alice, nil, http.StatusOK, &combined)
	if len(combined.Statuses) != 0 {
		t.Fatalf("statuses of a run waiting for approval: %+v", combined)
	}

	// 2. Neither the author nor a stranger may approve; a private
	// repository's runs are not found by those who cannot read it.
	for _, u := range []*forgetest.User{bob, carol} {
		if res := n.Call("POST", runPath(repo, first.ID)+"/approve", u, nil); res.Status != http.StatusForbidden {
			t.Fatalf("approve by a non-writer: %d %s", res.Status, res.Body)
		}
	}
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "vault", "private": true}, http.StatusCreated, nil)
	if res := n.Call("POST", "/api/v1/repos/"+alice.Name()+"/vault/actions/runs/1/approve", carol, nil); res.Status != http.StatusNotFound {
		t.Fatalf("approve on a private repository by a non-reader: %d %s", res.Status, res.Body)
	}

	// 3. Alice approves: the job runs and its status lands, in her name.
	var approved prRun
	n.JSON("POST", runPath(repo, first.ID)+"/approve", alice, nil, http.StatusOK, &approved)
	if !approved.NeedApproval || approved.ApprovedBy == nil || approved.ApprovedBy.Login != alice.Name() || approved.State == "blocked" {
		t.Fatalf("the approved run: %+v", approved)
	}
	if res := n.Call("POST", runPath(repo, first.ID)+"/approve", dave, nil); res.Status != http.StatusConflict {
		t.Fatalf("approve twice: %d %s", res.Status, res.Body)
	}
	task := r.fetch(30 * time.Second)
	if task == nil {
		t.Fatal("the approved run's job was not handed out")
	}
	r.finish(task, runnerv1.Result_RESULT_SUCCESS, "hi")
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) && combined.State != "success" {
		time.Sleep(200 * time.Millisecond)
		n.JSON("GET", repo+"/commits/"+first.HeadSHA+"/status", alice, nil, http.StatusOK, &combined)
	}
	if combined.State != "success" || len(combined.Statuses) != 1 || combined.Statuses[0].Context != "PR / j (pull_request)" ||
		combined.Statuses[0].Creator.Login != alice.Name() {
		t.Fatalf("the approved run's status: %+v", combined)
	}

	// 4. A new push to the pull request waits again; cancel ends it.
	n.Commit(fork, "more", map[string]string{"more.txt": "x"})
	n.Git(fork, "push", "--quiet", "origin", "fix")
	n.JSON("GET", repo+"/pulls/1", bob, nil, http.StatusOK, nil) // the pull request follows its head
	second := prRuns(t, n, alice, repo, 2)[0]
	if second.State != "blocked" || !second.NeedApproval || second.ApprovedBy != nil {
		t.Fatalf("the run of a new push: %+v", second)
	}
	if task := r.fetch(2 * time.Second); task != nil {
		t.Fatalf("a runner got the job of a new push waiting for approval: %v", task)
	}
	n.JSON("POST", runPath(repo, second.ID)+"/cancel", alice, nil, http.StatusAccepted, nil)
	n.JSON("GET", runPath(repo, second.ID), alice, nil, http.StatusOK, &second)
	if second.State != "cancelled" {
		t.Fatalf("a cancelled blocked run: %+v", second)
	}
	time.Sleep(time.Second) // a worker round, which would post a status
	n.JSON("GET", repo+"/commits/"+second.HeadSHA+"/status", alice, nil, http.StatusOK, &combined)
	if len(combined.Statuses) != 0 {
		t.Fatalf("statuses of a run cancelled before its approval: %+v", combined)
	}
	if res := n.Call("POST", runPath(repo, second.ID)+"/approve", alice, nil); res.Status != http.StatusConflict {
		t.Fatalf("approve a cancelled run: %d %s", res.Status, res.Body)
	}

	// 5. A re-run of the approved run stays approved and runs.
	var rerun prRun
	n.JSON("POST", runPath(repo, first.ID)+"/rerun", alice, nil, http.StatusCreated, &rerun)
	if rerun.State == "blocked" || rerun.ApprovedBy == nil || rerun.ApprovedBy.Login != alice.Name() {
		t.Fatalf("the re-run of an approved run: %+v", rerun)
	}
	if task := r.fetch(30 * time.Second); task == nil {
		t.Fatal("the re-run's job was not handed out")
	} else {
		r.finish(task, runnerv1.Result_RESULT_SUCCESS, "hi")
	}
	// A re-run of the run cancelled before its approval waits again.
	var heldAgain prRun
	n.JSON("POST", runPath(repo, second.ID)+"/rerun", alice, nil, http.StatusCreated, &heldAgain)
	if heldAgain.State != "blocked" || !heldAgain.NeedApproval || heldAgain.ApprovedBy != nil {
		t.Fatalf("the re-run of a run never approved: %+v", heldAgain)
	}

	// 6. Once bob's pull request is merged, his next one runs at once;
	// so do a writer's from a fork and one from a branch of the base.
	n.JSON("POST", repo+"/pulls/1/merge", alice, map[string]any{"Do": "merge"}, http.StatusOK, nil)
	n.Git(fork, "fetch", "--quiet", n.Remote(bob, alice.Name(), "lib"), "main")
	n.Git(fork, "checkout", "--quiet", "-b", "next", "FETCH_HEAD")
	n.Commit(fork, "next", map[string]string{"next.txt": "x"})
	n.Git(fork, "push", "--quiet", "origin", "next")
	n.JSON("POST", repo+"/pulls", bob, map[string]any{"head": bob.Name() + ":next", "base": "main", "title": "next"}, http.StatusCreated, nil)
	openForkPull(n, dave, alice, "lib", "dave", true)
	n.Git(dir, "checkout", "--quiet", "-b", "own")
	n.Commit(dir, "own", map[string]string{"own.txt": "x"})
	n.Git(dir, "push", "--quiet", "origin", "own")
	n.JSON("POST", repo+"/pulls", alice, map[string]any{"head": "own", "base": "main", "title": "own"}, http.StatusCreated, nil)
	for _, run := range prRuns(t, n, alice, repo, 7)[:3] {
		if run.NeedApproval || run.State == "blocked" {
			t.Fatalf("a run that needs no approval: %+v", run)
		}
	}
	for i := range 3 {
		task := r.fetch(30 * time.Second)
		if task == nil {
			t.Fatalf("job %d of the runs that need no approval was not handed out", i+1)
		}
		r.finish(task, runnerv1.Result_RESULT_SUCCESS, "hi")
	}
	if task := r.fetch(2 * time.Second); task != nil { // the re-run still waits
		t.Fatalf("a runner got the job of a re-run waiting for approval: %v", task)
	}
}
