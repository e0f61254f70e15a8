package api_test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// Tags through Gitea's SDK: a lightweight and an annotated tag (signed by
// the signed-in user) are made on chain and in git, read by name and by
// tag object, listed, fetched by git, refused when they clash or come from
// a reader, and deleted.
func TestTagsCreateGetDelete(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "tagged"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	head := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD"))

	light, res, err := c.CreateTag(owner, name, gitea.CreateTagOption{TagName: "v1", Target: "main"})
	check(t, "CreateTag", err)
	if res.StatusCode != http.StatusCreated || light.Name != "v1" || light.ID != head || light.Commit == nil || light.Commit.SHA != head {
		t.Fatalf("lightweight tag: %d %+v", res.StatusCode, light)
	}
	ann, _, err := c.CreateTag(owner, name, gitea.CreateTagOption{TagName: "v2", Target: head, Message: "Second\n\nWith notes."})
	check(t, "CreateTag", err)
	if ann.ID == head || ann.Commit == nil || ann.Commit.SHA != head || !strings.HasPrefix(ann.Message, "Second") {
		t.Fatalf("annotated tag: %+v", ann)
	}
	got, _, err := bob.client.GetTag(owner, name, "v2")
	check(t, "GetTag", err)
	if got.ID != ann.ID || got.ZipballURL == "" {
		t.Fatalf("GetTag v2: %+v", got)
	}
	if zip := n.Call("GET", strings.TrimPrefix(got.ZipballURL, n.URL), nil, nil); zip.Status != http.StatusOK {
		t.Fatalf("the tag's zipball: %d", zip.Status)
	}
	obj, _, err := bob.client.GetAnnotatedTag(owner, name, ann.ID)
	check(t, "GetAnnotatedTag", err)
	if obj.Tag != "v2" || obj.SHA != ann.ID || obj.Object == nil || obj.Object.SHA != head || obj.Object.Type != "commit" ||
		obj.Tagger == nil || obj.Tagger.Email == "" || !strings.HasPrefix(obj.Message, "Second") {
		t.Fatalf("GetAnnotatedTag: %+v", obj)
	}
	if _, res, err := c.GetAnnotatedTag(owner, name, head); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("a commit as a tag object: %v", err)
	}
	tags, _, err := c.ListRepoTags(owner, name, gitea.ListRepoTagsOptions{})
	check(t, "ListRepoTags", err)
	if len(tags) != 2 || tags[0].Name != "v1" || tags[1].Name != "v2" {
		t.Fatalf("ListRepoTags: %+v", tags)
	}
	// Git sees both, the annotated one as a tag object.
	n.Git(wt, "fetch", "-q", "--tags", "origin")
	if typ := strings.TrimSpace(n.Git(wt, "cat-file", "-t", "v2")); typ != "tag" {
		t.Fatalf("v2 is a %s", typ)
	}
	if sha := strings.TrimSpace(n.Git(wt, "rev-parse", "v1")); sha != head {
		t.Fatalf("v1 is %s", sha)
	}

	// Refusals: a clash, a missing target, a bad name, a reader.
	for _, bad := range []struct {
		opt  gitea.CreateTagOption
		want int
	}{
		{gitea.CreateTagOption{TagName: "v1", Target: "main"}, http.StatusConflict},
		{gitea.CreateTagOption{TagName: "v3", Target: "nowhere"}, http.StatusNotFound},
		{gitea.CreateTagOption{TagName: "bad..name", Target: "main"}, http.StatusUnprocessableEntity},
	} {
		if _, res, err := c.CreateTag(owner, name, bad.opt); err == nil || res.StatusCode != bad.want {
			t.Fatalf("CreateTag %+v: %v, want %d", bad.opt, err, bad.want)
		}
	}
	if _, res, err := bob.client.CreateTag(owner, name, gitea.CreateTagOption{TagName: "v9", Target: "main"}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a reader's tag: %v", err)
	}
	if res, err := bob.client.DeleteTag(owner, name, "v1"); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a reader deleting a tag: %v", err)
	}

	// A release's tag stays; a plain tag goes, from git too.
	_, _, err = c.CreateRelease(owner, name, gitea.CreateReleaseOption{TagName: "v2", Title: "Two"})
	check(t, "CreateRelease", err)
	if res, err := c.DeleteTag(owner, name, "v2"); err == nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("deleting a release's tag: %v", err)
	}
	res, err = c.DeleteTag(owner, name, "v1")
	check(t, "DeleteTag", err)
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("DeleteTag: %d", res.StatusCode)
	}
	if _, res, err := c.GetTag(owner, name, "v1"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetTag after delete: %v", err)
	}
	if out := n.Git(wt, "ls-remote", "--tags", "origin"); strings.Contains(out, "refs/tags/v1") {
		t.Fatalf("v1 still in git:\n%s", out)
	}
	if res, err := c.DeleteTag(owner, name, "v1"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("deleting a missing tag: %v", err)
	}
}

// A pattern rule ("release/*") protects the branches it matches, through
// git: release/1 cannot be pushed or deleted, other branches can; the
// branch shows the rule; deleting the rule frees it.
func TestBranchProtectionPattern(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "patterned"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/release/1", "HEAD:refs/heads/feature")

	p, res, err := c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "release/*"})
	check(t, "CreateBranchProtection", err)
	if res.StatusCode != http.StatusCreated || p.RuleName != "release/*" || p.EnablePush {
		t.Fatalf("CreateBranchProtection: %d %+v", res.StatusCode, p)
	}
	if _, res, err := c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "release/["}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a bad pattern: %v", err)
	}
	b, _, err := c.GetRepoBranch(owner, name, "release/1")
	check(t, "GetRepoBranch", err)
	if !b.Protected || b.EffectiveBranchProtectionName != "release/*" {
		t.Fatalf("release/1: %+v", b)
	}
	if b, _, err := c.GetRepoBranch(owner, name, "feature"); err != nil || b.Protected {
		t.Fatalf("feature: %v %+v", err, b)
	}

	n.Commit(wt, "Change", map[string]string{"a.txt": "a\n"})
	if out, err := n.TryGit(wt, "push", "origin", "HEAD:refs/heads/release/1"); err == nil || !strings.Contains(out, "protected") {
		t.Fatalf("push to release/1: %v\n%s", err, out)
	}
	if ok, res, err := c.DeleteRepoBranch(owner, name, "release/1"); ok || res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("deleting release/1: %v %v", ok, err)
	}
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/feature", "HEAD:refs/heads/releases")

	_, err = c.DeleteBranchProtection(owner, name, "release/*")
	check(t, "DeleteBranchProtection", err)
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/release/1")
}
