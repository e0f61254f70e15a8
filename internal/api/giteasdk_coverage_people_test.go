package api_test

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"code.gitea.io/sdk/gitea"
)

// The SDK program's other areas: organizations and teams, releases,
// milestones, webhooks, commit statuses, users and tokens.

const sdkOrg = "sdk-org"

func sdkOrgs(r *sdkRun, w *sdkWorld) {
	c, bc, owner := w.alice.client, w.bob.client, w.alice.login
	r.call("CreateOrg", func() error {
		o, _, err := c.CreateOrg(gitea.CreateOrgOption{Name: sdkOrg, FullName: "SDK Org", Description: "Made by the SDK", Visibility: gitea.VisibleTypePublic})
		return errors.Join(err, want(o != nil && o.Name == sdkOrg && o.FullName == "SDK Org", "%+v", o))
	})
	r.call("GetOrg", func() error {
		o, _, err := bc.GetOrg(sdkOrg)
		return errors.Join(err, want(o != nil && o.Description == "Made by the SDK", "%+v", o))
	})
	r.call("EditOrg", func() error {
		if _, err := c.EditOrg(sdkOrg, gitea.EditOrgOption{FullName: "SDK Organization", Website: "https://example.org", Location: "Earth"}); err != nil {
			return err
		}
		o, _, err := bc.GetOrg(sdkOrg)
		return errors.Join(err, want(o != nil && o.FullName == "SDK Organization" && o.Location == "Earth", "%+v", o))
	})
	r.call("EditOrg as a stranger", func() error {
		res, err := w.carol.client.EditOrg(sdkOrg, gitea.EditOrgOption{FullName: "Mine"})
		return status(res, err, http.StatusForbidden)
	})
	r.call("ListMyOrgs", func() error {
		os, _, err := c.ListMyOrgs(gitea.ListOrgsOptions{})
		return errors.Join(err, want(len(os) == 1 && os[0].Name == sdkOrg, "%+v", os))
	})
	r.call("ListUserOrgs", func() error {
		os, _, err := bc.ListUserOrgs(owner, gitea.ListOrgsOptions{})
		return errors.Join(err, want(len(os) == 1 && os[0].Name == sdkOrg, "%+v", os))
	})
	r.call("GetOrgPermissions", func() error {
		p, _, err := c.GetOrgPermissions(sdkOrg, owner)
		return errors.Join(err, want(p != nil && p.IsOwner && p.CanCreateRepository, "%+v", p))
	})
	r.call("CreateOrgRepo", func() error {
		repo, _, err := c.CreateOrgRepo(sdkOrg, gitea.CreateRepoOption{Name: "shared", AutoInit: true})
		return errors.Join(err, want(repo != nil && repo.FullName == sdkOrg+"/shared" && repo.Owner.UserName == sdkOrg, "%+v", repo))
	})
	r.call("ListOrgRepos", func() error {
		repos, _, err := bc.ListOrgRepos(sdkOrg, gitea.ListOrgReposOptions{})
		return errors.Join(err, want(len(repos) == 1 && repos[0].Name == "shared", "%d repositories", len(repos)))
	})
	r.call("CheckOrgMembership", func() error {
		ok, _, err := c.CheckOrgMembership(sdkOrg, owner)
		return errors.Join(err, want(ok, "not a member"))
	})
	r.call("ListOrgMembership", func() error {
		users, _, err := c.ListOrgMembership(sdkOrg, gitea.ListOrgMembershipOption{})
		return errors.Join(err, want(len(users) == 1 && users[0].UserName == owner, "%v", users))
	})
	r.call("SetPublicOrgMembership", func() error { _, err := c.SetPublicOrgMembership(sdkOrg, owner, true); return err })
	r.call("CheckPublicOrgMembership", func() error {
		ok, _, err := bc.CheckPublicOrgMembership(sdkOrg, owner)
		return errors.Join(err, want(ok, "not public"))
	})
	r.call("ListPublicOrgMembership", func() error {
		users, _, err := bc.ListPublicOrgMembership(sdkOrg, gitea.ListOrgMembershipOption{})
		return errors.Join(err, want(len(users) == 1 && users[0].UserName == owner, "%v", users))
	})

	// Teams.
	var team *gitea.Team
	r.call("CreateTeam", func() (err error) {
		team, _, err = c.CreateTeam(sdkOrg, gitea.CreateTeamOption{Name: "devs", Description: "Developers", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues, gitea.RepoUnitPulls}})
		return errors.Join(err, want(team != nil && team.ID != 0 && team.Name == "devs" && team.Permission == gitea.AccessModeWrite, "%+v", team))
	})
	r.call("ListOrgTeams", func() error {
		ts, _, err := c.ListOrgTeams(sdkOrg, gitea.ListTeamsOptions{})
		return errors.Join(err, want(len(ts) == 2, "want Owners and devs: %+v", ts))
	})
	r.call("GetTeam", func() error {
		got, _, err := c.GetTeam(team.ID)
		return errors.Join(err, want(got != nil && got.Description == "Developers", "%+v", got))
	})
	r.call("EditTeam", func() error {
		if _, err := c.EditTeam(team.ID, gitea.EditTeamOption{Name: "developers", Description: ptr("They build"), Permission: gitea.AccessModeWrite}); err != nil {
			return err
		}
		got, _, err := c.GetTeam(team.ID)
		return errors.Join(err, want(got != nil && got.Name == "developers" && got.Description == "They build", "%+v", got))
	})
	r.call("SearchOrgTeams", func() error {
		ts, _, err := c.SearchOrgTeams(sdkOrg, &gitea.SearchTeamsOptions{Query: "develop"})
		return errors.Join(err, want(len(ts) == 1 && ts[0].ID == team.ID, "%+v", ts))
	})
	r.call("AddTeamMember", func() error { _, err := c.AddTeamMember(team.ID, w.bob.login); return err })
	r.call("GetTeamMember", func() error {
		u, _, err := c.GetTeamMember(team.ID, w.bob.login)
		return errors.Join(err, want(u != nil && u.UserName == w.bob.login, "%+v", u))
	})
	r.call("ListTeamMembers", func() error {
		users, _, err := c.ListTeamMembers(team.ID, gitea.ListTeamMembersOptions{})
		return errors.Join(err, want(len(users) == 1 && users[0].UserName == w.bob.login, "%v", users))
	})
	r.call("ListMyTeams", func() error {
		ts, _, err := bc.ListMyTeams(&gitea.ListTeamsOptions{})
		return errors.Join(err, want(len(ts) == 1 && ts[0].ID == team.ID, "%+v", ts))
	})
	r.call("AddTeamRepository", func() error { _, err := c.AddTeamRepository(team.ID, sdkOrg, "shared"); return err })
	r.call("ListTeamRepositories", func() error {
		repos, _, err := c.ListTeamRepositories(team.ID, gitea.ListTeamRepositoriesOptions{})
		return errors.Join(err, want(len(repos) == 1 && repos[0].Name == "shared", "%d repositories", len(repos)))
	})
	r.call("GetRepoTeams", func() error {
		ts, _, err := c.GetRepoTeams(sdkOrg, "shared")
		return errors.Join(err, want(len(ts) >= 1, "%+v", ts))
	})
	r.call("CheckRepoTeam", func() error {
		got, _, err := c.CheckRepoTeam(sdkOrg, "shared", "developers")
		return errors.Join(err, want(got != nil && got.ID == team.ID, "%+v", got))
	})
	r.call("RemoveTeamRepository", func() error {
		if _, err := c.RemoveTeamRepository(team.ID, sdkOrg, "shared"); err != nil {
			return err
		}
		repos, _, err := c.ListTeamRepositories(team.ID, gitea.ListTeamRepositoriesOptions{})
		return errors.Join(err, want(len(repos) == 0, "%d repositories", len(repos)))
	})
	r.call("AddRepoTeam", func() error { _, err := c.AddRepoTeam(sdkOrg, "shared", "developers"); return err })
	r.call("RemoveRepoTeam", func() error { _, err := c.RemoveRepoTeam(sdkOrg, "shared", "developers"); return err })
	r.call("RemoveTeamMember", func() error {
		if _, err := c.RemoveTeamMember(team.ID, w.bob.login); err != nil {
			return err
		}
		_, res, err := c.GetTeamMember(team.ID, w.bob.login)
		return status(res, err, http.StatusNotFound)
	})
	r.call("DeleteOrgMembership", func() error {
		if _, err := c.AddTeamMember(team.ID, w.bob.login); err != nil {
			return err
		}
		if _, err := c.DeleteOrgMembership(sdkOrg, w.bob.login); err != nil {
			return err
		}
		ok, _, err := c.CheckOrgMembership(sdkOrg, w.bob.login)
		return errors.Join(err, want(!ok, "still a member"))
	})
	r.call("DeleteTeam", func() error {
		if _, err := c.DeleteTeam(team.ID); err != nil {
			return err
		}
		_, res, err := c.GetTeam(team.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("DeleteOrg", func() error {
		if _, _, err := c.CreateOrg(gitea.CreateOrgOption{Name: "sdk-scratch"}); err != nil {
			return err
		}
		if _, err := c.DeleteOrg("sdk-scratch"); err != nil {
			return err
		}
		_, res, err := c.GetOrg("sdk-scratch")
		return status(res, err, http.StatusNotFound)
	})
}

func sdkReleases(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	var rel *gitea.Release
	r.call("CreateRelease", func() (err error) {
		rel, _, err = c.CreateRelease(owner, name, gitea.CreateReleaseOption{TagName: "v1.0", Target: "main", Title: "One", Note: "The first."})
		return errors.Join(err, want(rel != nil && rel.ID != 0 && rel.TagName == "v1.0" && rel.Title == "One" && !rel.IsDraft, "%+v", rel))
	})
	r.call("GetRelease", func() error {
		got, _, err := bc.GetRelease(owner, name, rel.ID)
		return errors.Join(err, want(got != nil && got.Note == "The first." && got.Publisher != nil && got.Publisher.UserName == owner, "%+v", got))
	})
	r.call("GetReleaseByTag", func() error {
		got, _, err := bc.GetReleaseByTag(owner, name, "v1.0")
		return errors.Join(err, want(got != nil && got.ID == rel.ID, "%+v", got))
	})
	r.call("GetLatestRelease", func() error {
		got, _, err := bc.GetLatestRelease(owner, name)
		return errors.Join(err, want(got != nil && got.ID == rel.ID, "%+v", got))
	})
	r.call("ListReleases", func() error {
		rs, _, err := bc.ListReleases(owner, name, gitea.ListReleasesOptions{})
		return errors.Join(err, want(len(rs) == 1 && rs[0].ID == rel.ID, "%+v", rs))
	})
	r.call("EditRelease", func() error {
		got, _, err := c.EditRelease(owner, name, rel.ID, gitea.EditReleaseOption{Title: "One point oh", IsPrerelease: ptr(true)})
		if err != nil || got == nil || got.Title != "One point oh" || !got.IsPrerelease {
			return errors.Join(err, want(false, "edit: %+v", got))
		}
		// The SDK sends every field: the empty title and notes of an edit
		// that changes a flag only leave them as they are, as in Gitea.
		again, _, err := c.EditRelease(owner, name, rel.ID, gitea.EditReleaseOption{IsPrerelease: ptr(false)})
		return errors.Join(err, want(again != nil && again.Title == "One point oh" && again.Note == got.Note && again.Note != "" && !again.IsPrerelease, "%+v", again))
	})
	var asset *gitea.Attachment
	r.call("CreateReleaseAttachment", func() (err error) {
		asset, _, err = c.CreateReleaseAttachment(owner, name, rel.ID, strings.NewReader("binary"), "app.bin")
		return errors.Join(err, want(asset != nil && asset.Name == "app.bin" && asset.Size == 6, "%+v", asset))
	})
	r.call("ListReleaseAttachments", func() error {
		as, _, err := bc.ListReleaseAttachments(owner, name, rel.ID, gitea.ListReleaseAttachmentsOptions{})
		return errors.Join(err, want(len(as) == 1 && as[0].ID == asset.ID, "%+v", as))
	})
	r.call("GetReleaseAttachment", func() error {
		got, _, err := bc.GetReleaseAttachment(owner, name, rel.ID, asset.ID)
		return errors.Join(err, want(got != nil && got.DownloadURL != "", "%+v", got))
	})
	r.call("EditReleaseAttachment", func() error {
		got, _, err := c.EditReleaseAttachment(owner, name, rel.ID, asset.ID, gitea.EditAttachmentOptions{Name: "app-linux.bin"})
		return errors.Join(err, want(got != nil && got.Name == "app-linux.bin", "%+v", got))
	})
	r.call("DeleteReleaseAttachment", func() error {
		if _, err := c.DeleteReleaseAttachment(owner, name, rel.ID, asset.ID); err != nil {
			return err
		}
		_, res, err := c.GetReleaseAttachment(owner, name, rel.ID, asset.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("CreateRelease as a stranger", func() error {
		_, res, err := w.carol.client.CreateRelease(owner, name, gitea.CreateReleaseOption{TagName: "v9", Target: "main", Title: "Nine"})
		return status(res, err, http.StatusForbidden)
	})
	r.call("DeleteRelease", func() error {
		if _, err := c.DeleteRelease(owner, name, rel.ID); err != nil {
			return err
		}
		_, res, err := c.GetRelease(owner, name, rel.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("DeleteReleaseByTag", func() error {
		if _, _, err := c.CreateRelease(owner, name, gitea.CreateReleaseOption{TagName: "v2.0", Target: "main", Title: "Two"}); err != nil {
			return err
		}
		if _, err := c.DeleteReleaseByTag(owner, name, "v2.0"); err != nil {
			return err
		}
		_, res, err := c.GetReleaseByTag(owner, name, "v2.0")
		return status(res, err, http.StatusNotFound)
	})
}

func sdkMilestones(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	due := time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)
	var ms *gitea.Milestone
	r.call("CreateMilestone", func() (err error) {
		ms, _, err = c.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "1.0", Description: "The first", Deadline: &due})
		return errors.Join(err, want(ms != nil && ms.ID != 0 && ms.State == gitea.StateOpen && ms.Deadline != nil && ms.Deadline.Equal(due), "%+v", ms))
	})
	r.call("GetMilestone", func() error {
		got, _, err := bc.GetMilestone(owner, name, ms.ID)
		return errors.Join(err, want(got != nil && got.Title == "1.0" && got.Description == "The first", "%+v", got))
	})
	r.call("GetMilestoneByName", func() error {
		got, _, err := bc.GetMilestoneByName(owner, name, "1.0")
		return errors.Join(err, want(got != nil && got.ID == ms.ID, "%+v", got))
	})
	r.call("ListRepoMilestones", func() error {
		got, _, err := bc.ListRepoMilestones(owner, name, gitea.ListMilestoneOption{})
		return errors.Join(err, want(len(got) == 1 && got[0].ID == ms.ID, "%+v", got))
	})
	r.call("EditIssue milestone", func() error {
		issue, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "For 1.0"})
		if err != nil {
			return err
		}
		got, _, err := c.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{Milestone: &ms.ID})
		return errors.Join(err, want(got != nil && got.Milestone != nil && got.Milestone.ID == ms.ID, "%+v", got))
	})
	r.call("ListRepoIssues by milestone", func() error {
		got, _, err := bc.ListRepoIssues(owner, name, gitea.ListIssueOption{Milestones: []string{"1.0"}})
		return errors.Join(err, want(len(got) == 1 && got[0].Title == "For 1.0", "%d issues", len(got)))
	})
	r.call("EditMilestone", func() error {
		got, _, err := c.EditMilestone(owner, name, ms.ID, gitea.EditMilestoneOption{Title: "1.0.0", Description: ptr("Renamed")})
		return errors.Join(err, want(got != nil && got.Title == "1.0.0" && got.Description == "Renamed" && got.OpenIssues == 1, "%+v", got))
	})
	r.call("EditMilestoneByName", func() error {
		got, _, err := c.EditMilestoneByName(owner, name, "1.0.0", gitea.EditMilestoneOption{State: ptr(gitea.StateClosed)})
		return errors.Join(err, want(got != nil && got.State == gitea.StateClosed, "%+v", got))
	})
	r.call("ListRepoMilestones closed", func() error {
		got, _, err := bc.ListRepoMilestones(owner, name, gitea.ListMilestoneOption{State: gitea.StateClosed})
		return errors.Join(err, want(len(got) == 1 && got[0].ID == ms.ID, "%+v", got))
	})
	r.call("DeleteMilestone", func() error {
		if _, err := c.DeleteMilestone(owner, name, ms.ID); err != nil {
			return err
		}
		_, res, err := c.GetMilestone(owner, name, ms.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("DeleteMilestoneByName", func() error {
		if _, _, err := c.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "2.0"}); err != nil {
			return err
		}
		if _, err := c.DeleteMilestoneByName(owner, name, "2.0"); err != nil {
			return err
		}
		_, res, err := c.GetMilestoneByName(owner, name, "2.0")
		return status(res, err, http.StatusNotFound)
	})
}

func sdkHooks(r *sdkRun, w *sdkWorld) {
	c, owner, name := w.alice.client, w.alice.login, w.repo
	opt := gitea.CreateHookOption{Type: gitea.HookTypeGitea, Config: map[string]string{"url": "https://example.org/hook", "content_type": "json"},
		Events: []string{"push", "issues"}, Active: true}
	var hook, orgHook, myHook *gitea.Hook
	r.call("CreateRepoHook", func() (err error) {
		hook, _, err = c.CreateRepoHook(owner, name, opt)
		return errors.Join(err, want(hook != nil && hook.ID != 0 && hook.Active && hook.Config["url"] == "https://example.org/hook", "%+v", hook))
	})
	r.call("CreateRepoHook as a stranger", func() error {
		_, res, err := w.carol.client.CreateRepoHook(owner, name, opt)
		return status(res, err, http.StatusForbidden)
	})
	r.call("GetRepoHook", func() error {
		got, _, err := c.GetRepoHook(owner, name, hook.ID)
		return errors.Join(err, want(got != nil && got.Type == "gitea" && len(got.Events) == 2, "%+v", got))
	})
	r.call("ListRepoHooks", func() error {
		hs, _, err := c.ListRepoHooks(owner, name, gitea.ListHooksOptions{})
		return errors.Join(err, want(len(hs) == 1 && hs[0].ID == hook.ID, "%+v", hs))
	})
	r.call("EditRepoHook", func() error {
		if _, err := c.EditRepoHook(owner, name, hook.ID, gitea.EditHookOption{Active: ptr(false), Events: []string{"push"}}); err != nil {
			return err
		}
		got, _, err := c.GetRepoHook(owner, name, hook.ID)
		return errors.Join(err, want(got != nil && !got.Active && len(got.Events) == 1, "%+v", got))
	})
	r.call("DeleteRepoHook", func() error {
		if _, err := c.DeleteRepoHook(owner, name, hook.ID); err != nil {
			return err
		}
		_, res, err := c.GetRepoHook(owner, name, hook.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("CreateOrgHook", func() (err error) {
		orgHook, _, err = c.CreateOrgHook(sdkOrg, opt)
		return errors.Join(err, want(orgHook != nil && orgHook.ID != 0, "%+v", orgHook))
	})
	r.call("GetOrgHook", func() error {
		got, _, err := c.GetOrgHook(sdkOrg, orgHook.ID)
		return errors.Join(err, want(got != nil && got.Config["url"] == "https://example.org/hook", "%+v", got))
	})
	r.call("ListOrgHooks", func() error {
		hs, _, err := c.ListOrgHooks(sdkOrg, gitea.ListHooksOptions{})
		return errors.Join(err, want(len(hs) == 1 && hs[0].ID == orgHook.ID, "%+v", hs))
	})
	r.call("EditOrgHook", func() error {
		if _, err := c.EditOrgHook(sdkOrg, orgHook.ID, gitea.EditHookOption{Active: ptr(false)}); err != nil {
			return err
		}
		got, _, err := c.GetOrgHook(sdkOrg, orgHook.ID)
		return errors.Join(err, want(got != nil && !got.Active, "%+v", got))
	})
	r.call("DeleteOrgHook", func() error {
		if _, err := c.DeleteOrgHook(sdkOrg, orgHook.ID); err != nil {
			return err
		}
		_, res, err := c.GetOrgHook(sdkOrg, orgHook.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("CreateMyHook", func() (err error) {
		myHook, _, err = c.CreateMyHook(opt)
		return errors.Join(err, want(myHook != nil && myHook.ID != 0, "%+v", myHook))
	})
	r.call("GetMyHook", func() error {
		got, _, err := c.GetMyHook(myHook.ID)
		return errors.Join(err, want(got != nil && got.ID == myHook.ID, "%+v", got))
	})
	r.call("ListMyHooks", func() error {
		hs, _, err := c.ListMyHooks(gitea.ListHooksOptions{})
		return errors.Join(err, want(len(hs) == 1 && hs[0].ID == myHook.ID, "%+v", hs))
	})
	r.call("EditMyHook", func() error {
		if _, err := c.EditMyHook(myHook.ID, gitea.EditHookOption{Events: []string{"create"}}); err != nil {
			return err
		}
		got, _, err := c.GetMyHook(myHook.ID)
		return errors.Join(err, want(got != nil && len(got.Events) == 1 && got.Events[0] == "create", "%+v", got))
	})
	r.call("DeleteMyHook", func() error {
		if _, err := c.DeleteMyHook(myHook.ID); err != nil {
			return err
		}
		_, res, err := c.GetMyHook(myHook.ID)
		return status(res, err, http.StatusNotFound)
	})
}

func sdkStatuses(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	var sha string
	r.call("GetRepoBranch for statuses", func() error {
		b, _, err := c.GetRepoBranch(owner, name, "main")
		if b != nil && b.Commit != nil {
			sha = b.Commit.ID
		}
		return errors.Join(err, want(sha != "", "%+v", b))
	})
	r.call("CreateStatus", func() error {
		s, _, err := c.CreateStatus(owner, name, sha, gitea.CreateStatusOption{State: gitea.StatusPending, Context: "ci/build", Description: "Building", TargetURL: "https://ci.example.org/1"})
		return errors.Join(err, want(s != nil && s.ID != 0 && s.State == gitea.StatusPending && s.Context == "ci/build" && s.Creator != nil && s.Creator.UserName == owner, "%+v", s))
	})
	r.call("CreateStatus second context", func() error {
		s, _, err := c.CreateStatus(owner, name, sha, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci/lint"})
		return errors.Join(err, want(s != nil && s.State == gitea.StatusSuccess, "%+v", s))
	})
	r.call("CreateStatus as a stranger", func() error {
		_, res, err := w.carol.client.CreateStatus(owner, name, sha, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "fake"})
		return status(res, err, http.StatusForbidden)
	})
	r.call("ListStatuses", func() error {
		ss, _, err := bc.ListStatuses(owner, name, sha, gitea.ListStatusesOption{})
		return errors.Join(err, want(len(ss) == 2, "%+v", ss))
	})
	r.call("GetCombinedStatus", func() error {
		cs, _, err := bc.GetCombinedStatus(owner, name, "main")
		return errors.Join(err, want(cs != nil && cs.State == gitea.StatusPending && cs.TotalCount == 2 && cs.SHA == sha, "%+v", cs))
	})
	r.call("GetCombinedStatus success", func() error {
		if _, _, err := c.CreateStatus(owner, name, sha, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "ci/build"}); err != nil {
			return err
		}
		cs, _, err := bc.GetCombinedStatus(owner, name, sha)
		return errors.Join(err, want(cs != nil && cs.State == gitea.StatusSuccess && cs.TotalCount == 2, "%+v", cs))
	})
}

func sdkUsers(r *sdkRun, w *sdkWorld) {
	c, bc, owner := w.alice.client, w.bob.client, w.alice.login
	var me *gitea.User
	r.call("GetMyUserInfo", func() (err error) {
		me, _, err = c.GetMyUserInfo()
		return errors.Join(err, want(me != nil && me.UserName == owner && me.ID != 0, "%+v", me))
	})
	r.call("GetUserInfo", func() error {
		u, _, err := bc.GetUserInfo(owner)
		return errors.Join(err, want(u != nil && u.ID == me.ID, "%+v", u))
	})
	r.call("GetUserByID", func() error {
		u, _, err := bc.GetUserByID(me.ID)
		return errors.Join(err, want(u != nil && u.UserName == owner, "%+v", u))
	})
	r.call("GetUserInfo unknown", func() error {
		_, res, err := bc.GetUserInfo("nobody-here")
		return status(res, err, http.StatusNotFound)
	})
	r.call("SearchUsers", func() error {
		us, _, err := bc.SearchUsers(gitea.SearchUsersOption{KeyWord: owner})
		return errors.Join(err, want(hasUser(us, owner), "%v", us))
	})
	r.call("UpdateUserSettings", func() error {
		s, _, err := c.UpdateUserSettings(gitea.UserSettingsOptions{FullName: ptr("Alice"), Location: ptr("Lisbon"), Description: ptr("Builds forges")})
		return errors.Join(err, want(s != nil && s.FullName == "Alice" && s.Location == "Lisbon", "%+v", s))
	})
	r.call("GetUserSettings", func() error {
		s, _, err := c.GetUserSettings()
		return errors.Join(err, want(s != nil && s.FullName == "Alice" && s.Description == "Builds forges", "%+v", s))
	})
	r.call("Follow", func() error { _, err := bc.Follow(owner); return err })
	r.call("IsFollowing", func() error {
		ok, _ := bc.IsFollowing(owner)
		return want(ok, "not following")
	})
	r.call("IsUserFollowing", func() error {
		ok, _ := c.IsUserFollowing(w.bob.login, owner)
		return want(ok, "not following")
	})
	r.call("ListMyFollowing", func() error {
		us, _, err := bc.ListMyFollowing(gitea.ListFollowingOptions{})
		return errors.Join(err, want(len(us) == 1 && us[0].UserName == owner, "%v", us))
	})
	r.call("ListFollowing", func() error {
		us, _, err := c.ListFollowing(w.bob.login, gitea.ListFollowingOptions{})
		return errors.Join(err, want(len(us) == 1 && us[0].UserName == owner, "%v", us))
	})
	r.call("ListMyFollowers", func() error {
		us, _, err := c.ListMyFollowers(gitea.ListFollowersOptions{})
		return errors.Join(err, want(len(us) == 1 && us[0].UserName == w.bob.login, "%v", us))
	})
	r.call("ListFollowers", func() error {
		us, _, err := bc.ListFollowers(owner, gitea.ListFollowersOptions{})
		return errors.Join(err, want(len(us) == 1 && us[0].UserName == w.bob.login, "%v", us))
	})
	r.call("Unfollow", func() error {
		if _, err := bc.Unfollow(owner); err != nil {
			return err
		}
		ok, _ := bc.IsFollowing(owner)
		return want(!ok, "still following")
	})
	r.call("ListEmails", func() error {
		es, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		return errors.Join(err, want(len(es) >= 1 && es[0].Primary, "%+v", es))
	})
	r.call("AddEmail", func() error {
		es, _, err := c.AddEmail(gitea.CreateEmailOption{Emails: []string{"alice@example.org"}})
		return errors.Join(err, want(len(es) == 1 && es[0].Email == "alice@example.org", "%+v", es))
	})
	r.call("DeleteEmail", func() error {
		if _, err := c.DeleteEmail(gitea.DeleteEmailOption{Emails: []string{"alice@example.org"}}); err != nil {
			return err
		}
		es, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		for _, e := range es {
			if e.Email == "alice@example.org" {
				return errors.New("still listed")
			}
		}
		return err
	})

	var key *gitea.PublicKey
	r.call("CreatePublicKey", func() (err error) {
		key, _, err = c.CreatePublicKey(gitea.CreateKeyOption{Title: "laptop", Key: sshKey(r.t, "laptop")})
		return errors.Join(err, want(key != nil && key.ID != 0 && key.Title == "laptop" && key.Fingerprint != "", "%+v", key))
	})
	r.call("ListMyPublicKeys", func() error {
		ks, _, err := c.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		return errors.Join(err, want(len(ks) == 1 && ks[0].ID == key.ID, "%+v", ks))
	})
	r.call("ListPublicKeys", func() error {
		ks, _, err := bc.ListPublicKeys(owner, gitea.ListPublicKeysOptions{})
		return errors.Join(err, want(len(ks) == 1 && ks[0].Fingerprint == key.Fingerprint, "%+v", ks))
	})
	r.call("GetPublicKey", func() error {
		got, _, err := c.GetPublicKey(key.ID)
		return errors.Join(err, want(got != nil && got.Title == "laptop", "%+v", got))
	})
	r.call("DeletePublicKey", func() error {
		if _, err := c.DeletePublicKey(key.ID); err != nil {
			return err
		}
		_, res, err := c.GetPublicKey(key.ID)
		return status(res, err, http.StatusNotFound)
	})

	r.call("GetGlobalUISettings", func() error {
		s, _, err := bc.GetGlobalUISettings()
		return errors.Join(err, want(s != nil && len(s.AllowedReactions) > 0, "%+v", s))
	})
	r.call("GetGlobalRepoSettings", func() error {
		s, _, err := bc.GetGlobalRepoSettings()
		return errors.Join(err, want(s != nil && !s.HTTPGitDisabled, "%+v", s))
	})
	r.call("GetGlobalAPISettings", func() error {
		s, _, err := bc.GetGlobalAPISettings()
		return errors.Join(err, want(s != nil && s.MaxResponseItems > 0 && s.DefaultPagingNum > 0, "%+v", s))
	})
	r.call("GetGlobalAttachmentSettings", func() error {
		s, _, err := bc.GetGlobalAttachmentSettings()
		return errors.Join(err, want(s != nil && s.MaxSize > 0, "%+v", s))
	})
	r.call("CheckNotifications", func() error {
		n, _, err := c.CheckNotifications()
		return errors.Join(err, want(n >= 0, "%d", n))
	})
	r.call("ListNotifications", func() error {
		ns, _, err := bc.ListNotifications(gitea.ListNotificationOptions{})
		return errors.Join(err, want(ns != nil, "nil list"))
	})
}

func sdkTokens(r *sdkRun, w *sdkWorld) {
	owner := w.alice.login
	// Gitea takes token calls with basic auth; the token is the password.
	basic, err := gitea.NewClient(w.n.URL, gitea.SetBasicAuth(owner, w.alice.token))
	if err != nil {
		r.t.Fatalf("gitea.NewClient: %v", err)
	}
	var tok *gitea.AccessToken
	r.call("CreateAccessToken", func() (err error) {
		tok, _, err = basic.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "ci", Scopes: []gitea.AccessTokenScope{"read:repository", "read:user"}})
		return errors.Join(err, want(tok != nil && tok.ID != 0 && tok.Name == "ci" && len(tok.Token) == 40 && strings.HasSuffix(tok.Token, tok.TokenLastEight), "%+v", tok))
	})
	r.call("ListAccessTokens", func() error {
		ts, _, err := basic.ListAccessTokens(gitea.ListAccessTokensOptions{})
		var found bool
		for _, t := range ts {
			found = found || (t.ID == tok.ID && t.Token == "")
		}
		return errors.Join(err, want(found, "%+v", ts))
	})
	r.call("GetMyUserInfo with a new token", func() error {
		tc, err := gitea.NewClient(w.n.URL, gitea.SetToken(tok.Token))
		if err != nil {
			return err
		}
		me, _, err := tc.GetMyUserInfo()
		return errors.Join(err, want(me != nil && me.UserName == owner, "%+v", me))
	})
	r.call("CreateRepo with a read token", func() error {
		tc, err := gitea.NewClient(w.n.URL, gitea.SetToken(tok.Token))
		if err != nil {
			return err
		}
		_, res, err := tc.CreateRepo(gitea.CreateRepoOption{Name: "not-allowed"})
		return status(res, err, http.StatusForbidden)
	})
	r.call("DeleteAccessToken", func() error {
		if _, err := basic.DeleteAccessToken(tok.ID); err != nil {
			return err
		}
		tc, err := gitea.NewClient(w.n.URL, gitea.SetToken(w.alice.token))
		if err != nil {
			return err
		}
		tc.SetBasicAuth(owner, tok.Token)
		_, res, err := tc.GetMyUserInfo()
		return status(res, err, http.StatusUnauthorized)
	})
}
