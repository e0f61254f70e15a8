package blocks_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"
	car "github.com/ipld/go-car/v2"

	"github.com/dforge/dforge/internal/blocks"
)

// The probe Kubo and Helia send before they use an HTTP provider.
func TestGatewayProbe(t *testing.T) {
	srv := httptest.NewServer(openStore(t, t.TempDir()).Gateway(nil))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		method, query, accept string
	}{
		{"GET", "?format=raw", ""},
		{"HEAD", "?format=raw", ""},
		{"GET", "", blocks.RawType},
		{"HEAD", "", blocks.RawType},
	} {
		res, body := request(t, srv, tc.method, "/ipfs/bafkqaaa"+tc.query, tc.accept)
		if res.StatusCode != 200 || len(body) != 0 {
			t.Errorf("%s probe %s %q: %d, %d bytes", tc.method, tc.query, tc.accept, res.StatusCode, len(body))
		}
	}
	// As a CAR: roots bafkqaaa, and no identity block (the spec forbids them).
	res, body := request(t, srv, "GET", "/ipfs/bafkqaaa?format=car", "")
	roots, got := readCAR(t, res, body)
	if !slices.Equal(roots, []cid.Cid{cid.MustParse("bafkqaaa")}) || len(got) != 0 {
		t.Fatalf("probe CAR: roots %v, %d blocks", roots, len(got))
	}
}

// CARs of a real repository: the walk sends commit, tree, the tree's
// entries depth-first in git's order, then the parents the same way, each
// block once; dag-scope=block and entity send the block alone.
func TestGatewayCAR(t *testing.T) {
	repo := sampleRepo(t)
	head := revParse(t, repo, "HEAD")
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "tag", "-a", "-m", "v1", "v1", head)
	tag := revParse(t, repo, "v1")

	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	// Queued like a push: the gateway waits for it before looking.
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{tag}}); err != nil {
		t.Fatal(err)
	}

	want := walkOrder(t, repo, head)
	if all := objectsOf(t, repo); len(want) != len(all)-1 { // all but the tag
		t.Fatalf("the walk order names %d objects, the repository has %d", len(want), len(all))
	}
	root := blocks.CIDForGitObject(head)
	for _, tc := range []struct {
		name, path, accept string
	}{
		{"?format=car", "/ipfs/" + root.String() + "?format=car", ""},
		{"Accept", "/ipfs/" + root.String(), blocks.CARType},
		{"dag-scope=all", "/ipfs/" + root.String() + "?format=car&dag-scope=all", ""},
		{"order=dfs, dups=n", "/ipfs/" + root.String(), blocks.CARType + "; version=1; order=dfs; dups=n"},
	} {
		res, body := request(t, srv, "GET", tc.path, tc.accept)
		if ct := res.Header.Get("Content-Type"); ct != "application/vnd.ipld.car; version=1; order=dfs; dups=n" {
			t.Errorf("%s: Content-Type %q", tc.name, ct)
		}
		roots, got := readCAR(t, res, body)
		if !slices.Equal(roots, []cid.Cid{root}) || !slices.Equal(got, cids(want)) {
			t.Fatalf("%s: roots %v, blocks\n%v\nwant\n%v", tc.name, roots, got, cids(want))
		}
	}

	tree := blocks.CIDForGitObject(revParse(t, repo, "HEAD^{tree}"))
	for _, tc := range []struct {
		path string
		want []cid.Cid
	}{
		{"/ipfs/" + root.String() + "?format=car&dag-scope=block", []cid.Cid{root}},
		{"/ipfs/" + root.String() + "?format=car&dag-scope=entity", []cid.Cid{root}},
		{"/ipfs/" + tree.String() + "?format=car&dag-scope=entity", []cid.Cid{tree}},
		// A path through the data model: the blocks that prove it, then the end.
		{"/ipfs/" + root.String() + "/tree/dir/hash?format=car&dag-scope=block", []cid.Cid{root, tree, blocks.CIDForGitObject(revParse(t, repo, "HEAD:dir"))}},
	} {
		res, body := request(t, srv, "GET", tc.path, "")
		if _, got := readCAR(t, res, body); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.path, got, tc.want)
		}
	}

	// Through a path, boxo walks the commit: the same order, after the tag.
	res, body := request(t, srv, "GET", "/ipfs/"+blocks.CIDForGitObject(tag).String()+"/object?format=car", "")
	if _, got := readCAR(t, res, body); !slices.Equal(got, append(cids([]string{tag}), cids(want)...)) {
		t.Fatalf("boxo's walk through /object:\n%v\nwant the tag, then\n%v", got, cids(want))
	}

	// A subtree's CAR is that subtree's walk.
	dir := revParse(t, repo, "HEAD:dir")
	res, body = request(t, srv, "GET", "/ipfs/"+blocks.CIDForGitObject(dir).String()+"?format=car", "")
	if _, got := readCAR(t, res, body); !slices.Equal(got, cids([]string{dir, revParse(t, repo, "HEAD:dir/sub"), revParse(t, repo, "HEAD:dir/sub/c.txt")})) {
		t.Errorf("subtree CAR: %v", got)
	}
}

