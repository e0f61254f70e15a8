package api_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// The repository API and git together, on a real node: what a client sees
// through HTTP and the git binary.

type repoOut struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	FullName string `json:"full_name"`
	Owner    struct {
		Login string `json:"login"`
	} `json:"owner"`
	Private       bool     `json:"private"`
	Fork          bool     `json:"fork"`
	Empty         bool     `json:"empty"`
	CloneURL      string   `json:"clone_url"`
	HTMLURL       string   `json:"html_url"`
	DefaultBranch string   `json:"default_branch"`
	Stars         int      `json:"stars_count"`
	Forks         int      `json:"forks_count"`
	Protected     []string `json:"protected_branches"`
	OnChain       bool     `json:"on_chain"`
	Parent        *repoOut `json:"parent"`
	Permissions   struct {
		Admin bool `json:"admin"`
		Push  bool `json:"push"`
		Pull  bool `json:"pull"`
	} `json:"permissions"`
}

type commitOut struct {
	SHA     string `json:"sha"`
	CID     string `json:"cid"`
	HTMLURL string `json:"html_url"`
	Commit  struct {
		Message string `json:"message"`
		Author  struct {
			Name  string `json:"name"`
			Email string `json:"email"`
			Date  string `json:"date"`
		} `json:"author"`
	} `json:"commit"`
	Parents []struct {
		SHA string `json:"sha"`
	} `json:"parents"`
	Files []struct {
		Filename  string `json:"filename"`
		Status    string `json:"status"`
		Additions int    `json:"additions"`
		Deletions int    `json:"deletions"`
	} `json:"files"`
	Stats struct {
		Total     int `json:"total"`
		Additions int `json:"additions"`
	} `json:"stats"`
}

type contentOut struct {
	Name     string  `json:"name"`
	Path     string  `json:"path"`
	Type     string  `json:"type"`
	Size     int64   `json:"size"`
	SHA      string  `json:"sha"`
	Encoding *string `json:"encoding"`
	Content  *string `json:"content"`
	TooLarge bool    `json:"too_large"`
	Binary   bool    `json:"binary"`
	LastSHA  string  `json:"last_commit_sha"`
}

// create makes owner's repository name with a README.
func create(t *testing.T, n *forgetest.Node, owner *forgetest.User, name string, private bool) repoOut {
	t.Helper()
	var r repoOut
	n.JSON("POST", "/api/v1/user/repos", owner, map[string]any{"name": name, "description": "Test " + name, "auto_init": true, "private": private},
		http.StatusCreated, &r)
	return r
}

func repoPath(u *forgetest.User, name string) string { return "/api/v1/repos/" + u.Name() + "/" + name }

