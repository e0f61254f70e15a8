package gitserver_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/repoaccess"
)

func TestCloneFetchShallowAndPartialClone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)

	// The owner pushes two more commits that change one file.
	work := h.clone(h.remote(alice, "alice", "proj"))
	h.commit(work, "add data", map[string]string{"data.txt": "first\n", "src/a.go": "package a\n"})
	head := h.commit(work, "change data", map[string]string{"data.txt": "second\n"})
	h.run(work, "push", "--quiet", "origin", "main")
	if got := h.refOf(r, "refs/heads/main"); got != head {
		t.Fatalf("server main = %q, want %s", got, head)
	}

	// Anyone clones a public repository; fetch brings new commits.
	anon := h.clone(h.remote(nil, "alice", "proj"))
	if got := strings.TrimSpace(h.run(anon, "rev-list", "--count", "HEAD")); got != "3" {
		t.Fatalf("clone has %s commits, want 3", got)
	}
	next := h.commit(work, "third", map[string]string{"data.txt": "third\n"})
	h.run(work, "push", "--quiet", "origin", "main")
	h.run(anon, "fetch", "--quiet", "origin")
	if got := strings.TrimSpace(h.run(anon, "rev-parse", "origin/main")); got != next {
		t.Fatalf("fetched origin/main = %s, want %s", got, next)
	}

	// Shallow: one commit, and the clone knows it is shallow.
	shallow := h.clone(h.remote(nil, "alice", "proj"), "--depth", "1")
	if got := strings.TrimSpace(h.run(shallow, "rev-list", "--count", "HEAD")); got != "1" {
		t.Fatalf("shallow clone has %s commits, want 1", got)
	}
	if _, err := os.Stat(filepath.Join(shallow, ".git", "shallow")); err != nil {
		t.Fatalf("shallow clone has no .git/shallow: %v", err)
	}
	h.run(shallow, "fetch", "--quiet", "--deepen", "1")
	if got := strings.TrimSpace(h.run(shallow, "rev-list", "--count", "HEAD")); got != "2" {
		t.Fatalf("deepened clone has %s commits, want 2", got)
	}

	// Partial: old blobs stay on the server until asked for.
	for _, proto := range []string{"2", "0"} {
		partial := h.clone(h.remote(nil, "alice", "proj"), "-c", "protocol.version="+proto, "--filter=blob:none")
		if got := strings.TrimSpace(h.run(partial, "config", "remote.origin.partialclonefilter")); got != "blob:none" {
			t.Fatalf("protocol %s: partial clone filter = %q", proto, got)
		}
		missing := h.run(partial, "rev-list", "--objects", "--all", "--missing=print")
		if !strings.Contains(missing, "?") {
			t.Fatalf("protocol %s: a blob:none clone should miss old blobs; rev-list says:\n%s", proto, missing)
		}
		// Reading an old version fetches its blob on demand.
		if got := h.run(partial, "-c", "protocol.version="+proto, "show", "HEAD~1:data.txt"); got != "second\n" {
			t.Fatalf("protocol %s: lazily fetched blob = %q", proto, got)
		}
	}
}

func TestProtocolV2PassesThrough(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	main := h.refOf(r, "refs/heads/main")

	for _, proto := range []string{"2", "1", "0"} {
		out := h.run("", "-c", "protocol.version="+proto, "ls-remote", h.remote(nil, "alice", "proj"))
		if !strings.Contains(out, main+"\trefs/heads/main") {
			t.Fatalf("protocol %s ls-remote:\n%s", proto, out)
		}
	}
	// On the wire: v2 gets the capability advertisement and no service line.
	res, body := h.get("/alice/proj.git/info/refs?service=git-upload-pack", map[string]string{"Git-Protocol": "version=2"})
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-git-upload-pack-advertisement" {
		t.Fatalf("v2 info/refs: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !bytes.HasPrefix(body, []byte("000eversion 2\n")) || bytes.Contains(body, []byte("# service=")) {
		t.Fatalf("v2 advertisement starts %q", body[:min(len(body), 40)])
	}
	res, body = h.get("/alice/proj/info/refs?service=git-upload-pack", nil) // .git is optional
	if res.StatusCode != 200 || !bytes.HasPrefix(body, []byte("001e# service=git-upload-pack\n0000")) {
		t.Fatalf("v0 info/refs: %d %q", res.StatusCode, body[:min(len(body), 40)])
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
		t.Fatalf("info/refs Cache-Control = %q", cc)
	}
}

func TestPushNeedsAWriteToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.user(), h.user()
	reader := h.user("read")
	r := h.repo(alice, "alice", "proj", false, false)
	h.repos.addWriter(r, reader)
	before := h.refOf(r, "refs/heads/main")

	work := h.clone(h.remote(nil, "alice", "proj"))
	h.commit(work, "change", map[string]string{"x.txt": "x\n"})

	// Anonymous: challenged, so git would ask for credentials.
	out, err := h.try(work, "push", h.remote(nil, "alice", "proj"), "main")
	if err == nil || !strings.Contains(out, "Authentication failed") && !strings.Contains(out, "could not read Username") {
		t.Fatalf("anonymous push: err %v\n%s", err, out)
	}
	res, _ := h.get("/alice/proj.git/info/refs?service=git-receive-pack", nil)
	if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") != `Basic realm="dForge"` {
		t.Fatalf("anonymous receive-pack advertisement: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	// A wrong token is challenged again.
	res, _ = h.get("/alice/proj.git/info/refs?service=git-receive-pack", basic(&tester{token: strings.Repeat("ab", 20)}))
	if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("bad token: %d", res.StatusCode)
	}
	// Someone who may read but not write is told so.
	out, err = h.try(work, "push", h.remote(bob, "alice", "proj"), "main")
	if err == nil || !strings.Contains(out, "403") {
		t.Fatalf("stranger's push: err %v\n%s", err, out)
	}
	// A read-only token cannot push, though its user could.
	out, err = h.try(work, "push", h.remote(reader, "alice", "proj"), "main")
	if err == nil || !strings.Contains(out, "403") {
		t.Fatalf("read-token push: err %v\n%s", err, out)
	}
	// ... but it can fetch (upload-pack is a POST too).
	h.clone(h.remote(reader, "alice", "proj"))
	if got := h.refOf(r, "refs/heads/main"); got != before {
		t.Fatalf("refused pushes moved main to %s", got)
	}
	// The owner's token pushes, and the forge hears of it.
	h.run(work, "push", "--quiet", h.remote(alice, "alice", "proj"), "main")
	pushes := h.repos.pushesTo(r)
	if len(pushes) != 1 || pushes[0].user != alice.addr || len(pushes[0].updates) != 1 {
		t.Fatalf("pushes recorded: %+v", pushes)
	}
	u := pushes[0].updates[0]
	if u.Ref != "refs/heads/main" || u.Old != before || u.New != h.refOf(r, "refs/heads/main") || u.Forced {
		t.Fatalf("recorded update %+v", u)
	}
}

func TestPrivateRepositoryIsInvisible(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.user(), h.user()
	r := h.repo(alice, "alice", "secret", true, false)

	// A stranger with a valid token: 404, exactly as for no repository.
	for _, path := range []string{"/alice/secret.git/info/refs?service=git-upload-pack", "/alice/secret.git/info/refs?service=git-receive-pack"} {
		res, body := h.get(path, basic(bob))
		missing, missingBody := h.get(strings.Replace(path, "secret", "nothing", 1), basic(bob))
		if res.StatusCode != 404 || missing.StatusCode != 404 || !bytes.Equal(body, missingBody) {
			t.Fatalf("%s as a stranger: %d %q (missing repo: %d %q)", path, res.StatusCode, body, missing.StatusCode, missingBody)
		}
		// Anonymous: the same challenge as for no repository.
		res, body = h.get(path, nil)
		missing, missingBody = h.get(strings.Replace(path, "secret", "nothing", 1), nil)
		if res.StatusCode != 401 || missing.StatusCode != 401 || !bytes.Equal(body, missingBody) {
			t.Fatalf("%s anonymously: %d (missing repo: %d)", path, res.StatusCode, missing.StatusCode)
		}
	}
	if out, err := h.try("", "clone", h.remote(bob, "alice", "secret"), filepath.Join(t.TempDir(), "c")); err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("stranger's clone: err %v\n%s", err, out)
	}
	if out, err := h.try("", "clone", h.remote(nil, "alice", "secret"), filepath.Join(t.TempDir(), "c")); err == nil {
		t.Fatalf("anonymous clone succeeded:\n%s", out)
	}

	// The owner clones and pushes; nothing of it reaches the blockstore.
	work := h.clone(h.remote(alice, "alice", "secret"))
	head := h.commit(work, "private work", map[string]string{"plan.txt": "top secret\n"})
	h.run(work, "push", "--quiet", "origin", "main")
	if h.refOf(r, "refs/heads/main") != head {
		t.Fatal("owner's push to the private repository did not land")
	}
	h.settleBlocks()
	for _, id := range strings.Fields(h.run(r.Path, "rev-list", "--objects", "--all")) {
		if len(id) == 40 && h.blocks.HasGitObject(id) {
			t.Fatalf("object %s of a private repository is in the blockstore", id)
		}
	}
	res, _ := h.get("/ipfs/"+blocks.CIDForGitObject(head).String()+"?format=raw", nil)
	if res.StatusCode != 404 {
		t.Fatalf("private commit via /ipfs: %d", res.StatusCode)
	}
	if len(h.repos.pushesTo(r)) != 1 {
		t.Fatal("the private push was not recorded")
	}
}

