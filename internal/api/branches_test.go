package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// Commit statuses, branches, branch protection and compare through
// Gitea's SDK; a push a rule refuses gets git's error and moves nothing.
func TestStatusesBranchesProtection(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "guarded"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	mainSHA := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD"))
	n.Git(wt, "checkout", "-q", "-b", "feature")
	head := n.Commit(wt, "Add the app", map[string]string{"src/app.go": "package app\n"})
	n.Git(wt, "push", "-q", "origin", "feature")

	// 1. Statuses: set by a writer, listed newest first, combined worst first.
	st, res, err := c.CreateStatus(owner, name, head, gitea.CreateStatusOption{State: gitea.StatusPending, Context: "ci/build", TargetURL: "https://ci.example/1", Description: "building"})
	check(t, "CreateStatus", err)
	if res.StatusCode != http.StatusCreated || st.State != gitea.StatusPending || st.Context != "ci/build" || st.Creator == nil || st.Creator.UserName != owner {
		t.Fatalf("CreateStatus: %d %+v", res.StatusCode, st)
	}
	_, _, err = c.CreateStatus(owner, name, head, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci/build"})
	check(t, "CreateStatus", err)
	_, _, err = c.CreateStatus(owner, name, head, gitea.CreateStatusOption{State: gitea.StatusWarning, Context: "lint"})
	check(t, "CreateStatus", err)
	list, _, err := c.ListStatuses(owner, name, "feature", gitea.ListStatusesOption{})
	check(t, "ListStatuses", err)
	if len(list) != 3 || list[0].Context != "lint" || list[2].State != gitea.StatusPending {
		t.Fatalf("ListStatuses: %+v", list)
	}
	combined, _, err := c.GetCombinedStatus(owner, name, "feature")
	check(t, "GetCombinedStatus", err)
	if combined.State != gitea.StatusWarning || combined.TotalCount != 2 || combined.SHA != head || len(combined.Statuses) != 2 {
		t.Fatalf("GetCombinedStatus: %+v", combined)
	}
	if _, res, err := bob.client.CreateStatus(owner, name, head, gitea.CreateStatusOption{State: gitea.StatusSuccess}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a reader's status: %v", err)
	}
	for _, bad := range []gitea.CreateStatusOption{{State: "done"}, {State: gitea.StatusSuccess, TargetURL: "javascript:alert(1)"}} {
		if _, res, err := c.CreateStatus(owner, name, head, bad); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad status %+v: %v", bad, err)
		}
	}

	// 2. Branches: created from one, refused twice, the default kept.
	b, res, err := c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "dev", OldBranchName: "main"})
	check(t, "CreateBranch", err)
	if res.StatusCode != http.StatusCreated || b.Name != "dev" || b.Commit.ID != mainSHA {
		t.Fatalf("CreateBranch: %+v", b)
	}
	if _, res, err := c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "dev"}); err == nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("CreateBranch twice: %v", err)
	}
	if _, res, err := c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "x", OldBranchName: "nope"}); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("CreateBranch from nothing: %v", err)
	}
	if ok, res, _ := c.DeleteRepoBranch(owner, name, "main"); ok || res.StatusCode != http.StatusForbidden {
		t.Fatalf("DeleteRepoBranch main: %v %d", ok, res.StatusCode)
	}
	if out := n.Git(wt, "ls-remote", "origin", "refs/heads/dev"); !strings.HasPrefix(out, mainSHA) {
		t.Fatalf("dev in git: %q", out)
	}

	// 3. A rule that disables pushing: git's push is refused and moves nothing.
	rule, res, err := c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "dev", EnablePush: false,
		EnableStatusCheck: true, StatusCheckContexts: []string{"ci/build"}, RequiredApprovals: 1})
	check(t, "CreateBranchProtection", err)
	if res.StatusCode != http.StatusCreated || rule.RuleName != "dev" || rule.RequiredApprovals != 1 || len(rule.StatusCheckContexts) != 1 {
		t.Fatalf("CreateBranchProtection: %+v", rule)
	}
	if _, res, err := bob.client.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "feature"}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a stranger's rule: %v", err)
	}
	if _, res, err := c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "feature", DismissStaleApprovals: true}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an unsupported option: %v", err)
	}
	rules, _, err := c.ListBranchProtections(owner, name, gitea.ListBranchProtectionsOptions{})
	check(t, "ListBranchProtections", err)
	if len(rules) != 1 || rules[0].RuleName != "dev" {
		t.Fatalf("ListBranchProtections: %+v", rules)
	}
	n.Git(wt, "checkout", "-q", "-b", "dev", mainSHA)
	n.Commit(wt, "Straight to dev", map[string]string{"dev.txt": "dev\n"})
	out, err := n.TryGit(wt, "push", "origin", "dev")
	if err == nil || !strings.Contains(out, "pushing to it is disabled") {
		t.Fatalf("push to a rule that disables pushing: %v\n%s", err, out)
	}
	if got, _, err := c.GetRepoBranch(owner, name, "dev"); err != nil || got.Commit.ID != mainSHA || !got.Protected {
		t.Fatalf("dev after a refused push: %v %+v", err, got)
	}
	if ok, res, _ := c.DeleteRepoBranch(owner, name, "dev"); ok || res.StatusCode != http.StatusForbidden {
		t.Fatalf("DeleteRepoBranch of a protected branch: %v %d", ok, res.StatusCode)
	}
	enable := true
	rule, _, err = c.EditBranchProtection(owner, name, "dev", gitea.EditBranchProtectionOption{EnablePush: &enable})
	check(t, "EditBranchProtection", err)
	if !rule.EnablePush || rule.RequiredApprovals != 1 {
		t.Fatalf("EditBranchProtection: %+v", rule)
	}
	n.Git(wt, "push", "-q", "origin", "dev")
	_, err = c.DeleteBranchProtection(owner, name, "dev")
	check(t, "DeleteBranchProtection", err)
	if _, res, err := c.GetBranchProtection(owner, name, "dev"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetBranchProtection after delete: %v", err)
	}
	if ok, _, err := c.DeleteRepoBranch(owner, name, "dev"); !ok || err != nil {
		t.Fatalf("DeleteRepoBranch dev: %v %v", ok, err)
	}
	if out := n.Git(wt, "ls-remote", "origin", "refs/heads/dev"); out != "" {
		t.Fatalf("dev after its deletion: %q", out)
	}

	// 4. Compare: the commits feature has, and its files.
	cmp, _, err := c.CompareCommits(owner, name, "main", "feature")
	check(t, "CompareCommits", err)
	if cmp.TotalCommits != 1 || len(cmp.Commits) != 1 || cmp.Commits[0].SHA != head {
		t.Fatalf("CompareCommits: %+v", cmp)
	}
	var raw struct {
		Files []struct{ Filename, Patch string }
	}
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+name+"/compare/main...feature", nil, nil, http.StatusOK, &raw)
	if len(raw.Files) != 1 || raw.Files[0].Filename != "src/app.go" || !strings.Contains(raw.Files[0].Patch, "+package app") {
		t.Fatalf("compare files: %+v", raw.Files)
	}
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+name+"/compare/main..feature", nil, nil, http.StatusUnprocessableEntity, nil)
}