func TestCreateCloneablePushBrowse(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	base := repoPath(alice, "hello")

	// 1. Create with a README: the record on chain, the git data, the blocks.
	r := create(t, n, alice, "hello", false)
	if r.Name != "hello" || r.Owner.Login != alice.Name() || r.FullName != alice.Name()+"/hello" || r.Private || r.Empty || !r.OnChain {
		t.Fatalf("created %+v", r)
	}
	if r.CloneURL != n.URL+"/"+alice.Name()+"/hello.git" || r.HTMLURL != n.URL+"/"+alice.Name()+"/hello" {
		t.Fatalf("urls %q %q", r.CloneURL, r.HTMLURL)
	}
	if !r.Permissions.Admin || !r.Permissions.Push || r.DefaultBranch != "main" || len(r.Protected) != 1 || r.Protected[0] != "main" {
		t.Fatalf("permissions and branches %+v", r)
	}
	var got repoOut
	n.JSON("GET", base, nil, nil, http.StatusOK, &got)
	if got.ID != r.ID || got.Permissions.Push || !got.Permissions.Pull {
		t.Fatalf("anonymous view %+v", got)
	}

	// 2. Clone it with a token, push a branch and a commit to main.
	dir := n.Clone(n.Remote(alice, alice.Name(), "hello"))
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !strings.Contains(string(readme), "# hello") {
		t.Fatalf("README %q %v", readme, err)
	}
	mainTip := n.Commit(dir, "Add the license", map[string]string{"LICENSE": "MIT\n"})
	n.Git(dir, "push", "--quiet", "origin", "main")
	n.Git(dir, "checkout", "--quiet", "-b", "feature")
	n.Commit(dir, "Add code", map[string]string{"src/main.go": "package main\n\nfunc main() {}\n", "docs/guide.md": "# Guide\n"})
	featureTip := n.Commit(dir, "Tweak the guide", map[string]string{"docs/guide.md": "# Guide\n\nMore.\n"})
	n.Git(dir, "tag", "-a", "v1.0", "-m", "First release")
	n.Git(dir, "push", "--quiet", "origin", "feature", "v1.0")

	// 3. The pushes are ref updates on chain.
	updates, _, err := n.Index.RefUpdates(context.Background(), r.ID, index.Page{Number: 1, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // newest first; the first commit's is the oldest
	for _, u := range updates {
		if seen[u.Ref] == "" {
			seen[u.Ref] = u.New
		}
		if u.Height <= 0 || u.Pusher.Address != alice.Address.Hex() {
			t.Fatalf("ref update %+v", u)
		}
	}
	if seen["refs/heads/main"] != mainTip || seen["refs/heads/feature"] != featureTip || seen["refs/tags/v1.0"] == "" {
		t.Fatalf("ref updates %v", seen)
	}

	// 4. Branches, tags and counts.
	var branches []struct {
		Name   string `json:"name"`
		Commit struct {
			ID  string `json:"id"`
			CID string `json:"cid"`
		} `json:"commit"`
		Protected bool `json:"protected"`
	}
	res := n.JSON("GET", base+"/branches", alice, nil, http.StatusOK, &branches)
	if len(branches) != 2 || branches[0].Name != "feature" || branches[0].Commit.ID != featureTip || branches[1].Name != "main" ||
		!branches[1].Protected || branches[0].Protected || branches[1].Commit.CID == "" || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("branches %+v", branches)
	}
	var one struct {
		Name string `json:"name"`
	}
	n.JSON("GET", base+"/branches/feature", nil, nil, http.StatusOK, &one)
	n.JSON("GET", base+"/branches/nope", nil, nil, http.StatusNotFound, nil)
	var tags []struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Commit  struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	n.JSON("GET", base+"/tags", nil, nil, http.StatusOK, &tags)
	if len(tags) != 1 || tags[0].Name != "v1.0" || tags[0].Commit.SHA != featureTip || tags[0].Message != "First release" {
		t.Fatalf("tags %+v", tags)
	}
	var counts map[string]int
	n.JSON("GET", base+"/counts", nil, nil, http.StatusOK, &counts)
	if counts["commits"] != 2 || counts["branches"] != 2 || counts["tags"] != 1 {
		t.Fatalf("counts %v", counts)
	}

	// 5. History: commits with their files, paged, by path.
	var commits []commitOut
	res = n.JSON("GET", base+"/commits?sha=feature&limit=2", nil, nil, http.StatusOK, &commits)
	if len(commits) != 2 || commits[0].SHA != featureTip || res.Header.Get("X-Total-Count") != "4" || !strings.Contains(res.Header.Get("Link"), `rel="next"`) {
		t.Fatalf("commits %+v, headers %v", commits, res.Header)
	}
	if len(commits[0].Files) != 1 || commits[0].Files[0].Filename != "docs/guide.md" || commits[0].Files[0].Status != "modified" ||
		commits[0].Files[0].Additions != 2 || commits[0].Stats.Total != 2 || commits[0].Commit.Author.Email != "tester@example.org" {
		t.Fatalf("newest commit %+v", commits[0])
	}
	if commits[0].HTMLURL != r.HTMLURL+"/commit/"+featureTip || commits[0].Parents[0].SHA != commits[1].SHA {
		t.Fatalf("links %+v", commits[0])
	}
	var byPath []commitOut
	n.JSON("GET", base+"/commits?sha=feature&path=src/main.go", nil, nil, http.StatusOK, &byPath)
	if len(byPath) != 1 || byPath[0].Commit.Message != "Add code" || byPath[0].Files[0].Status != "added" {
		t.Fatalf("history of src/main.go %+v", byPath)
	}
	var all []commitOut
	n.JSON("GET", base+"/commits?sha=feature&limit=50", nil, nil, http.StatusOK, &all)
	if len(all) != 4 || all[3].Commit.Author.Name != alice.Name() || !strings.HasSuffix(all[3].Commit.Author.Email, "@noreply.dforge.local") {
		t.Fatalf("whole history %+v", all)
	}
	// A page read again is put together from kept commits: the same
	// bytes, each commit as its own endpoint shapes it.
	first := n.Call("GET", base+"/commits?sha=feature&limit=50", nil, nil)
	again := n.Call("GET", base+"/commits?sha=feature&limit=50", nil, nil)
	if first.Status != http.StatusOK || !bytes.Equal(first.Body, again.Body) {
		t.Fatalf("a page read twice:\n%s\n%s", first.Body, again.Body)
	}
	var items []map[string]any
	if err := json.Unmarshal(again.Body, &items); err != nil || len(items) != 4 {
		t.Fatalf("history: %d commits, %v", len(items), err)
	}
	for _, item := range items {
		var one map[string]any
		n.JSON("GET", base+"/git/commits/"+item["sha"].(string), nil, nil, http.StatusOK, &one)
		if !reflect.DeepEqual(item, one) {
			t.Fatalf("in the list:\n%v\nalone:\n%v", item, one)
		}
	}
	// Every commit's CID serves bytes whose SHA-1 is the commit id.
	for _, c := range all {
		res := n.Call("GET", "/ipfs/"+c.CID+"?format=raw", nil, nil)
		sum := sha1.Sum(res.Body)
		if res.Status != http.StatusOK || hex.EncodeToString(sum[:]) != c.SHA {
			t.Fatalf("/ipfs/%s: %d, sha1 %x, want %s", c.CID, res.Status, sum, c.SHA)
		}
	}

	// 6. A commit, its diff and patch.
	var single commitOut
	n.JSON("GET", base+"/git/commits/"+byPath[0].SHA, nil, nil, http.StatusOK, &single)
	if len(single.Files) != 2 || single.CID != byPath[0].CID {
		t.Fatalf("commit %+v", single)
	}
	diff := n.JSON("GET", base+"/git/commits/"+byPath[0].SHA+".diff", nil, nil, http.StatusOK, nil)
	if !strings.Contains(string(diff.Body), "+package main") || !strings.HasPrefix(string(diff.Body), "diff --git") {
		t.Fatalf("diff %s", diff.Body)
	}
	patch := n.JSON("GET", base+"/git/commits/"+byPath[0].SHA+".patch", nil, nil, http.StatusOK, nil)
	if !strings.HasPrefix(string(patch.Body), "From "+byPath[0].SHA) || !strings.Contains(string(patch.Body), "Subject: [PATCH] Add code") {
		t.Fatalf("patch %s", patch.Body)
	}
	var withDiff struct {
		Diff      string `json:"diff"`
		Truncated bool   `json:"diff_truncated"`
	}
	n.JSON("GET", base+"/git/commits/feature?diff=true", nil, nil, http.StatusOK, &withDiff)
	if !strings.Contains(withDiff.Diff, "+More.") || withDiff.Truncated {
		t.Fatalf("commit with diff %+v", withDiff)
	}

	// 7. Contents, raw, tree and README at a ref.
	var root []contentOut
	n.JSON("GET", base+"/contents?ref=feature", nil, nil, http.StatusOK, &root)
	names := []string{}
	for _, e := range root {
		names = append(names, e.Type+":"+e.Name)
	}
	if strings.Join(names, ",") != "dir:docs,dir:src,file:LICENSE,file:README.md" {
		t.Fatalf("root listing %v", names)
	}
	var file contentOut
	n.JSON("GET", base+"/contents/src/main.go?ref=feature", nil, nil, http.StatusOK, &file)
	if file.Type != "file" || file.Encoding == nil || *file.Encoding != "base64" || file.Content == nil || file.LastSHA != byPath[0].SHA {
		t.Fatalf("file %+v", file)
	}
	raw := n.JSON("GET", base+"/raw/src/main.go?ref=feature", nil, nil, http.StatusOK, nil)
	if string(raw.Body) != "package main\n\nfunc main() {}\n" || !strings.HasPrefix(raw.Header.Get("Content-Type"), "text/plain") ||
		raw.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("raw %q %v", raw.Body, raw.Header)
	}
	n.JSON("GET", base+"/raw/src/main.go", nil, nil, http.StatusNotFound, nil) // not on main
	var tree struct {
		Entries []struct {
			Path string `json:"path"`
			Type string `json:"type"`
		} `json:"tree"`
		Total int `json:"total_count"`
	}
	n.JSON("GET", base+"/git/trees/"+featureTip+"?recursive=true", nil, nil, http.StatusOK, &tree)
	if tree.Total != 6 { // LICENSE README.md docs docs/guide.md src src/main.go
		t.Fatalf("tree %+v", tree)
	}
	var readmeOut struct {
		Path string `json:"path"`
		HTML string `json:"html"`
	}
	n.JSON("GET", base+"/readme", nil, nil, http.StatusOK, &readmeOut)
	if readmeOut.Path != "README.md" || !strings.Contains(readmeOut.HTML, "<h1") || !strings.Contains(readmeOut.HTML, "Test hello") {
		t.Fatalf("readme %+v", readmeOut)
	}
	var refs []struct {
		Ref string `json:"ref"`
	}
	n.JSON("GET", base+"/git/refs/heads", nil, nil, http.StatusOK, &refs)
	if len(refs) != 2 {
		t.Fatalf("refs %+v", refs)
	}
	var contributors []struct {
		Name    string `json:"name"`
		Commits int    `json:"commits"`
	}
	n.JSON("GET", base+"/contributors?ref=feature", nil, nil, http.StatusOK, &contributors)
	if len(contributors) != 2 || contributors[0].Name != "Tester" || contributors[0].Commits != 3 {
		t.Fatalf("contributors %+v", contributors)
	}

	// 8. Binary and large files are described, not inlined; raw serves them.
	big := strings.Repeat("0123456789abcdef\n", 70_000) // > 1 MiB
	n.Commit(dir, "Add data", map[string]string{"data/big.txt": big, "data/logo.bin": "\x89PNG\x00\x01\x02"})
	n.Git(dir, "push", "--quiet", "origin", "feature")
	var bigOut, binOut contentOut
	n.JSON("GET", base+"/contents/data/big.txt?ref=feature", nil, nil, http.StatusOK, &bigOut)
	n.JSON("GET", base+"/contents/data/logo.bin?ref=feature", nil, nil, http.StatusOK, &binOut)
	if !bigOut.TooLarge || bigOut.Content != nil || bigOut.Encoding != nil || bigOut.Size != int64(len(big)) {
		t.Fatalf("large file %+v", bigOut)
	}
	if !binOut.Binary || binOut.Content != nil || binOut.Encoding != nil {
		t.Fatalf("binary file %+v", binOut)
	}
	if raw := n.JSON("GET", base+"/raw/data/big.txt?ref=feature", nil, nil, http.StatusOK, nil); string(raw.Body) != big {
		t.Fatalf("raw large file: %d bytes", len(raw.Body))
	}
}

