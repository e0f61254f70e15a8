package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/tx"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestOrgsWithGiteaSDK drives organizations and teams through Gitea's Go
// SDK, on SQLite and on PostgreSQL: an owner creates an organization, a
// team, gives it a member and a repository; the member pushes over HTTP
// git through the team; a repository moves into the organization.
func TestOrgsWithGiteaSDK(t *testing.T) {
	t.Parallel()
	for store, opts := range forgetest.Stores() {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			testOrgsWithSDK(t, forgetest.Start(t, opts...))
		})
	}
}

func testOrgsWithSDK(t *testing.T, n *forgetest.Node) {
	alice, bob, carol := signUpForSDK(t, n), signUpForSDK(t, n), signUpForSDK(t, n)
	c := alice.client

	// 1. The organization; its name is taken for users and organizations.
	org, res, err := c.CreateOrg(gitea.CreateOrgOption{Name: "acme", FullName: "Acme Inc.", Description: "We make things", Website: "https://acme.example"})
	check(t, "CreateOrg", err)
	if res.StatusCode != http.StatusCreated || org.Name != "acme" || org.FullName != "Acme Inc." || org.Visibility != "public" || org.ID == 0 {
		t.Fatalf("CreateOrg: %d %+v", res.StatusCode, org)
	}
	_, res, err = bob.client.CreateOrg(gitea.CreateOrgOption{Name: "ACME"})
	if err == nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("CreateOrg of a taken name: %v %v", res, err)
	}
	// A website is an http(s) address: no javascript: link on the org's page.
	for _, bad := range []string{"javascript:alert(document.cookie)", "data:text/html,<b>hi</b>"} {
		_, res, err = bob.client.CreateOrg(gitea.CreateOrgOption{Name: "linked", Website: bad})
		if err == nil || res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("CreateOrg with website %q: %v %v", bad, res, err)
		}
		_, err = c.EditOrg("acme", gitea.EditOrgOption{Website: bad})
		if err == nil {
			t.Fatalf("EditOrg with website %q was accepted", bad)
		}
	}
	_, res, err = bob.client.CreateOrg(gitea.CreateOrgOption{Name: "hidden", Visibility: gitea.VisibleTypePrivate})
	if err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("CreateOrg private: %v %v", res, err)
	}
	// A user's claimed name is no organization's, and the other way round.
	dana, _ := crypto.GenerateKey()
	claimUsername(t, n, dana, "dana")
	_, res, err = bob.client.CreateOrg(gitea.CreateOrgOption{Name: "Dana"})
	if err == nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("CreateOrg named as a user: %v %v", res, err)
	}
	erin, _ := crypto.GenerateKey()
	env, err := tx.Sign(erin, tx.KindClaimUsername, map[string]any{"from": crypto.PubkeyToAddress(erin.PublicKey).Hex(), "username": "acme", "nonce": "0"}, 7771)
	check(t, "sign", err)
	if res := n.Call("POST", "/api/v1/chain/txs", nil, env); res.Status == http.StatusOK {
		t.Fatalf("a user claimed an organization's name: %s", res.Body)
	}
	bad := n.Call("POST", "/api/v1/orgs", &forgetest.User{Token: bob.token}, map[string]string{"username": "ok", "full_name": "a\x00b"})
	if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(string(bad.Body), "full_name") {
		t.Fatalf("control character: %d %s", bad.Status, bad.Body)
	}
	got, _, err := bob.client.GetOrg("acme")
	check(t, "GetOrg", err)
	if got.ID != org.ID || got.Website != "https://acme.example" {
		t.Fatalf("GetOrg: %+v", got)
	}
	if _, res, err := c.GetOrg("nobody-here"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetOrg of no organization: %v", err)
	}
	_, err = bob.client.EditOrg("acme", gitea.EditOrgOption{Description: "mine now"})
	if err == nil || !strings.Contains(err.Error(), "owners") {
		t.Fatalf("EditOrg by a stranger: %v", err)
	}
	_, err = c.EditOrg("acme", gitea.EditOrgOption{FullName: "Acme", Description: "Things", Location: "Earth"})
	check(t, "EditOrg", err)
	mine, _, err := c.ListMyOrgs(gitea.ListOrgsOptions{})
	check(t, "ListMyOrgs", err)
	if len(mine) != 1 || mine[0].FullName != "Acme" || mine[0].Location != "Earth" {
		t.Fatalf("ListMyOrgs: %+v", mine)
	}
	if theirs, _, err := c.ListUserOrgs(bob.login, gitea.ListOrgsOptions{}); err != nil || len(theirs) != 0 {
		t.Fatalf("ListUserOrgs of a non-member: %v %+v", err, theirs)
	}

	// 2. A repository of the organization, made by its owner.
	repo, _, err := c.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "app", AutoInit: true, Readme: "Default"})
	check(t, "CreateOrgRepo", err)
	if repo.Owner == nil || repo.Owner.UserName != "acme" || repo.FullName != "acme/app" || !repo.Permissions.Admin {
		t.Fatalf("CreateOrgRepo: %+v", repo)
	}
	if _, _, err := bob.client.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "x"}); err == nil {
		t.Fatal("a stranger created a repository of the organization")
	}
	if _, res, err := c.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "p", Private: true}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("private repository of an organization: %v", err)
	}
	repos, _, err := bob.client.ListOrgRepos("acme", gitea.ListOrgReposOptions{})
	check(t, "ListOrgRepos", err)
	if len(repos) != 1 || repos[0].ID != repo.ID {
		t.Fatalf("ListOrgRepos: %+v", repos)
	}

	// 3. Bob cannot push until a team gives him write on the repository.
	remote := n.Remote(&forgetest.User{Token: bob.token}, "acme", "app")
	wt := n.Clone(remote)
	n.Commit(wt, "Bob's change", map[string]string{"bob.txt": "hi\n"})
	if out, err := n.TryGit(wt, "push", "-q", "origin", "HEAD:refs/heads/bob"); err == nil {
		t.Fatalf("bob pushed without a team: %s", out)
	}
	team, res, err := c.CreateTeam("acme", gitea.CreateTeamOption{Name: "devs", Description: "Developers", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitPulls}})
	check(t, "CreateTeam", err)
	if res.StatusCode != http.StatusCreated || team.Name != "devs" || team.Permission != gitea.AccessModeWrite || team.Organization == nil ||
		team.Organization.Name != "acme" || len(team.Units) != 2 {
		t.Fatalf("CreateTeam: %+v", team)
	}
	if _, res, err := c.CreateTeam("acme", gitea.CreateTeamOption{Name: "Owners", Permission: gitea.AccessModeRead}); err == nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("a second Owners team: %v", err)
	}
	if _, res, err := bob.client.CreateTeam("acme", gitea.CreateTeamOption{Name: "mine", Permission: gitea.AccessModeAdmin}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("CreateTeam by a stranger: %v", err)
	}
	_, err = c.AddTeamMember(team.ID, bob.login)
	check(t, "AddTeamMember", err)
	_, err = c.AddTeamRepository(team.ID, "acme", "app")
	check(t, "AddTeamRepository", err)
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/bob")
	branches, _, err := c.ListRepoBranches("acme", "app", gitea.ListRepoBranchesOptions{})
	check(t, "ListRepoBranches", err)
	if len(branches) != 2 {
		t.Fatalf("branches after bob's push: %+v", branches)
	}
	// Carol, outside the team, still may not.
	carolWT := n.Clone(n.Remote(&forgetest.User{Token: carol.token}, "acme", "app"))
	n.Commit(carolWT, "Carol's change", map[string]string{"carol.txt": "hi\n"})
	if out, err := n.TryGit(carolWT, "push", "-q", "origin", "HEAD:refs/heads/carol"); err == nil {
		t.Fatalf("carol pushed without a team: %s", out)
	}

	// 4. The reads: teams, members, repositories, the user's teams.
	teams, _, err := c.ListOrgTeams("acme", gitea.ListTeamsOptions{})
	check(t, "ListOrgTeams", err)
	if len(teams) != 2 || teams[0].Name != "devs" || teams[1].Name != "Owners" || teams[1].Permission != gitea.AccessModeOwner {
		t.Fatalf("ListOrgTeams: %+v %+v", teams[0], teams[len(teams)-1])
	}
	found, _, err := c.SearchOrgTeams("acme", &gitea.SearchTeamsOptions{Query: "dev"})
	check(t, "SearchOrgTeams", err)
	if len(found) != 1 || found[0].ID != team.ID {
		t.Fatalf("SearchOrgTeams: %+v", found)
	}
	bobs, _, err := bob.client.ListMyTeams(&gitea.ListTeamsOptions{})
	check(t, "ListMyTeams", err)
	if len(bobs) != 1 || bobs[0].ID != team.ID {
		t.Fatalf("ListMyTeams: %+v", bobs)
	}
	members, _, err := c.ListOrgMembership("acme", gitea.ListOrgMembershipOption{})
	check(t, "ListOrgMembership", err)
	if len(members) != 2 {
		t.Fatalf("ListOrgMembership: %+v", members)
	}
	if ok, _, err := c.CheckOrgMembership("acme", bob.login); err != nil || !ok {
		t.Fatalf("CheckOrgMembership of bob: %v %v", ok, err)
	}
	if ok, _, err := c.CheckOrgMembership("acme", carol.login); err != nil || ok {
		t.Fatalf("CheckOrgMembership of carol: %v %v", ok, err)
	}
	teamRepos, _, err := c.ListTeamRepositories(team.ID, gitea.ListTeamRepositoriesOptions{})
	check(t, "ListTeamRepositories", err)
	if len(teamRepos) != 1 || teamRepos[0].ID != repo.ID {
		t.Fatalf("ListTeamRepositories: %+v", teamRepos)
	}
	repoTeams, _, err := c.GetRepoTeams("acme", "app")
	check(t, "GetRepoTeams", err)
	if len(repoTeams) != 2 {
		t.Fatalf("GetRepoTeams: %+v", repoTeams)
	}
	var perm struct {
		Permission string `json:"permission"`
	}
	n.JSON("GET", "/api/v1/repos/acme/app/collaborators/"+bob.login+"/permission", nil, nil, http.StatusOK, &perm)
	if perm.Permission != "write" {
		t.Fatalf("bob's permission: %+v", perm)
	}

	// 5. A repository moves into the organization: offered by a stranger
	// to it and accepted by an owner (Gitea's pending transfer), or moved
	// at once by one of its owners.
	_, _, err = bob.client.CreateRepo(gitea.CreateRepoOption{Name: "tool"})
	check(t, "CreateRepo", err)
	_, _, err = bob.client.CreateRepo(gitea.CreateRepoOption{Name: "kit"})
	check(t, "CreateRepo", err)
	if _, res, err := bob.client.TransferRepo(bob.login, "tool", gitea.TransferRepoOption{NewOwner: "acme"}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("transfer with a token, not the wallet: %v", err)
	}
	if res := n.WalletCall("POST", "/api/v1/repos/"+bob.login+"/tool/transfer", bob.wallet(), map[string]string{"new_owner": "acme"}); res.Status != http.StatusCreated {
		t.Fatalf("transfer into an organization one may not create repositories in, by the wallet: %d %s, want 201 (an offer)", res.Status, res.Body)
	}
	offered, _, err := c.GetRepo(bob.login, "tool")
	check(t, "GetRepo", err)
	if offered.RepoTransfer == nil || offered.RepoTransfer.Recipient == nil || offered.RepoTransfer.Recipient.UserName != "acme" {
		t.Fatalf("the offered repository's repo_transfer: %+v", offered.RepoTransfer)
	}
	if _, res, err := carol.client.AcceptRepoTransfer(bob.login, "tool"); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("an outsider accepts for the organization: %v", err)
	}
	accepted, res, err := c.AcceptRepoTransfer(bob.login, "tool")
	check(t, "AcceptRepoTransfer", err)
	if res.StatusCode != http.StatusAccepted || accepted.FullName != "acme/tool" || accepted.RepoTransfer != nil {
		t.Fatalf("AcceptRepoTransfer: %d %+v", res.StatusCode, accepted)
	}
	// Who owns an organization, and moving a repository, are the wallets'
	// to sign: a token gets 403 wallet_signature_required.
	if res, err := c.AddTeamMember(teams[1].ID, bob.login); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("AddTeamMember to Owners with a token: %v", err)
	}
	if res := n.WalletCall("PUT", fmt.Sprintf("/api/v1/teams/%d/members/%s", teams[1].ID, bob.login), alice.wallet(), nil); res.Status != http.StatusNoContent {
		t.Fatalf("AddTeamMember to Owners by the wallet: %d %s", res.Status, res.Body)
	}
	if res := n.WalletCall("POST", "/api/v1/repos/"+bob.login+"/kit/transfer", bob.wallet(), map[string]string{"new_owner": "acme"}); res.Status != http.StatusAccepted {
		t.Fatalf("TransferRepo by an owner's wallet: %d %s, want 202 (at once)", res.Status, res.Body)
	}
	moved, _, err := bob.client.GetRepo("acme", "kit")
	check(t, "GetRepo", err)
	if moved.FullName != "acme/kit" || moved.Owner.UserName != "acme" {
		t.Fatalf("TransferRepo: %+v", moved)
	}

	// A fork into the organization, by one of its owners; the repository
	// is seeded first, as forks need git data.
	_, _, err = carol.client.CreateRepo(gitea.CreateRepoOption{Name: "widget", AutoInit: true})
	check(t, "CreateRepo", err)
	acme := "acme"
	fork, _, err := c.CreateFork(carol.login, "widget", gitea.CreateForkOption{Organization: &acme})
	check(t, "CreateFork into the organization", err)
	if fork.FullName != "acme/widget" || fork.Parent == nil || fork.Parent.FullName != carol.login+"/widget" {
		t.Fatalf("CreateFork: %+v", fork)
	}
	nobody := "no-such-org"
	if _, res, err := c.CreateFork(carol.login, "widget", gitea.CreateForkOption{Organization: &nobody}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("fork into no organization: %v", err)
	}
	if _, res, err := carol.client.CreateFork(alice.login, "widget", gitea.CreateForkOption{Organization: &acme}); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("fork of a missing repository: %v", err)
	}

	// 6. Removing: the team's repository and member, then the organization.
	_, err = c.RemoveTeamRepository(team.ID, "acme", "app")
	check(t, "RemoveTeamRepository", err)
	// bob is an owner: taking him out changes the owners, which only
	// alice's own wallet may sign.
	if res, err := c.DeleteOrgMembership("acme", bob.login); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("DeleteOrgMembership of an owner under a delegation: %v %v", res, err)
	}
	if res := n.WalletCall("DELETE", "/api/v1/orgs/acme/members/"+bob.login, alice.wallet(), nil); res.Status != http.StatusNoContent {
		t.Fatalf("DeleteOrgMembership signed by alice's wallet: %d %s", res.Status, res.Body)
	}
	if ok, _, err := c.CheckOrgMembership("acme", bob.login); err != nil || ok {
		t.Fatalf("bob still a member: %v %v", ok, err)
	}
	if _, err := c.DeleteOrg("acme"); err == nil {
		t.Fatal("deleted an organization that owns repositories")
	}
	if res, err := c.DeleteRepo("acme", "app"); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("DeleteRepo with a token: %v", err)
	}
	for _, name := range []string{"app", "tool", "kit", "widget"} {
		if res := n.WalletCall("DELETE", "/api/v1/repos/acme/"+name, alice.wallet(), nil); res.Status != http.StatusNoContent {
			t.Fatalf("delete acme/%s by alice's wallet: %d %s", name, res.Status, res.Body)
		}
	}
	_, err = c.DeleteTeam(team.ID)
	check(t, "DeleteTeam", err)
	if res := n.WalletCall("DELETE", "/api/v1/orgs/acme", alice.wallet(), nil); res.Status != http.StatusNoContent {
		t.Fatalf("delete acme by alice's wallet: %d %s", res.Status, res.Body)
	}
	if _, res, err := c.GetOrg("acme"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetOrg after delete: %v", err)
	}
}