// A long history comes whole, in first-parent order: the walk is neither
// bounded by boxo's 1,024 path segments (about 500 commits) nor quadratic.
func TestGatewayCARDeepHistory(t *testing.T) {
	const n = 800
	repo := gitRepo(t)
	var script strings.Builder
	for i := 1; i <= n; i++ {
		content := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&script, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1500000000+i)
		if i > 1 {
			fmt.Fprintf(&script, "from :%d\n", i-1)
		}
		fmt.Fprintf(&script, "M 100644 inline f.txt\ndata %d\n%s\n", len(content), content)
	}
	gitInput(t, repo, script.String(), "fast-import", "--quiet")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if _, err := s.ImportRepository(context.Background(), repo); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	head := revParse(t, repo, "main")
	res, body := request(t, srv, "GET", "/ipfs/"+blocks.CIDForGitObject(head).String()+"?format=car", "")
	_, got := readCAR(t, res, body)
	history := strings.Fields(git(t, repo, "rev-list", "--first-parent", "main"))
	if len(got) != 3*n || len(history) != n {
		t.Fatalf("%d blocks for %d commits", len(got), len(history))
	}
	for i, id := range history { // each commit, then its tree and blob
		if got[3*i] != blocks.CIDForGitObject(id) {
			t.Fatalf("block %d is %s, want commit %s", 3*i, got[3*i], id)
		}
	}
}

// HEAD answers as GET would, without a body, and without walking a CAR.
func TestGatewayHEAD(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "a\n")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if _, err := s.ImportRepository(context.Background(), repo); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	c := blocks.CIDForGitObject(head).String()
	missing := blocks.CIDForGitObject(strings.Repeat("ab", 20)).String()
	for _, tc := range []struct {
		path, contentType string
		status            int
	}{
		{"/ipfs/" + c + "?format=raw", blocks.RawType, 200},
		{"/ipfs/" + c + "?format=car", "application/vnd.ipld.car; version=1; order=dfs; dups=n", 200},
		{"/ipfs/" + missing + "?format=raw", "", 404},
		{"/ipfs/" + missing + "?format=car", "", 404},
		{"/ipns/example.com?format=raw", "", 501},
	} {
		res, body := request(t, srv, "HEAD", tc.path, "")
		if res.StatusCode != tc.status || len(body) != 0 || tc.contentType != "" && res.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("HEAD %s: %d %q, %d bytes", tc.path, res.StatusCode, res.Header.Get("Content-Type"), len(body))
		}
		if tc.status == 200 && res.Header.Get("Etag") == "" {
			t.Errorf("HEAD %s: no Etag", tc.path)
		}
	}
}