func TestPreReceiveRefusesForcePushToProtectedBranch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	work := h.clone(h.remote(alice, "alice", "proj"))
	h.commit(work, "one", map[string]string{"a.txt": "1\n"})
	h.run(work, "push", "--quiet", "origin", "main")
	main := h.refOf(r, "refs/heads/main")

	// Rewrite history and force-push: refused, with the forge's reason.
	h.run(work, "reset", "--quiet", "--hard", "HEAD~1")
	h.commit(work, "rewritten", map[string]string{"b.txt": "2\n"})
	out, err := h.try(work, "push", "--force", "origin", "main")
	if err == nil {
		t.Fatalf("force-push to main succeeded:\n%s", out)
	}
	if !strings.Contains(out, "remote: dforge: Force-pushing to or deleting main is not allowed: it is a protected branch.") ||
		!strings.Contains(out, "pre-receive hook declined") {
		t.Fatalf("force-push refusal should explain itself:\n%s", out)
	}
	// Deleting it is refused too.
	if out, err := h.try(work, "push", "origin", ":main"); err == nil || !strings.Contains(out, "protected branch") {
		t.Fatalf("deleting main: err %v\n%s", err, out)
	}
	if got := h.refOf(r, "refs/heads/main"); got != main {
		t.Fatalf("refused pushes moved main from %s to %s", main, got)
	}

	// Other branches may be rewritten and deleted; the forge is told which
	// updates were forced.
	h.run(work, "push", "--quiet", "origin", "HEAD:refs/heads/topic")
	h.run(work, "reset", "--quiet", "--hard", "HEAD~1")
	h.commit(work, "topic again", map[string]string{"c.txt": "3\n"})
	h.run(work, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/topic")
	h.run(work, "push", "--quiet", "origin", ":topic")
	pushes := h.repos.pushesTo(r)
	if len(pushes) != 4 {
		t.Fatalf("want 4 recorded pushes, got %+v", pushes)
	}
	created, forced, deleted := pushes[1].updates[0], pushes[2].updates[0], pushes[3].updates[0]
	if !created.Created() || created.Forced || !forced.Forced || forced.Created() || !deleted.Deleted() || !deleted.Forced {
		t.Fatalf("updates: created %+v, forced %+v, deleted %+v", created, forced, deleted)
	}
}