// TestOrgScopesAndNames: organization routes need a token's organization
// scope (Gitea's category), and an organization's name reads as an owner
// everywhere a user's does.
func TestOrgScopesAndNames(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	owner, reader := n.NewUser("write:organization", "write:repository"), n.NewUser("read:organization")
	n.JSON("POST", "/api/v1/orgs", reader, map[string]string{"username": "nope"}, http.StatusForbidden, nil)
	n.JSON("POST", "/api/v1/orgs", owner, map[string]string{"username": "guild"}, http.StatusCreated, nil)
	var mine []map[string]any
	n.JSON("GET", "/api/v1/user/orgs", reader, nil, http.StatusOK, &mine)
	if len(mine) != 0 {
		t.Fatalf("reader's organizations: %v", mine)
	}
	n.JSON("POST", "/api/v1/orgs/guild/repos", owner, map[string]any{"name": "lib"}, http.StatusCreated, nil)
	var user struct {
		Login string `json:"login"`
	}
	n.JSON("GET", "/api/v1/users/guild", nil, nil, http.StatusOK, &user)
	if user.Login != "guild" {
		t.Fatalf("/users/guild: %+v", user)
	}
	var repos []struct {
		FullName string `json:"full_name"`
	}
	n.JSON("GET", "/api/v1/users/guild/repos", nil, nil, http.StatusOK, &repos)
	if len(repos) != 1 || repos[0].FullName != "guild/lib" {
		t.Fatalf("/users/guild/repos: %+v", repos)
	}
	// Bad input is named, nothing is half-made.
	for _, bad := range []string{"admin", "a b", "-x", "user-0123456789ab"} {
		res := n.Call("POST", "/api/v1/orgs", owner, map[string]string{"username": bad})
		if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), `"field":"username"`) {
			t.Fatalf("org name %q: %d %s", bad, res.Status, res.Body)
		}
	}
	res := n.Call("POST", "/api/v1/orgs/guild/teams", owner, map[string]any{"name": "t", "permission": "owner"})
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "permission") {
		t.Fatalf("owner permission: %d %s", res.Status, res.Body)
	}
	res = n.Call("POST", "/api/v1/orgs/guild/teams", owner, map[string]any{"name": "t", "permission": "read", "units": []string{"repo.nope"}})
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "units") {
		t.Fatalf("bad unit: %d %s", res.Status, res.Body)
	}
	var teams []map[string]any
	n.JSON("GET", "/api/v1/orgs/guild/teams", nil, nil, http.StatusOK, &teams)
	if len(teams) != 1 {
		t.Fatalf("teams after refusals: %v", teams)
	}
	n.JSON("GET", "/api/v1/teams/999", nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/teams/x", nil, nil, http.StatusNotFound, nil)
	n.JSON("PUT", "/api/v1/teams/1/members/nobody-at-all", owner, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/repos/"+owner.Name()+"/none/teams", nil, nil, http.StatusNotFound, nil)
}