func TestProtectedDefaultBranch(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	create(t, n, alice, "guarded", false)
	dir := n.Clone(n.Remote(alice, alice.Name(), "guarded"))
	tip := strings.TrimSpace(n.Git(dir, "rev-parse", "HEAD"))

	// A rewritten main is refused, with the reason.
	n.Git(dir, "commit", "--quiet", "--amend", "-m", "Rewritten")
	out, err := n.TryGit(dir, "push", "--force", "origin", "main")
	if err == nil || !strings.Contains(out, "protected") || !strings.Contains(out, "force-push") {
		t.Fatalf("force-push to main: %v\n%s", err, out)
	}
	out, err = n.TryGit(dir, "push", "origin", ":main")
	if err == nil || !strings.Contains(out, "cannot be deleted") {
		t.Fatalf("deleting main: %v\n%s", err, out)
	}
	var branch struct {
		Commit struct {
			ID string `json:"id"`
		} `json:"commit"`
	}
	n.JSON("GET", repoPath(alice, "guarded")+"/branches/main", nil, nil, http.StatusOK, &branch)
	if branch.Commit.ID != tip {
		t.Fatalf("main moved to %s", branch.Commit.ID)
	}
	// Other branches may be rewritten and deleted.
	n.Git(dir, "push", "--quiet", "origin", "HEAD:refs/heads/topic")
	n.Git(dir, "commit", "--quiet", "--amend", "-m", "Rewritten again")
	n.Git(dir, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/topic")
	n.Git(dir, "push", "--quiet", "origin", ":topic")
	// The owner can unprotect main; then a force-push goes through.
	n.JSON("PATCH", repoPath(alice, "guarded"), alice, map[string]any{"protected_branches": []string{}}, http.StatusOK, nil)
	n.Git(dir, "push", "--quiet", "--force", "origin", "main")
}

func TestPrivateRepositoryStaysHidden(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	forgeTxs := func() string {
		return n.JSON("GET", "/api/v1/chain/txs?type=Forge", nil, nil, http.StatusOK, nil).Header.Get("X-Total-Count")
	}
	before := forgeTxs()

	r := create(t, n, alice, "secret", true)
	if !r.Private || r.OnChain {
		t.Fatalf("private repo %+v", r)
	}
	base := repoPath(alice, "secret")
	n.JSON("GET", base, alice, nil, http.StatusOK, nil)
	for _, who := range []*forgetest.User{nil, bob} {
		for _, p := range []string{"", "/contents", "/raw/README.md", "/commits", "/branches", "/readme", "/counts"} {
			n.JSON("GET", base+p, who, nil, http.StatusNotFound, nil)
		}
	}
	// Git: the owner clones and pushes; others find nothing.
	dir := n.Clone(n.Remote(alice, alice.Name(), "secret"))
	tip := n.Commit(dir, "Secret work", map[string]string{"plan.txt": "hush\n"})
	n.Git(dir, "push", "--quiet", "origin", "main")
	if out, err := n.TryGit("", "clone", n.Remote(bob, alice.Name(), "secret"), filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("bob cloned a private repository: %v\n%s", err, out)
	}
	if _, err := n.TryGit("", "clone", n.Remote(nil, alice.Name(), "secret"), filepath.Join(t.TempDir(), "y")); err == nil {
		t.Fatal("an anonymous client cloned a private repository")
	}
	// Nothing of it on chain, and no blocks: its commits carry no CID. (The
	// private store has the first commit and the push.)
	updates, _, err := n.Index.RefUpdates(context.Background(), r.ID, index.Page{Number: 1, Limit: 10})
	if err != nil || len(updates) != 2 || updates[0].New != tip || strings.Trim(updates[1].Old, "0") != "" {
		t.Fatalf("private ref updates %+v %v", updates, err)
	}
	if after := forgeTxs(); after != before {
		t.Fatalf("forge transactions on chain went from %s to %s", before, after)
	}
	var commits []commitOut
	n.JSON("GET", base+"/commits", alice, nil, http.StatusOK, &commits)
	if len(commits) != 2 || commits[0].CID != "" {
		t.Fatalf("private commits %+v", commits)
	}
	var search struct {
		OK   bool      `json:"ok"`
		Data []repoOut `json:"data"`
	}
	n.JSON("GET", "/api/v1/repos/search?q=secret", bob, nil, http.StatusOK, &search)
	if !search.OK || len(search.Data) != 0 {
		t.Fatalf("bob's search %+v", search)
	}
	n.JSON("GET", "/api/v1/repos/search?q=secret", alice, nil, http.StatusOK, &search)
	if len(search.Data) != 1 {
		t.Fatalf("alice's search %+v", search)
	}
	// A collaborator reads it.
	n.JSON("PUT", base+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "read"}, http.StatusNoContent, nil)
	n.JSON("GET", base+"/contents/plan.txt", bob, nil, http.StatusOK, nil)
}

