package api_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// Writing files through Gitea's contents API with Gitea's SDK: each write
// is a commit on the branch, authored by the signed-in user, recorded on
// chain like a push, and there for git clone.

func sdkClient(t *testing.T, n *forgetest.Node, u *forgetest.User) *gitea.Client {
	t.Helper()
	c, err := gitea.NewClient(n.URL, gitea.SetToken(u.Token))
	if err != nil {
		t.Fatalf("gitea.NewClient: %v", err)
	}
	return c
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// recorded reports whether the chain's index has ref set to commit in repo.
func recorded(t *testing.T, n *forgetest.Node, repo int64, ref, commit string) bool {
	t.Helper()
	ups, _, err := n.Index.RefUpdates(context.Background(), uint64(repo), index.Page{Number: 1, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range ups {
		if u.Ref == ref && u.New == commit {
			return true
		}
	}
	return false
}

func TestContentsWrite(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testContentsWrite(t, forgetest.Start(t, opts...))
		})
	}
}

func testContentsWrite(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	ac, bc := sdkClient(t, n, alice), sdkClient(t, n, bob)
	owner := alice.Name()
	repo, _, err := ac.CreateRepo(gitea.CreateRepoOption{Name: "site", AutoInit: true, Readme: "Default"})
	if err != nil {
		t.Fatalf("CreateRepo: %v", err)
	}
	email := strings.ToLower(alice.Address.Hex()) + "@users.dforge"

	// 1. A new file: a commit on main by alice, on chain.
	created, _, err := ac.CreateFile(owner, "site", "docs/intro.md", gitea.CreateFileOptions{
		FileOptions: gitea.FileOptions{Message: "Add the intro"}, Content: b64("# Intro\n")})
	if err != nil {
		t.Fatalf("CreateFile: %v", err)
	}
	if created.Content == nil || created.Content.Path != "docs/intro.md" || created.Content.SHA == "" || created.Commit == nil ||
		created.Commit.Author.Email != email || created.Commit.Author.Name != owner || strings.TrimSpace(created.Commit.Message) != "Add the intro" {
		t.Fatalf("CreateFile answered %+v / %+v", created.Content, created.Commit)
	}
	if !recorded(t, n, repo.ID, "refs/heads/main", created.Commit.SHA) {
		t.Fatalf("the chain has no update of main to %s", created.Commit.SHA)
	}
	raw, _, err := ac.GetFile(owner, "site", "main", "docs/intro.md")
	if err != nil || string(raw) != "# Intro\n" {
		t.Fatalf("GetFile after create: %q %v", raw, err)
	}

	// 2. Conflicts, as Gitea answers them.
	_, res, err := ac.CreateFile(owner, "site", "docs/intro.md", gitea.CreateFileOptions{Content: b64("again")})
	if err == nil || res == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("CreateFile over a file: %v %v", res, err)
	}
	_, res, err = ac.UpdateFile(owner, "site", "docs/intro.md", gitea.UpdateFileOptions{SHA: strings.Repeat("a", 40), Content: b64("x")})
	if err == nil || res == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("UpdateFile with a stale sha: %v %v", res, err)
	}
	_, res, err = ac.UpdateFile(owner, "site", "docs/nope.md", gitea.UpdateFileOptions{SHA: created.Content.SHA, Content: b64("x")})
	if err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("UpdateFile of a missing file: %v %v", res, err)
	}
	_, res, err = ac.CreateFile(owner, "site", "x.md", gitea.CreateFileOptions{FileOptions: gitea.FileOptions{BranchName: "nope"}, Content: b64("x")})
	if err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("CreateFile on a missing branch: %v %v", res, err)
	}
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents/x.md", alice, map[string]string{"content": "not base64!"}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents/.git/hooks/post-update", alice, map[string]string{"content": b64("x")}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents/README.md/inside", alice, map[string]string{"content": b64("x")}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents/docs", alice, map[string]string{"content": b64("x")}, http.StatusUnprocessableEntity, nil)

	// 3. An update, then a delete, each with the sha it replaces.
	updated, _, err := ac.UpdateFile(owner, "site", "docs/intro.md", gitea.UpdateFileOptions{SHA: created.Content.SHA, Content: b64("# Intro\n\nMore.\n")})
	if err != nil {
		t.Fatalf("UpdateFile: %v", err)
	}
	if len(updated.Commit.Parents) != 1 || updated.Commit.Parents[0].SHA != created.Commit.SHA || updated.Content.SHA == created.Content.SHA {
		t.Fatalf("UpdateFile answered %+v", updated.Commit)
	}
	if _, err := ac.DeleteFile(owner, "site", "docs/intro.md", gitea.DeleteFileOptions{SHA: created.Content.SHA}); err == nil {
		t.Fatal("DeleteFile with the old sha succeeded")
	}
	if _, err := ac.DeleteFile(owner, "site", "docs/intro.md", gitea.DeleteFileOptions{SHA: updated.Content.SHA}); err != nil {
		t.Fatalf("DeleteFile: %v", err)
	}

	// 4. Others: a reader may not write (403); a private repository is
	// not there for them (404).
	_, res, err = bc.CreateFile(owner, "site", "bob.md", gitea.CreateFileOptions{Content: b64("hi")})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("CreateFile by a reader: %v %v", res, err)
	}
	if _, _, err := ac.CreateRepo(gitea.CreateRepoOption{Name: "secret", Private: true, AutoInit: true, Readme: "Default"}); err != nil {
		t.Fatal(err)
	}
	_, res, err = bc.CreateFile(owner, "secret", "bob.md", gitea.CreateFileOptions{Content: b64("hi")})
	if err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("CreateFile in a private repository by a stranger: %v %v", res, err)
	}
	// The owner writes there: recorded in the private store, not on chain.
	if _, _, err := ac.CreateFile(owner, "secret", "plan.md", gitea.CreateFileOptions{Content: b64("private\n")}); err != nil {
		t.Fatalf("CreateFile in a private repository by its owner: %v", err)
	}
	if raw, _, err := ac.GetFile(owner, "secret", "main", "plan.md"); err != nil || string(raw) != "private\n" {
		t.Fatalf("GetFile in the private repository: %q %v", raw, err)
	}

	// An empty repository takes a first commit on its default branch.
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "blank"}, http.StatusCreated, nil)
	first, _, err := ac.CreateFile(owner, "blank", "hello.txt", gitea.CreateFileOptions{Content: b64("hello\n")})
	if err != nil || len(first.Commit.Parents) != 0 {
		t.Fatalf("CreateFile in an empty repository: %v %+v", err, first)
	}

	// 5. Several files on a new branch in one commit (ChangeFiles), with
	// the author given.
	var files struct {
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents", alice, map[string]any{
		"branch": "main", "new_branch": "feature", "message": "Two files",
		"author": map[string]string{"name": "Ada", "email": "ada@example.org"},
		"files": []map[string]string{
			{"operation": "create", "path": "a.txt", "content": b64("a\n")},
			{"operation": "create", "path": "lib/b.txt", "content": b64("b\n")},
		},
	}, http.StatusCreated, &files)
	if len(files.Files) != 2 || files.Files[1].Path != "lib/b.txt" || files.Commit.SHA == "" {
		t.Fatalf("ChangeFiles answered %+v", files)
	}
	if !recorded(t, n, repo.ID, "refs/heads/feature", files.Commit.SHA) {
		t.Fatal("the chain has no update creating feature")
	}
	n.JSON("POST", "/api/v1/repos/"+owner+"/site/contents", alice, map[string]any{
		"files": []map[string]string{{"operation": "rename", "path": "a.txt"}},
	}, http.StatusUnprocessableEntity, nil)

	// 6. git clone sees the commits, with their authors.
	wt := n.Clone(n.Remote(alice, owner, "site"))
	if got := strings.TrimSpace(n.Git(wt, "log", "-1", "--format=%an <%ae> %s", "origin/feature")); got != "Ada <ada@example.org> Two files" {
		t.Fatalf("feature's tip: %q", got)
	}
	log := n.Git(wt, "log", "--format=%an <%ae> %s", "origin/main")
	if !strings.Contains(log, owner+" <"+email+"> Add the intro") || !strings.Contains(log, "Delete docs/intro.md") {
		t.Fatalf("main's history:\n%s", log)
	}
	if out, err := n.TryGit(wt, "cat-file", "-e", "origin/main:docs/intro.md"); err == nil {
		t.Fatalf("docs/intro.md is still on main: %s", out)
	}
}
