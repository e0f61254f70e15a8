package blocks_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"
	"github.com/ipld/go-ipld-prime"
	"github.com/ipld/go-ipld-prime/datamodel"
	cidlink "github.com/ipld/go-ipld-prime/linking/cid"
	"github.com/ipld/go-ipld-prime/node/basicnode"
	"github.com/ipld/go-ipld-prime/traversal"

	"github.com/dforge/dforge/internal/blocks"
)

// The git-raw decoder, registered for 0x78, reads what git wrote: commits
// link their tree then their parents, trees their entries in git's order
// (a submodule's commit is text, not a link), tags their object, and a
// blob is its block's bytes.
func TestGitRawDecoder(t *testing.T) {
	repo := gitRepo(t)
	first := commitFile(t, repo, "a.txt", "one\n")
	if err := os.MkdirAll(filepath.Join(repo, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	commitFile(t, repo, "dir/b.txt", "two\n")
	// A submodule: a gitlink to a commit that is not in this repository.
	sub := strings.Repeat("5", 40)
	git(t, repo, "update-index", "--add", "--cacheinfo", "160000,"+sub+",vendor")
	git(t, repo, "branch", "side", first)
	gitCommit(t, repo, "with a submodule")
	git(t, repo, "checkout", "--quiet", "side")
	commitFile(t, repo, "c.txt", "three\n")
	git(t, repo, "checkout", "--quiet", "main")
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "--quiet", "--no-edit", "side")
	merge := revParse(t, repo, "HEAD")
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "tag", "-a", "-m", "release\n", "v1", merge)

	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if _, err := s.ImportRepository(context.Background(), repo); err != nil {
		t.Fatal(err)
	}
	load := linkSystem(s)

	// The merge commit: tree first, then both parents in order.
	commit := load(t, merge)
	wantLinks := []string{revParse(t, repo, "HEAD^{tree}"), revParse(t, repo, "HEAD^1"), revParse(t, repo, "HEAD^2")}
	if got := linksOf(t, commit); !slices.Equal(got, cids(wantLinks)) {
		t.Fatalf("merge commit links %v, want %v", got, cids(wantLinks))
	}
	if msg := str(t, commit, "message"); msg != "Merge branch 'side'\n" {
		t.Errorf("message %q", msg)
	}
	author, _ := commit.LookupByString("author")
	if str(t, author, "name") != "T" || str(t, author, "email") != "t@example.com" || str(t, author, "timezone") == "" || str(t, author, "date") == "" {
		t.Errorf("author %v", author)
	}

	// The root tree: git's entry order, modes as git writes them.
	tree := load(t, revParse(t, repo, "HEAD^{tree}"))
	var names []string
	for it := tree.MapIterator(); !it.Done(); {
		k, v, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		name, _ := k.AsString()
		names = append(names, name+":"+str(t, v, "mode"))
	}
	if want := []string{"a.txt:100644", "c.txt:100644", "dir:40000", "vendor:160000"}; !slices.Equal(names, want) {
		t.Fatalf("tree entries %v, want %v", names, want)
	}
	vendor, _ := tree.LookupByString("vendor")
	if str(t, vendor, "hash") != sub {
		t.Errorf("the submodule's commit should stay text: %v", vendor)
	}
	wantLinks = []string{revParse(t, repo, "HEAD:a.txt"), revParse(t, repo, "HEAD:c.txt"), revParse(t, repo, "HEAD:dir")}
	if got := linksOf(t, tree); !slices.Equal(got, cids(wantLinks)) {
		t.Fatalf("tree links %v, want %v (no link to the submodule)", got, cids(wantLinks))
	}

	// The annotated tag links its commit.
	tag := load(t, revParse(t, repo, "v1"))
	if got := linksOf(t, tag); !slices.Equal(got, cids([]string{merge})) || str(t, tag, "tag") != "v1" || str(t, tag, "type") != "commit" || str(t, tag, "message") != "release\n" {
		t.Fatalf("tag: links %v, %v", got, tag)
	}

	// The CAR walk reads links without building nodes: the same, in order.
	for _, id := range objectsOf(t, repo) {
		data, err := s.Get(blocks.CIDForGitObject(id))
		if err != nil {
			t.Fatal(err)
		}
		got, err := blocks.GitLinks(data)
		if want := linksOf(t, load(t, id)); err != nil || !slices.Equal(got, want) {
			t.Fatalf("links of %s: %v %v, the node's %v", id, got, err, want)
		}
	}

	// A blob is its whole block, with no links.
	blobID := revParse(t, repo, "HEAD:a.txt")
	blob := load(t, blobID)
	if b, err := blob.AsBytes(); err != nil || string(b) != "blob 4\x00one\n" {
		t.Fatalf("blob: %q %v", b, err)
	}
}