func TestRefusedInput(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	for _, name := range []string{"", "bad name", "..", "x.git", "a/b", strings.Repeat("x", 101), "ünïcode"} {
		res := n.Call("POST", "/api/v1/user/repos", alice, map[string]any{"name": name, "auto_init": true})
		if res.Status != http.StatusUnprocessableEntity {
			t.Errorf("name %q: %d %s", name, res.Status, res.Body)
		}
	}
	res := n.Call("POST", "/api/v1/user/repos", alice, map[string]any{"name": "ok", "default_branch": "bad..branch"})
	if res.Status != http.StatusUnprocessableEntity {
		t.Errorf("bad default branch: %d %s", res.Status, res.Body)
	}
	var mine []repoOut
	n.JSON("GET", "/api/v1/user/repos", alice, nil, http.StatusOK, &mine)
	if len(mine) != 0 {
		t.Fatalf("refused names left repositories: %+v", mine)
	}
	n.JSON("POST", "/api/v1/user/repos", nil, map[string]any{"name": "anon"}, http.StatusUnauthorized, nil)
	reader := n.NewUser("read")
	n.JSON("POST", "/api/v1/user/repos", reader, map[string]any{"name": "ro"}, http.StatusForbidden, nil)

	create(t, n, alice, "code", false)
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "CODE"}, http.StatusConflict, nil)
	base := repoPath(alice, "code")
	for _, p := range []string{
		"/contents/..%2F..%2Fetc%2Fpasswd", "/contents/%2e%2e/README.md", "/raw/a/%2E%2E/%2E%2E/x",
		"/contents/a%5Cb", "/media/.%2FREADME.md", "/contents/README.md?ref=../../x", "/contents?ref=--upload-pack=x",
		"/raw/README.md?ref=main:README.md", "/commits?path=../x", "/commits?sha=HEAD~1", "/readme?dir=/etc",
	} {
		if res := n.Call("GET", base+p, alice, nil); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", p, res.Status, res.Body)
		}
	}
	// A path with a NUL names nothing: 404 before any handler (issue 11).
	if res := n.Call("GET", base+"/raw/README.md%00", alice, nil); res.Status != http.StatusNotFound {
		t.Errorf("NUL in the path: %d %s", res.Status, res.Body)
	}
	// A literal ".." never reaches a file: the router cleans the path first.
	if res := n.Call("GET", base+"/raw/src/../../../../etc/passwd", alice, nil); res.Status == http.StatusOK {
		t.Errorf("literal ..: %d %s", res.Status, res.Body)
	}
	// Git failing after the record is written is the node's fault: a 500
	// that says so (here, a directory already where repository 2 goes).
	clash := filepath.Join(n.Dir, "git", strings.ToLower(alice.Address.Hex()), "2.git")
	if err := os.MkdirAll(clash, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(clash, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	var failed struct {
		Code string `json:"code"`
	}
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "clash"}, http.StatusInternalServerError, &failed)
	if failed.Code != "git_data_failed" {
		t.Fatalf("git failure answered %+v", failed)
	}
	for _, p := range []string{"/contents/missing.txt", "/raw/README.md?ref=nope", "/git/commits/0123456789abcdef0123456789abcdef01234567", "/branches/nope"} {
		if res := n.Call("GET", base+p, alice, nil); res.Status != http.StatusNotFound {
			t.Errorf("%s: %d %s", p, res.Status, res.Body)
		}
	}
}

