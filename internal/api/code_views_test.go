package api_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// The code browser's reads: archives (Gitea's route, through the SDK and
// plain HTTP), the last commit of each entry of a directory, blame, and a
// file's history (commits?path=).

// codeRepo is alice's repository "code" with three pushed commits: the
// README (first), src/app.go (second), then both changed (third).
type codeRepo struct {
	n              *forgetest.Node
	alice          *forgetest.User
	owner          string
	c1, c2, c3     string
	readme, appSrc string
}

func newCodeRepo(t *testing.T) codeRepo {
	t.Helper()
	n := forgetest.Start(t)
	alice := n.NewUser()
	owner := alice.Name()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "code"}, http.StatusCreated, nil)
	wt := n.Clone(n.Remote(alice, owner, "code"))
	n.Git(wt, "checkout", "-q", "-b", "main")
	c1 := n.Commit(wt, "Add the README", map[string]string{"README.md": "# Code\n\nline two\n"})
	c2 := n.Commit(wt, "Add the app", map[string]string{"src/app.go": "package app\n"})
	readme, app := "# Code\n\nline two\nline three\n", "package app\n\nfunc A() {}\n"
	c3 := n.Commit(wt, "Grow both", map[string]string{"README.md": readme, "src/app.go": app})
	n.Git(wt, "push", "-q", "origin", "main")
	return codeRepo{n: n, alice: alice, owner: owner, c1: c1, c2: c2, c3: c3, readme: readme, appSrc: app}
}

func TestArchive(t *testing.T) {
	t.Parallel()
	cr := newCodeRepo(t)
	n, base := cr.n, "/api/v1/repos/"+cr.owner+"/code"
	want := map[string]string{"code/README.md": cr.readme, "code/src/app.go": cr.appSrc}

	// 1. zip through the SDK: the tree at main, under the repository's name.
	data, res, err := sdkClient(t, n, cr.alice).GetArchive(cr.owner, "code", "main", gitea.ZipArchive)
	if err != nil {
		t.Fatalf("GetArchive: %v", err)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename=code-main.zip` {
		t.Errorf("Content-Disposition %q", cd)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("read the zip: %v", err)
	}
	got := map[string]string{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		got[f.Name] = string(b)
	}
	if !sameFiles(got, want) {
		t.Fatalf("zip holds %v, want %v", got, want)
	}

	// 2. tar.gz of the first commit, by id.
	r := n.Call("GET", base+"/archive/"+cr.c1+".tar.gz", nil, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("tar.gz: %d %v", r.Status, r.Header)
	}
	gz, err := gzip.NewReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	tr, got := tar.NewReader(gz), map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			b, _ := io.ReadAll(tr)
			got[h.Name] = string(b)
		}
	}
	if !sameFiles(got, map[string]string{"code/README.md": "# Code\n\nline two\n"}) {
		t.Fatalf("tar.gz of the first commit holds %v", got)
	}

	// 3. Refusals: unknown ref 404, unknown format 422, private 404.
	n.JSON("GET", base+"/archive/nope.zip", nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", base+"/archive/main.rar", nil, nil, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", "/api/v1/user/repos", cr.alice, map[string]any{"name": "hidden", "private": true, "auto_init": true}, http.StatusCreated, nil)
	n.JSON("GET", "/api/v1/repos/"+cr.owner+"/hidden/archive/main.zip", n.NewUser(), nil, http.StatusNotFound, nil)
	if r := n.Call("GET", "/api/v1/repos/"+cr.owner+"/hidden/archive/main.zip", cr.alice, nil); r.Status != http.StatusOK || len(r.Body) == 0 {
		t.Fatalf("the owner's archive of a private repository: %d", r.Status)
	}
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestBlameAndHistory(t *testing.T) {
	t.Parallel()
	cr := newCodeRepo(t)
	n, base := cr.n, "/api/v1/repos/"+cr.owner+"/code"

	// 1. Blame: lines 1-3 from the first commit, line 4 from the third.
	var blame struct {
		Commit string `json:"commit"`
		Ranges []struct {
			StartLine int      `json:"start_line"`
			Lines     []string `json:"lines"`
			Commit    struct {
				SHA     string `json:"sha"`
				Message string `json:"message"`
				Author  struct {
					Name string `json:"name"`
				} `json:"author"`
			} `json:"commit"`
		} `json:"ranges"`
	}
	n.JSON("GET", base+"/blame/README.md?ref=main", nil, nil, http.StatusOK, &blame)
	if blame.Commit != cr.c3 || len(blame.Ranges) != 2 {
		t.Fatalf("blame: %+v", blame)
	}
	first, second := blame.Ranges[0], blame.Ranges[1]
	if first.StartLine != 1 || len(first.Lines) != 3 || first.Commit.SHA != cr.c1 || first.Commit.Message != "Add the README" || first.Commit.Author.Name != "Tester" ||
		second.StartLine != 4 || len(second.Lines) != 1 || second.Lines[0] != "line three" || second.Commit.SHA != cr.c3 {
		t.Fatalf("blame ranges: %+v", blame.Ranges)
	}
	n.JSON("GET", base+"/blame/src?ref=main", nil, nil, http.StatusUnprocessableEntity, nil)
	n.JSON("GET", base+"/blame/nope.txt", nil, nil, http.StatusNotFound, nil)

	// 2. The last commit of each entry of the root and of src.
	var last struct {
		Entries []struct {
			Name   string `json:"name"`
			Commit *struct {
				SHA     string `json:"sha"`
				Message string `json:"message"`
			} `json:"commit"`
		} `json:"entries"`
	}
	n.JSON("GET", base+"/last_commits?ref="+cr.c2, nil, nil, http.StatusOK, &last)
	lastOf := map[string]string{}
	for _, e := range last.Entries {
		if e.Commit != nil {
			lastOf[e.Name] = e.Commit.SHA
		}
	}
	if len(last.Entries) != 2 || lastOf["README.md"] != cr.c1 || lastOf["src"] != cr.c2 {
		t.Fatalf("last commits at the second commit: %+v", last)
	}
	n.JSON("GET", base+"/last_commits?path=src", nil, nil, http.StatusOK, &last)
	if len(last.Entries) != 1 || last.Entries[0].Name != "app.go" || last.Entries[0].Commit == nil || last.Entries[0].Commit.SHA != cr.c3 {
		t.Fatalf("last commits of src: %+v", last)
	}

	// 3. A file's history: commits?path= through the SDK.
	commits, _, err := sdkClient(t, n, cr.alice).ListRepoCommits(cr.owner, "code", gitea.ListCommitOptions{SHA: "main", Path: "src/app.go"})
	if err != nil {
		t.Fatalf("ListRepoCommits: %v", err)
	}
	var ids []string
	for _, c := range commits {
		ids = append(ids, c.SHA)
	}
	if strings.Join(ids, ",") != cr.c3+","+cr.c2 {
		t.Fatalf("history of src/app.go: %v, want %s,%s", ids, cr.c3, cr.c2)
	}
}