func TestPushedObjectsAreServedAsVerifiableBlocks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	work := h.clone(h.remote(alice, "alice", "proj"))
	h.commit(work, "code", map[string]string{"main.go": "package main\n", "docs/guide.md": "# Guide\n"})
	h.run(work, "tag", "-a", "v1.0", "-m", "release 1.0")
	h.run(work, "push", "--quiet", "origin", "main", "v1.0")

	// Every object of the repository, the tag object included.
	ids := strings.Fields(h.run(r.Path, "rev-list", "--objects", "--all"))
	tag := strings.TrimSpace(h.run(r.Path, "rev-parse", "refs/tags/v1.0"))
	ids = append(ids, tag)
	checked := 0
	for _, id := range ids {
		if len(id) != 40 {
			continue // a path from rev-list
		}
		c := blocks.CIDForGitObject(id)
		res, body := h.get("/ipfs/"+c.String()+"?format=raw", nil)
		if res.StatusCode != 200 {
			t.Fatalf("block of %s: %d %s", id, res.StatusCode, body)
		}
		verifyBlock(t, h, r, c, id, body)
		checked++
	}
	if checked < 7 { // 2 commits, 3 trees, 3 blobs, 1 tag
		t.Fatalf("checked only %d objects", checked)
	}
	// The trustless gateway headers, and Accept works as well as ?format.
	res, _ := h.get("/ipfs/"+blocks.CIDForGitObject(tag).String(), map[string]string{"Accept": "application/vnd.ipld.raw"})
	c := blocks.CIDForGitObject(tag).String()
	want := map[string]string{
		"Content-Type": "application/vnd.ipld.raw", "X-Content-Type-Options": "nosniff",
		"Cache-Control": "public, max-age=29030400, immutable", "Etag": `"` + c + `.raw"`, "X-Ipfs-Path": "/ipfs/" + c,
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

// verifyBlock checks a fetched block as an IPFS client would: it hashes to
// the CID, and its "<type> <size>\x00" header matches the object.
func verifyBlock(t *testing.T, h *harness, r repoaccess.Repo, c cid.Cid, id string, body []byte) {
	t.Helper()
	sum := sha1.Sum(body)
	if c.Type() != blocks.GitRaw || hex.EncodeToString(sum[:]) != id {
		t.Fatalf("block %s does not hash to its CID", c)
	}
	header, content, ok := bytes.Cut(body, []byte{0})
	typ, size, _ := strings.Cut(string(header), " ")
	n, err := strconv.Atoi(size)
	if !ok || err != nil || n != len(content) {
		t.Fatalf("block %s has a bad header %q", c, header)
	}
	if want := strings.TrimSpace(h.run(r.Path, "cat-file", "-t", id)); typ != want {
		t.Fatalf("block %s says type %s, git says %s", c, typ, want)
	}
}

func TestLargePushes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "big", false, false)
	work := h.clone(h.remote(alice, "alice", "big"))

	// One 50 MB file of random (incompressible) bytes.
	big := filepath.Join(work, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(f, rand.Reader, 50<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	h.run(work, "add", "big.bin")
	h.run(work, "commit", "--quiet", "-m", "a big file")
	h.run(work, "push", "--quiet", "origin", "main")
	blob := strings.TrimSpace(h.run(work, "rev-parse", "HEAD:big.bin"))
	if h.refOf(r, "refs/heads/main") != strings.TrimSpace(h.run(work, "rev-parse", "HEAD")) {
		t.Fatal("the 50 MB push did not land")
	}
	// Its block streams back and verifies.
	res, err := http.Get(h.srv.URL + "/ipfs/" + blocks.CIDForGitObject(blob).String() + "?format=raw")
	if err != nil {
		t.Fatal(err)
	}
	hash := sha1.New()
	n, err := io.Copy(hash, res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 || hex.EncodeToString(hash.Sum(nil)) != blob || n != 50<<20+int64(len("blob 52428800\x00")) {
		t.Fatalf("50 MB block: status %d, %d bytes, err %v", res.StatusCode, n, err)
	}

	// A repository of thousands of objects over many commits.
	for c := range 20 {
		files := map[string]string{}
		for i := range 200 {
			b := make([]byte, 4096)
			rand.Read(b)
			files[fmt.Sprintf("dir%02d/file%03d.txt", c, i)] = hex.EncodeToString(b)
		}
		h.commit(work, fmt.Sprintf("batch %d", c), files)
	}
	h.run(work, "push", "--quiet", "origin", "main")
	h.settleBlocks() // the blocks are stored after the push returns
	ids := strings.Fields(h.run(r.Path, "rev-list", "--objects", "--all"))
	objects := 0
	for _, id := range ids {
		if len(id) == 40 {
			objects++
			if !h.blocks.HasGitObject(id) {
				t.Fatalf("object %s was pushed but not stored as a block", id)
			}
		}
	}
	if objects < 4000 {
		t.Fatalf("only %d objects", objects)
	}
	// And it clones back whole.
	clone := h.clone(h.remote(nil, "alice", "big"))
	h.run(clone, "fsck", "--no-progress")
}

func TestGzipRequestBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	main := h.refOf(r, "refs/heads/main")
	request := pkt("want "+main+" side-band-64k ofs-delta\n") + "0000" + pkt("done\n")

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(request))
	zw.Close()
	for _, tc := range []struct {
		name     string
		body     []byte
		encoding string
		status   int
	}{
		{"plain", []byte(request), "", 200},
		{"gzip", gz.Bytes(), "gzip", 200},
		{"not gzip", []byte(request), "gzip", 400},
		{"unknown encoding", []byte(request), "br", 400},
	} {
		req, _ := http.NewRequest("POST", h.srv.URL+"/alice/proj.git/git-upload-pack", bytes.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
		if tc.encoding != "" {
			req.Header.Set("Content-Encoding", tc.encoding)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("%s: status %d: %s", tc.name, res.StatusCode, body)
		}
		if tc.status == 200 && (res.Header.Get("Content-Type") != "application/x-git-upload-pack-result" || !bytes.Contains(body, []byte("PACK"))) {
			t.Fatalf("%s: no pack in the answer: %q", tc.name, body[:min(len(body), 80)])
		}
	}
}

func TestMalformedRequestIsTheClientsMistake(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	h.repo(alice, "alice", "proj", false, false)
	for _, tc := range []struct {
		service string
		user    *tester
	}{
		{"git-upload-pack", nil}, // anyone may, on a public repository
		{"git-receive-pack", alice},
	} {
		req, _ := http.NewRequest("POST", h.srv.URL+"/alice/proj.git/"+tc.service, strings.NewReader("hello"))
		req.Header.Set("Content-Type", "application/x-"+tc.service+"-request")
		if tc.user != nil {
			req.SetBasicAuth("git", tc.user.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") ||
			!bytes.Contains(body, []byte("protocol error: bad line length character: hell")) {
			t.Fatalf("%s: status %d (%s): %q", tc.service, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	if logs := h.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Fatalf("a client's mistake was logged as an error:\n%s", logs)
	}
}

// TestGzipBodiesGitDoesNotReadOrThatAreTooLarge sends gzip bodies that are
// small on the wire and large inflated: one git stops reading early, one
// past the bound of an inflated upload-pack request.
func TestGzipBodiesGitDoesNotReadOrThatAreTooLarge(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	main := h.refOf(r, "refs/heads/main")

	// 200 MiB of '0' (200 KiB as gzip): git reads flush packets, and ends
	// after the first.
	zeros := gzipMembers(strings.Repeat("0", 1<<20), 200)
	// 80 MiB of wants, all of which git would read.
	wants := gzipMembers(strings.Repeat(pkt("want "+main+"\n"), 1<<20/50), 80)
	for _, tc := range []struct {
		name    string
		body    []byte
		chunked bool
		status  int
	}{
		{"zeros", zeros, false, 400},
		{"zeros, chunked", zeros, true, 400},
		{"wants past the bound", wants, false, 413},
	} {
		// The panic this guards against came or not with the timing: try
		// a few times, on one connection.
		for range 3 {
			var body io.Reader = bytes.NewReader(tc.body)
			if tc.chunked {
				body = io.MultiReader(body) // no length known: sent chunked
			}
			req, _ := http.NewRequest("POST", h.srv.URL+"/alice/proj.git/git-upload-pack", body)
			req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
			req.Header.Set("Content-Encoding", "gzip")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			out, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("%s: status %d: %q", tc.name, res.StatusCode, out)
			}
		}
	}
	if p := h.panics.String(); p != "" {
		t.Fatalf("the HTTP server logged:\n%s", p)
	}
	if logs := h.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Fatalf("a client's mistake was logged as an error:\n%s", logs)
	}
	// The repository still serves.
	h.clone(h.remote(nil, "alice", "proj"))
}

// TestStalledBodyAfterGitEnded: git has ended, the client still holds
// its body open. The handler stops waiting after a grace period, and the
// connection, with a body half read, serves no other request.
func TestStalledBodyAfterGitEnded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	h.repo(alice, "alice", "proj", false, false)
	for _, tc := range []struct {
		name, protocol, body string
		status               int
	}{
		// git reads a flush, answers nothing and ends: the status is open.
		{"no answer", "", "0000", 408},
		// git answers ls-refs and ends: only dropping the connection is left.
		{"answered", "version=2", pkt("command=ls-refs\n") + "0000", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// A chunked body that never ends.
			fmt.Fprintf(conn, "POST /alice/proj.git/git-upload-pack HTTP/1.1\r\nHost: x\r\n"+
				"Content-Type: application/x-git-upload-pack-request\r\nGit-Protocol: %s\r\n"+
				"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", tc.protocol, len(tc.body), tc.body)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := io.ReadAll(res.Body)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d: %q", res.StatusCode, out)
			}
			if tc.status == 408 && (err != nil || !res.Close) {
				t.Fatalf("the answer should be whole (%v) and close the connection (%v)", err, res.Close)
			}
			if tc.status == 200 && (err == nil || !bytes.Contains(out, []byte("refs/heads/main"))) {
				t.Fatalf("the answer should be cut off after the refs (%v): %q", err, out)
			}
		})
	}
}