// What the spec says a trustless gateway answers besides blocks and CARs.
func TestGatewayRefusals(t *testing.T) {
	srv := httptest.NewServer(openStore(t, t.TempDir()).Gateway(nil))
	t.Cleanup(srv.Close)
	missing := blocks.CIDForGitObject(strings.Repeat("ab", 20)).String()
	for _, tc := range []struct {
		name, path, accept string
		status             int
	}{
		{"CAR of a missing root", "/ipfs/" + missing + "?format=car", "", 404},
		{"no format", "/ipfs/" + missing, "", 400},
		{"HTML", "/ipfs/" + missing, "text/html", 406},
		{"duplicates", "/ipfs/" + missing + "?format=car&car-dups=y", "", 406},
		{"duplicates in Accept", "/ipfs/" + missing, blocks.CARType + "; dups=y", 406},
		{"format wins over Accept's dups", "/ipfs/bafkqaaa?format=raw", blocks.CARType + "; dups=y", 200},
		{"unknown scope", "/ipfs/bafkqaaa?format=car&dag-scope=some", "", 400},
		{"IPNS name", "/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8?format=raw", "", 501},
		{"IPNS record", "/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8", "application/vnd.ipfs.ipns-record", 501},
		{"DNSLink", "/ipns/en.wikipedia-on-ipfs.org/wiki/?format=car", "", 501},
	} {
		res, _ := request(t, srv, "GET", tc.path, tc.accept)
		if res.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.status)
		}
	}
}

// sampleRepo is a repository with what a walk meets: nested trees, a
// submodule, a merge, and a blob in two places.
func sampleRepo(t *testing.T) string {
	t.Helper()
	repo := gitRepo(t)
	first := commitFile(t, repo, "b.txt", "one\n")
	if err := os.MkdirAll(filepath.Join(repo, "dir", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	commitFile(t, repo, "dir/sub/c.txt", "two\n")
	git(t, repo, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("5", 40)+",vendor")
	gitCommit(t, repo, "a submodule")
	git(t, repo, "checkout", "--quiet", "-b", "side", first)
	commitFile(t, repo, "a.txt", "side\n")
	git(t, repo, "checkout", "--quiet", "main")
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "--quiet", "--no-edit", "side")
	commitFile(t, repo, "dir/sub/c.txt", "one\n") // the blob of b.txt: sent once
	return repo
}

// walkOrder is the documented CAR order, from git's own listings: a commit,
// its tree (entries in ls-tree's order, subtrees whole), then its parents.
func walkOrder(t *testing.T, repo, commit string) []string {
	var order []string
	seen := map[string]bool{}
	emit := func(id string) bool {
		if seen[id] {
			return false
		}
		seen[id] = true
		order = append(order, id)
		return true
	}
	var tree func(id string)
	tree = func(id string) {
		if !emit(id) {
			return
		}
		for _, line := range strings.Split(strings.TrimSpace(git(t, repo, "ls-tree", id)), "\n") {
			f := strings.Fields(line) // mode type id\tname
			switch f[1] {
			case "tree":
				tree(f[2])
			case "blob":
				emit(f[2])
			}
		}
	}
	var walk func(id string)
	walk = func(id string) {
		if !emit(id) {
			return
		}
		tree(revParse(t, repo, id+"^{tree}"))
		for _, p := range strings.Fields(git(t, repo, "log", "-1", "--format=%P", id)) {
			walk(p)
		}
	}
	walk(commit)
	return order
}

func request(t *testing.T, srv *httptest.Server, method, path, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// readCAR decodes a CAR response, checking every block against its CID.
func readCAR(t *testing.T, res *http.Response, body []byte) ([]cid.Cid, []cid.Cid) {
	t.Helper()
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d %s", res.Request.URL, res.StatusCode, body)
	}
	br, err := car.NewBlockReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", res.Request.URL, err)
	}
	var got []cid.Cid
	for {
		b, err := br.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: block %d: %v", res.Request.URL, len(got), err)
		}
		got = append(got, b.Cid())
	}
	return br.Roots, got
}