// A merge into a branch with a rule needs its checks and approvals.
func TestProtectedMerge(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "gated"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	n.Git(wt, "checkout", "-q", "-b", "feature")
	head := n.Commit(wt, "Add the app", map[string]string{"app.go": "package app\n"})
	n.Git(wt, "push", "-q", "origin", "feature")
	_, _, err = c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "main",
		EnableStatusCheck: true, StatusCheckContexts: []string{"ci"}, RequiredApprovals: 1})
	check(t, "CreateBranchProtection", err)
	pr, _, err := c.CreatePullRequest(owner, name, gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "App"})
	check(t, "CreatePullRequest", err)
	merge := func() (bool, *gitea.Response, error) {
		return c.MergePullRequest(owner, name, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
	}
	refused := func(want string) {
		t.Helper()
		res := n.Call("POST", "/api/v1/repos/"+owner+"/"+name+"/pulls/1/merge", &forgetest.User{Token: alice.token}, map[string]any{"Do": "merge"})
		if res.Status != http.StatusMethodNotAllowed || !strings.Contains(string(res.Body), want) {
			t.Fatalf("merge: %d %s, want 405 with %q", res.Status, res.Body, want)
		}
		if ok, _, _ := merge(); ok {
			t.Fatal("the SDK merged a pull request its rule refuses")
		}
	}
	refused(`status check \"ci\"`)
	_, _, err = c.CreateStatus(owner, name, head, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci"})
	check(t, "CreateStatus", err)
	refused("approvals")
	_, err = c.AddCollaborator(owner, name, bob.login, gitea.AddCollaboratorOption{})
	check(t, "AddCollaborator", err)
	_, _, err = bob.client.CreatePullReview(owner, name, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStateApproved, CommitID: head})
	check(t, "CreatePullReview", err)
	ok, _, err := merge()
	check(t, "MergePullRequest", err)
	if got, _, err := c.GetPullRequest(owner, name, pr.Index); !ok || err != nil || !got.HasMerged {
		t.Fatalf("merged: %v %v %+v", ok, err, got)
	}
}

