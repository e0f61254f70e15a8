package gitserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// objectFiles lists a repository's packs, loose objects, push journals and
// quarantines, relative to it.
func objectFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"objects/pack/*", "objects/??/*", "dforge-push-*", "objects/tmp_objdir-*"} {
		found, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			rel, _ := filepath.Rel(dir, f)
			out = append(out, rel)
		}
	}
	return out
}

// A push's objects reach the repository as the pack git received (staged
// by a hard link before the ref updates were recorded), and nothing of
// the staging stays behind.
func TestPushArrivesAsOnePackAndLeavesNoStaging(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, true)
	work := h.clone(h.remote(alice, "alice", "proj"))
	head := h.commit(work, "one", map[string]string{"a.txt": "1\n"}) // 3 objects: a loose push before
	h.run(work, "push", "--quiet", "origin", "main")
	if h.refOf(r, "refs/heads/main") != head {
		t.Fatal("the push did not land")
	}
	files := objectFiles(t, r.Path)
	var packs, idx int
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, ".pack"):
			packs++
		case strings.HasSuffix(f, ".idx"):
			idx++
		case strings.HasPrefix(f, "objects/pack/"):
		default:
			t.Errorf("left after the push: %s", f)
		}
	}
	if packs != 1 || idx != 1 {
		t.Fatalf("objects after one push: %v", files)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".keep") {
			t.Errorf("receive-pack's keep file stayed: %s", f)
		}
	}
	h.run(r.Path, "fsck", "--strict", "--no-dangling")
}

// A push that another node's push beat to the chain is refused as git
// refuses a non-fast-forward, and the objects it staged go.
func TestPushLosingTheRaceOnChainIsANonFastForward(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	work := h.clone(h.remote(alice, "alice", "proj"))
	h.commit(work, "one", map[string]string{"a.txt": "1\n"})
	h.run(work, "push", "--quiet", "origin", "main")
	main := h.refOf(r, "refs/heads/main")
	before := objectFiles(t, r.Path)

	// Another node moved main on chain; this node has not replicated it.
	h.repos.moveOnChain(r, "refs/heads/main", strings.Repeat("ab", 20))
	h.commit(work, "two", map[string]string{"b.txt": "2\n"})
	out, err := h.try(work, "push", "origin", "main", "HEAD:refs/heads/topic")
	if err == nil {
		t.Fatalf("the push that lost the race was taken:\n%s", out)
	}
	for _, want := range []string{"non-fast-forward", "fetch first", "pre-receive hook declined"} {
		if !strings.Contains(out, want) {
			t.Errorf("refusal does not say %q:\n%s", want, out)
		}
	}
	if h.refOf(r, "refs/heads/main") != main || h.refOf(r, "refs/heads/topic") != "" {
		t.Fatal("a refused push moved a ref")
	}
	if got := objectFiles(t, r.Path); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Fatalf("a refused push left objects:\nbefore %v\nafter  %v", before, got)
	}
	if len(h.repos.pushesTo(r)) != 1 {
		t.Fatal("a refused push was recorded")
	}
	if _, err := os.Stat(r.Path); err != nil {
		t.Fatal(err)
	}
}

// git push -o works as on Gitea: options the node does not know are taken
// and ignored, Gitea's push-to-create ones are ignored and said to be, and
// the push is recorded either way. A repository whose own config still
// refuses options (made before they were advertised) takes them too: the
// git server's command line says so.
func TestPushOptionsAreAccepted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.user()
	r := h.repo(alice, "alice", "proj", false, false)
	h.run(r.Path, "config", "receive.advertisePushOptions", "false")
	work := h.clone(h.remote(alice, "alice", "proj"))

	head := h.commit(work, "one", map[string]string{"a.txt": "1\n"})
	out := h.run(work, "push", "-o", "ci.skip", "-o", "foo=bar", "origin", "main")
	if h.refOf(r, "refs/heads/main") != head {
		t.Fatalf("the push with options did not land:\n%s", out)
	}
	if strings.Contains(out, "ignores") {
		t.Errorf("unknown options are ignored silently, got:\n%s", out)
	}
	pushes := h.repos.pushesTo(r)
	if len(pushes) == 0 || pushes[len(pushes)-1].updates[0].New != head {
		t.Fatalf("the push was not recorded: %+v", pushes)
	}

	head = h.commit(work, "two", map[string]string{"a.txt": "2\n"})
	out = h.run(work, "push", "-o", "repo.private=true", "origin", "main")
	if h.refOf(r, "refs/heads/main") != head {
		t.Fatalf("the push with repo.private did not land:\n%s", out)
	}
	if !strings.Contains(out, "remote: dForge ignores the push option repo.private:") {
		t.Errorf("the pusher is not told repo.private is ignored:\n%s", out)
	}
}