func TestForkTransferStarDelete(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	src := create(t, n, alice, "lib", false)

	// Fork: bob's copy with its history and blocks.
	var fork repoOut
	n.JSON("POST", repoPath(alice, "lib")+"/forks", bob, map[string]any{}, http.StatusAccepted, &fork)
	if !fork.Fork || fork.Owner.Login != bob.Name() || fork.Parent == nil || fork.Parent.ID != src.ID {
		t.Fatalf("fork %+v", fork)
	}
	var forkCommits []commitOut
	n.JSON("GET", repoPath(bob, "lib")+"/commits", nil, nil, http.StatusOK, &forkCommits)
	if len(forkCommits) != 1 || n.Call("GET", "/ipfs/"+forkCommits[0].CID+"?format=raw", nil, nil).Status != http.StatusOK {
		t.Fatalf("fork commits %+v", forkCommits)
	}
	n.JSON("POST", repoPath(alice, "lib")+"/forks", alice, nil, http.StatusConflict, nil) // own repository

	// Stars and watches.
	n.JSON("PUT", "/api/v1/user/starred/"+alice.Name()+"/lib", bob, nil, http.StatusNoContent, nil)
	n.JSON("GET", "/api/v1/user/starred/"+alice.Name()+"/lib", bob, nil, http.StatusNoContent, nil)
	n.JSON("GET", "/api/v1/user/starred/"+alice.Name()+"/lib", carol, nil, http.StatusNotFound, nil)
	var gazers []struct {
		Login string `json:"login"`
	}
	n.JSON("GET", repoPath(alice, "lib")+"/stargazers", nil, nil, http.StatusOK, &gazers)
	if len(gazers) != 1 || gazers[0].Login != bob.Name() {
		t.Fatalf("stargazers %+v", gazers)
	}
	var watch struct {
		Subscribed bool `json:"subscribed"`
	}
	n.JSON("PUT", repoPath(alice, "lib")+"/subscription", carol, nil, http.StatusOK, &watch)
	n.JSON("GET", repoPath(alice, "lib")+"/subscription", carol, nil, http.StatusOK, nil)
	var got repoOut
	n.JSON("GET", repoPath(alice, "lib"), nil, nil, http.StatusOK, &got)
	if got.Stars != 1 || got.Forks != 1 || !watch.Subscribed {
		t.Fatalf("counters %+v", got)
	}

	// Collaborators: carol may push once she has write.
	dir := n.Clone(n.Remote(carol, alice.Name(), "lib"))
	n.Commit(dir, "Carol's change", map[string]string{"c.txt": "c\n"})
	if out, err := n.TryGit(dir, "push", "origin", "main"); err == nil {
		t.Fatalf("carol pushed without write permission:\n%s", out)
	}
	n.JSON("PUT", repoPath(alice, "lib")+"/collaborators/"+carol.Name(), bob, map[string]string{"permission": "write"}, http.StatusForbidden, nil)
	n.JSON("PUT", repoPath(alice, "lib")+"/collaborators/"+carol.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	n.JSON("GET", repoPath(alice, "lib")+"/collaborators/"+carol.Name(), nil, nil, http.StatusNoContent, nil)
	// A large push elsewhere just before keeps the blockstore's queue busy,
	// so the storage of carol's push still waits when the transfer below
	// moves the git data.
	create(t, n, alice, "bulk", false)
	bulk := n.Clone(n.Remote(alice, alice.Name(), "bulk"))
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("gen/%04d.txt", i)] = fmt.Sprintf("file %d\n", i)
	}
	n.Commit(bulk, "Many files", files)
	n.Git(bulk, "push", "--quiet", "origin", "main")
	n.Git(dir, "push", "--quiet", "origin", "main")

	// Transfer to carol: the repository and its git data move.
	var refusal struct{ Message, Code string }
	n.JSON("POST", repoPath(alice, "lib")+"/transfer", bob, map[string]string{"new_owner": carol.Name()}, http.StatusForbidden, &refusal)
	if refusal.Code != "forbidden" || refusal.Message != "only the repository's owner may transfer it" {
		t.Fatalf("a non-owner's transfer: %+v", refusal)
	}
	// The service decides permission before it reads the new owner.
	n.JSON("POST", repoPath(alice, "lib")+"/transfer", bob, map[string]string{"new_owner": "nobody-at-all"}, http.StatusForbidden, nil)
	n.JSON("POST", repoPath(alice, "lib")+"/transfer", alice, map[string]string{"new_owner": "nobody-at-all"}, http.StatusUnprocessableEntity, nil)
	res := n.WalletCall("POST", repoPath(alice, "lib")+"/transfer", alice, map[string]string{"new_owner": carol.Name()})
	if res.Status != http.StatusCreated {
		t.Fatalf("transfer signed by alice's wallet: %d %s, want 201 (an offer)", res.Status, res.Body)
	}
	n.JSON("POST", repoPath(alice, "lib")+"/transfer/accept", carol, nil, http.StatusAccepted, &got)
	if got.Owner.Login != carol.Name() {
		t.Fatalf("transferred %+v", got)
	}
	// Carol's push is still stored as blocks: the move waited for the
	// queued storage, which reads the old path.
	for _, line := range strings.Split(strings.TrimSpace(n.Git(dir, "rev-list", "--objects", "HEAD~1..HEAD")), "\n") {
		id, _, _ := strings.Cut(line, " ")
		if res := n.Call("GET", "/ipfs/"+blocks.CIDForGitObject(id).String()+"?format=raw", nil, nil); res.Status != http.StatusOK {
			t.Fatalf("object %s of carol's push: /ipfs answered %d", id, res.Status)
		}
	}
	n.JSON("GET", repoPath(alice, "lib"), nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", repoPath(carol, "lib")+"/contents/c.txt", nil, nil, http.StatusOK, nil)
	if _, err := os.Stat(filepath.Join(n.Dir, "git", strings.ToLower(carol.Address.Hex()), "1.git", "HEAD")); err != nil {
		t.Fatalf("git data not under the new owner: %v", err)
	}
	n.Clone(n.Remote(carol, carol.Name(), "lib"))

	// Delete: the owner alone; the fork lives on.
	n.JSON("DELETE", repoPath(carol, "lib"), bob, nil, http.StatusForbidden, nil)
	if res := n.WalletCall("DELETE", repoPath(carol, "lib"), carol, nil); res.Status != http.StatusNoContent {
		t.Fatalf("delete signed by carol's wallet: %d %s", res.Status, res.Body)
	}
	n.JSON("GET", repoPath(carol, "lib"), carol, nil, http.StatusNotFound, nil)
	if _, err := os.Stat(filepath.Join(n.Dir, "git", strings.ToLower(carol.Address.Hex()), "1.git")); !os.IsNotExist(err) {
		t.Fatalf("deleted repository's git data: %v", err)
	}
	n.Clone(n.Remote(bob, bob.Name(), "lib"))
}