// Header lines git writes less often: a signature over several lines, an
// encoding, and ones this decoder does not name, kept in "other".
func TestGitRawDecoderCommitHeaders(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "x\n")
	tree := revParse(t, repo, "HEAD^{tree}")
	raw := "tree " + tree + "\n" +
		"parent " + head + "\n" +
		"author A U Thor <a@example.com> 1503667703 +0200\n" +
		"committer C O Mitter <c@example.com> 1503667704 -0130\n" +
		"encoding ISO-8859-1\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBcBAABCAAQBQJ\n -----END PGP SIGNATURE-----\n" +
		"x-custom some value\n" +
		"\nsubject\n\nbody\n"
	id := strings.TrimSpace(gitInput(t, repo, raw, "hash-object", "-t", "commit", "-w", "--stdin"))
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if _, err := s.ImportObjects(context.Background(), repo, []string{id}, nil); err != nil {
		t.Fatal(err)
	}
	n := linkSystem(s)(t, id)
	if got := str(t, n, "signature"); got != "-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJ\n-----END PGP SIGNATURE-----" {
		t.Errorf("signature %q", got)
	}
	if str(t, n, "encoding") != "ISO-8859-1" || str(t, n, "message") != "subject\n\nbody\n" {
		t.Errorf("encoding or message: %v", n)
	}
	committer, _ := n.LookupByString("committer")
	if str(t, committer, "name") != "C O Mitter" || str(t, committer, "date") != "1503667704" || str(t, committer, "timezone") != "-0130" {
		t.Errorf("committer %v", committer)
	}
	other, _ := n.LookupByString("other")
	if o, _ := other.LookupByIndex(0); other.Length() != 1 || o == nil {
		t.Fatalf("other %v", other)
	} else if v, _ := o.AsString(); v != "x-custom some value" {
		t.Errorf("other[0] %q", v)
	}
}

// A block that is not a well-formed git object does not decode.
func TestGitRawDecoderRefusesBrokenObjects(t *testing.T) {
	loose := func(kind, body string) string { return kind + " " + strconv.Itoa(len(body)) + "\x00" + body }
	for name, tc := range map[string]struct{ data, err string }{
		"no header":       {"blob", "no object header"},
		"size lies":       {"blob 5\x00hey", "the object has 3"},
		"unknown type":    {loose("thing", ""), "unknown object type"},
		"truncated tree":  {loose("tree", "100644 a\x00abcdef"), "truncated tree entry"},
		"tree no mode":    {loose("tree", "abc"), "without a mode"},
		"repeated name":   {loose("tree", "100644 a\x00"+strings.Repeat("x", 20)+"100644 a\x00"+strings.Repeat("y", 20)), "twice"},
		"commit bad tree": {loose("commit", "tree xyz\n\n"), "names tree"},
		"bad parent":      {loose("commit", "tree "+emptyBlob+"\nparent 12\n\n"), "names parent"},
		"tag bad object":  {loose("tag", "object 12\n\n"), "names object"},
	} {
		_, err := ipld.DecodeUsingPrototype([]byte(tc.data), blocks.DecodeGitRaw, basicnode.Prototype.Any)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %q gave %v, want an error saying %q", name, tc.data, err, tc.err)
		}
	}
}

// linkSystem loads nodes from the store through go-ipld-prime's default
// link system, so it finds the decoder by the CID's codec.
func linkSystem(s *blocks.Store) func(*testing.T, string) datamodel.Node {
	lsys := cidlink.DefaultLinkSystem()
	lsys.StorageReadOpener = func(_ ipld.LinkContext, l ipld.Link) (io.Reader, error) {
		b, err := s.Get(l.(cidlink.Link).Cid)
		return bytes.NewReader(b), err
	}
	return func(t *testing.T, id string) datamodel.Node {
		t.Helper()
		n, err := lsys.Load(ipld.LinkContext{}, cidlink.Link{Cid: blocks.CIDForGitObject(id)}, basicnode.Prototype.Any)
		if err != nil {
			t.Fatalf("load %s: %v", id, err)
		}
		return n
	}
}

func linksOf(t *testing.T, n datamodel.Node) []cid.Cid {
	t.Helper()
	links, err := traversal.SelectLinks(n)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]cid.Cid, len(links))
	for i, l := range links {
		out[i] = l.(cidlink.Link).Cid
	}
	return out
}

func cids(ids []string) []cid.Cid {
	out := make([]cid.Cid, len(ids))
	for i, id := range ids {
		out[i] = blocks.CIDForGitObject(id)
	}
	return out
}

func str(t *testing.T, n datamodel.Node, key string) string {
	t.Helper()
	v, err := n.LookupByString(key)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	s, err := v.AsString()
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return s
}

func revParse(t *testing.T, repo, rev string) string {
	t.Helper()
	return strings.TrimSpace(git(t, repo, "rev-parse", rev))
}

func gitCommit(t *testing.T, repo, message string) string {
	t.Helper()
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", message)
	return revParse(t, repo, "HEAD")
}

// gitInput runs git with input on its stdin.
func gitInput(t *testing.T, dir, input string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