// gzipMembers is s gzipped, n times over: one gzip body of s repeated.
func gzipMembers(s string, n int) []byte {
	var one bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&one, gzip.BestCompression)
	zw.Write([]byte(s))
	zw.Close()
	return bytes.Repeat(one.Bytes(), n)
}

func TestMalformedPackIsRefusedCleanly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	main := h.refOf(r, "refs/heads/main")

	// A real pack of a new commit, to send whole and truncated.
	work := h.clone(h.remote(alice, "alice", "proj"))
	next := h.commit(work, "next", map[string]string{"n.txt": strings.Repeat("data ", 1000)})
	pack := packOf(t, h, work, next, main)

	for _, tc := range []struct {
		name string
		pack []byte
	}{
		{"garbage", []byte("PACK\x00\x00\x00\x02\x00\x00\x00\x03this is not a pack at all")},
		{"truncated", pack[:len(pack)/2]},
		{"bad checksum", append(append([]byte{}, pack[:len(pack)-1]...), pack[len(pack)-1]^0xff)},
		{"no pack", nil},
	} {
		body := pkt(main+" "+next+" refs/heads/main\x00report-status\n") + "0000" + string(tc.pack)
		req, _ := http.NewRequest("POST", h.srv.URL+"/alice/proj.git/git-receive-pack", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-git-receive-pack-request")
		req.SetBasicAuth("git", alice.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// git reports the failure in the protocol: "unpack <error>", "ng <ref>".
		if res.StatusCode != 200 || bytes.Contains(out, []byte("unpack ok")) || !bytes.Contains(out, []byte("ng refs/heads/main")) {
			t.Fatalf("%s: status %d, answer %q", tc.name, res.StatusCode, out)
		}
		if got := h.refOf(r, "refs/heads/main"); got != main {
			t.Fatalf("%s: main moved to %s", tc.name, got)
		}
	}
	// Nothing half-written: the repository is sound and takes the real push.
	h.run(r.Path, "fsck", "--no-progress")
	if leftovers, _ := filepath.Glob(filepath.Join(r.Path, "objects", "incoming-*")); len(leftovers) > 0 {
		t.Fatalf("quarantine left behind: %v", leftovers)
	}
	h.settleBlocks()
	if h.blocks.HasGitObject(next) {
		t.Fatal("a refused push's commit was stored as a block")
	}
	h.run(work, "push", "--quiet", "origin", "main")
	if h.refOf(r, "refs/heads/main") != next {
		t.Fatal("the good push after the bad ones did not land")
	}
}

// packOf is the pack a push of want over have would send.
func packOf(t *testing.T, h *harness, dir, want, have string) []byte {
	t.Helper()
	cmd := h.gitCmd(dir, "pack-objects", "--stdout", "--revs", "--quiet")
	cmd.Stdin = strings.NewReader(want + "\n^" + have + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPathTraversalIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	h.repo(alice, "alice", "proj", false, false)
	for _, path := range []string{
		"/../x.git/info/refs?service=git-upload-pack",
		"/%2e%2e/x.git/info/refs?service=git-upload-pack",
		"/alice/%2e%2e/info/refs?service=git-upload-pack",
		"/alice/..%2f..%2fetc.git/info/refs?service=git-upload-pack",
		"/a%2Fb/proj.git/info/refs?service=git-upload-pack",
		"/alice/.git/info/refs?service=git-upload-pack",
		"/alice/../git-upload-pack",
		"/./proj.git/info/refs?service=git-upload-pack",
	} {
		status := rawGet(t, h, path)
		if status != http.StatusBadRequest {
			t.Errorf("GET %s: %d, want 400", path, status)
		}
	}
	for _, name := range h.repos.resolvedNames() {
		if strings.Contains(name, "..") || strings.Count(name, "/") != 1 || strings.Contains(name, "%") {
			t.Errorf("a traversal reached the repository lookup as %q", name)
		}
	}
	// Dumb HTTP and unknown services are not served.
	if res, _ := h.get("/alice/proj.git/info/refs", nil); res.StatusCode != 403 {
		t.Errorf("dumb info/refs: %d", res.StatusCode)
	}
	if res, _ := h.get("/alice/proj.git/info/refs?service=git-upload-archive", nil); res.StatusCode != 403 {
		t.Errorf("upload-archive: %d", res.StatusCode)
	}
	if res, _ := h.get("/alice/proj.git/git-upload-pack", nil); res.StatusCode != 405 {
		t.Errorf("GET upload-pack: %d", res.StatusCode)
	}
}

// rawGet sends a request line exactly as written (Go's client would not
// send some of these paths as they are) and returns the status.
func rawGet(t *testing.T, h *harness, path string) int {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }
