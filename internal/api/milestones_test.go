package api_test

import (
	"net/http"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestMilestonesSDK drives milestones through Gitea's SDK: create, read by
// id and by name, list by state, file issues under one (create and edit),
// the counts a progress bar reads, the issue list's milestones filter,
// close, delete; readers may not manage them, and a private repository's
// milestones are a 404 to strangers.
func TestMilestonesSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "planned"
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name}); err != nil {
		t.Fatalf("CreateRepo: %v", err)
	}

	// 1. Two milestones, one due.
	due := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	v1, _, err := c.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "v1.0", Description: "The first cut", Deadline: &due})
	check(t, "CreateMilestone", err)
	if v1.ID == 0 || v1.Title != "v1.0" || v1.State != gitea.StateOpen || v1.Deadline == nil || !v1.Deadline.Equal(due) || v1.Created.IsZero() {
		t.Fatalf("CreateMilestone: %+v", v1)
	}
	v2, _, err := c.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "v2.0"})
	check(t, "CreateMilestone v2", err)
	byName, _, err := c.GetMilestoneByName(owner, name, "V1.0")
	check(t, "GetMilestoneByName", err)
	if byName.ID != v1.ID {
		t.Fatalf("GetMilestoneByName: %+v", byName)
	}
	if _, res, err := c.GetMilestone(owner, name, 9999); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetMilestone of none: %v", err)
	}

	// 2. Issues filed under v1: at creation and by an edit.
	one, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "First", Milestone: v1.ID})
	check(t, "CreateIssue", err)
	if one.Milestone == nil || one.Milestone.ID != v1.ID || one.Milestone.OpenIssues != 1 {
		t.Fatalf("issue milestone: %+v", one.Milestone)
	}
	two, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "Second"})
	check(t, "CreateIssue 2", err)
	two, _, err = c.EditIssue(owner, name, two.Index, gitea.EditIssueOption{Milestone: &v1.ID})
	check(t, "EditIssue milestone", err)
	if two.Milestone == nil || two.Milestone.ID != v1.ID {
		t.Fatalf("edited issue milestone: %+v", two.Milestone)
	}
	closed := gitea.StateClosed
	_, _, err = c.EditIssue(owner, name, one.Index, gitea.EditIssueOption{State: &closed})
	check(t, "close issue", err)
	got, _, err := c.GetMilestone(owner, name, v1.ID)
	check(t, "GetMilestone", err)
	if got.OpenIssues != 1 || got.ClosedIssues != 1 {
		t.Fatalf("counts: open %d closed %d", got.OpenIssues, got.ClosedIssues)
	}
	filtered, _, err := c.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateAll, Milestones: []string{"v1.0"}})
	check(t, "ListRepoIssues by milestone", err)
	if len(filtered) != 2 {
		t.Fatalf("issues of v1: %d", len(filtered))
	}
	none, _, err := c.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateAll, Milestones: []string{"v2.0"}})
	check(t, "ListRepoIssues by empty milestone", err)
	if len(none) != 0 {
		t.Fatalf("issues of v2: %d", len(none))
	}
	// A bad milestone id on an edit is a 422 naming it; nothing changes.
	bad := int64(424242)
	if _, res, err := c.EditIssue(owner, name, two.Index, gitea.EditIssueOption{Milestone: &bad}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("EditIssue with a bad milestone: %v", err)
	}

	// 3. Close v2; lists by state.
	if m, _, err := c.EditMilestone(owner, name, v2.ID, gitea.EditMilestoneOption{State: &closed}); err != nil || m.State != gitea.StateClosed || m.Closed == nil {
		t.Fatalf("EditMilestone close: %v %+v", err, m)
	}
	open, _, err := c.ListRepoMilestones(owner, name, gitea.ListMilestoneOption{})
	check(t, "ListRepoMilestones", err)
	all, _, err := c.ListRepoMilestones(owner, name, gitea.ListMilestoneOption{State: gitea.StateAll})
	check(t, "ListRepoMilestones all", err)
	if len(open) != 1 || open[0].ID != v1.ID || len(all) != 2 {
		t.Fatalf("open %d, all %d", len(open), len(all))
	}

	// 4. Bob, who cannot write, may read but not manage them.
	if _, res, err := bob.client.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "mine"}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a stranger's CreateMilestone: %v", err)
	}
	if _, err := bob.client.DeleteMilestone(owner, name, v1.ID); err == nil {
		t.Fatal("a stranger deleted a milestone")
	}
	if _, _, err := bob.client.GetMilestone(owner, name, v1.ID); err != nil {
		t.Fatalf("a reader's GetMilestone: %v", err)
	}

	// 5. Deleting v1 leaves its issues filed under none.
	_, err = c.DeleteMilestone(owner, name, v1.ID)
	check(t, "DeleteMilestone", err)
	after, _, err := c.GetIssue(owner, name, two.Index)
	check(t, "GetIssue", err)
	if after.Milestone != nil {
		t.Fatalf("issue still under a deleted milestone: %+v", after.Milestone)
	}

	// 6. A private repository's milestones are hidden from strangers.
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "secret", Private: true}); err != nil {
		t.Fatalf("CreateRepo: %v", err)
	}
	hidden, _, err := c.CreateMilestone(owner, "secret", gitea.CreateMilestoneOption{Title: "quiet"})
	check(t, "CreateMilestone private", err)
	if _, res, err := bob.client.GetMilestone(owner, "secret", hidden.ID); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("a stranger read a private milestone: %v", err)
	}
}