// A private repository's statuses, rules and comparisons are hidden (404)
// from people who cannot read it, and its writers use them as anywhere.
func TestPrivateStatusesAndRulesStayHidden(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "secret"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default", Private: true})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	sha := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD"))
	_, _, err = c.CreateStatus(owner, name, sha, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci"})
	check(t, "CreateStatus", err)
	_, _, err = c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "main", RequiredApprovals: 1})
	check(t, "CreateBranchProtection", err)
	if got, _, err := c.GetCombinedStatus(owner, name, "main"); err != nil || got.State != gitea.StatusSuccess {
		t.Fatalf("owner's combined status: %v %+v", err, got)
	}
	stranger := &forgetest.User{Token: bob.token}
	base := "/api/v1/repos/" + owner + "/" + name
	for _, path := range []string{"/statuses/" + sha, "/commits/main/status", "/branch_protections", "/branch_protections/main", "/compare/main...main"} {
		n.JSON("GET", base+path, stranger, nil, http.StatusNotFound, nil)
		n.JSON("GET", base+path, nil, nil, http.StatusNotFound, nil)
	}
	n.JSON("POST", base+"/statuses/"+sha, stranger, map[string]string{"state": "failure"}, http.StatusNotFound, nil)
	n.JSON("DELETE", base+"/branch_protections/main", stranger, nil, http.StatusNotFound, nil)
}

// A rule's push whitelist: git refuses anyone else's push, with the reason,
// before anything moves.
func TestPushWhitelist(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "listed"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	_, err = c.AddCollaborator(owner, name, bob.login, gitea.AddCollaboratorOption{})
	check(t, "AddCollaborator", err)
	_, _, err = c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "release", OldBranchName: "main"})
	check(t, "CreateBranch", err)
	_, _, err = c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "release", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistUsernames: []string{owner}})
	check(t, "CreateBranchProtection", err)
	rule, _, err := c.GetBranchProtection(owner, name, "release")
	if err != nil || len(rule.PushWhitelistUsernames) != 1 || rule.PushWhitelistUsernames[0] != owner {
		t.Fatalf("GetBranchProtection: %v %+v", err, rule)
	}
	before, _, err := c.GetRepoBranch(owner, name, "release")
	check(t, "GetRepoBranch", err)

	wt := n.Clone(n.Remote(&forgetest.User{Token: bob.token}, owner, name))
	n.Git(wt, "checkout", "-q", "release")
	n.Commit(wt, "Bob's release", map[string]string{"bob.txt": "bob\n"})
	out, err := n.TryGit(wt, "push", "origin", "release")
	if err == nil || !strings.Contains(out, "not on its push whitelist") {
		t.Fatalf("a push from someone off the whitelist: %v\n%s", err, out)
	}
	if got, _, err := c.GetRepoBranch(owner, name, "release"); err != nil || got.Commit.ID != before.Commit.ID {
		t.Fatalf("release after a refused push: %v %+v", err, got)
	}
	// Bob's other branches are his to push.
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/bob")

	created := branchPush(t, n, &forgetest.User{Token: alice.token}, owner, name, "release").PushedAt
	wa := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	n.Git(wa, "checkout", "-q", "release")
	n.Commit(wa, "Alice's release", map[string]string{"alice.txt": "alice\n"})
	n.Git(wa, "push", "-q", "origin", "release")

	// A branch names its last pusher, not its commit's author: Bob pushes
	// Alice's commit to a branch of his own.
	n.Git(wt, "fetch", "-q", "origin", "release")
	n.Git(wt, "push", "-q", "origin", "FETCH_HEAD:refs/heads/carried")
	assertPusher(t, n, &forgetest.User{Token: alice.token}, owner, name, "release", alice.login, created)
	assertPusher(t, n, &forgetest.User{Token: alice.token}, owner, name, "carried", bob.login, time.Time{})
}

// branchState is what the branch API says of a branch's last push.
type branchState struct {
	Commit struct {
		Author    struct{ Username string } `json:"author"`
		Timestamp time.Time                 `json:"timestamp"`
	} `json:"commit"`
	PushedAt time.Time `json:"pushed_at"`
	Pusher   *struct {
		Login string `json:"login"`
	} `json:"pusher"`
}

func branchPush(t *testing.T, n *forgetest.Node, u *forgetest.User, owner, repo, branch string) branchState {
	t.Helper()
	var b branchState
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+repo+"/branches/"+branch, u, nil, http.StatusOK, &b)
	return b
}

// assertPusher waits (bounded) until the branch API names pusher as the
// branch's last pusher, in a push recorded after the one at after (the
// zero time for a new branch): whoever made a branch may push to it next,
// and only the time tells the two records apart. A push's time is its
// block's, which CometBFT takes from the votes on the block before, so on
// a quiet chain it may come before the pushed commit's own time; block
// times only ever grow.
func assertPusher(t *testing.T, n *forgetest.Node, u *forgetest.User, owner, repo, branch, pusher string, after time.Time) {
	t.Helper()
	var b branchState
	for range 100 {
		b = branchPush(t, n, u, owner, repo, branch)
		if b.Pusher != nil && b.Pusher.Login == pusher && b.PushedAt.After(after) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if b.Pusher == nil || b.Pusher.Login != pusher || !b.PushedAt.After(after) {
		t.Fatalf("branch %s: want pusher %s in a push after %v, got %+v", branch, pusher, after, b)
	}
	var list []struct {
		Name   string `json:"name"`
		Pusher *struct {
			Login string `json:"login"`
		} `json:"pusher"`
	}
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+repo+"/branches", u, nil, http.StatusOK, &list)
	for _, l := range list {
		if l.Name == branch && (l.Pusher == nil || l.Pusher.Login != pusher) {
			t.Fatalf("branch list: %s's pusher %+v, want %s", branch, l.Pusher, pusher)
		}
	}
}

// Renaming a branch (Gitea 1.22's PATCH) moves it in one recorded push; the
// default branch keeps its name, and a taken name is refused.
func TestRenameBranch(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "renamed"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	b, _, err := c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "old", OldBranchName: "main"})
	check(t, "CreateBranch", err)
	_, _, err = c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "taken", OldBranchName: "main"})
	check(t, "CreateBranch", err)
	u, base := &forgetest.User{Token: alice.token}, "/api/v1/repos/"+owner+"/"+name+"/branches/"
	n.JSON("PATCH", base+"main", u, map[string]string{"name": "trunk"}, http.StatusForbidden, nil)
	n.JSON("PATCH", base+"old", u, map[string]string{"name": "taken"}, http.StatusConflict, nil)
	n.JSON("PATCH", base+"old", u, map[string]string{"name": "bad..name"}, http.StatusUnprocessableEntity, nil)
	n.JSON("PATCH", base+"nope", u, map[string]string{"name": "x"}, http.StatusNotFound, nil)
	n.JSON("PATCH", base+"old", u, map[string]string{"name": "new/name"}, http.StatusNoContent, nil)
	got, _, err := c.GetRepoBranch(owner, name, "new/name")
	if err != nil || got.Commit.ID != b.Commit.ID {
		t.Fatalf("renamed branch: %v %+v", err, got)
	}
	if _, res, err := c.GetRepoBranch(owner, name, "old"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("the old name after a rename: %v", err)
	}
	wt := n.Clone(n.Remote(u, owner, name))
	if out := n.Git(wt, "ls-remote", "origin", "refs/heads/old", "refs/heads/new/name"); !strings.Contains(out, "refs/heads/new/name") || strings.Contains(out, "refs/heads/old") {
		t.Fatalf("git after a rename: %q", out)
	}
}
