package blocks_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/blocks"
)

// A queued push survives a stop of the node: the next Open stores it.
func TestQueueRunsAJobLeftByAStop(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "first\n")
	dir := filepath.Join(t.TempDir(), "blocks")

	stopped, err := blocks.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped.Close()
	if err := stopped.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	if stopped.HasGitObject(head) || stopped.Queued() != 1 {
		t.Fatalf("a stopped store ran a job: stored %v, queued %d", stopped.HasGitObject(head), stopped.Queued())
	}

	s := openStore(t, dir)
	if s.Queued() != 1 {
		t.Fatalf("the restarted store sees %d queued jobs, want 1", s.Queued())
	}
	settle(t, s)
	for _, id := range objectsOf(t, repo) {
		if !s.HasGitObject(id) {
			t.Fatalf("object %s of the queued push is not stored", id)
		}
	}
	if left, _ := os.ReadDir(filepath.Join(dir, ".queue")); len(left) != 0 {
		t.Fatalf("the journal still holds %d files", len(left))
	}
}

// The gateway waits for queued pushes before it answers 404, so a block
// asked for right after its push is served.
func TestGatewayWaitsForQueuedPushes(t *testing.T) {
	repo := gitRepo(t)
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	for i, content := range []string{"one\n", "two\n", "three\n"} {
		head := commitFile(t, repo, "f.txt", content)
		if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
			t.Fatal(err)
		}
		res, err := srv.Client().Get(srv.URL + "/ipfs/" + blocks.CIDForGitObject(head).String() + "?format=raw")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || sha1Hex(string(body)) != head {
			t.Fatalf("push %d: /ipfs of its commit answered %d with a body hashing to %s", i+1, res.StatusCode, sha1Hex(string(body)))
		}
	}
	// A CID nothing will store is still a 404 once the queue is empty.
	res, err := srv.Client().Get(srv.URL + "/ipfs/" + blocks.CIDForGitObject(strings.Repeat("ab", 20)).String() + "?format=raw")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("unknown block: %d", res.StatusCode)
	}
}

// A job whose repository is gone is dropped, not retried for ever.
func TestQueueDropsAJobForADeletedRepository(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "gone\n")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	if s.Queued() != 0 || s.HasGitObject(head) {
		t.Fatalf("queued %d, stored %v", s.Queued(), s.HasGitObject(head))
	}
}

func settle(t *testing.T, s *blocks.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Settle(ctx); err != nil {
		t.Fatal(err)
	}
}

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "", "init", "--quiet", "-b", "main", dir)
	return dir
}

// commitFile commits one file and returns the new commit's id.
func commitFile(t *testing.T, repo, name, content string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", name)
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "add "+name)
	return strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
}

func objectsOf(t *testing.T, repo string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(git(t, repo, "rev-list", "--objects", "--all"), "\n") {
		if id, _, _ := strings.Cut(line, " "); len(id) == 40 {
			ids = append(ids, id)
		}
	}
	if len(ids) < 3 {
		t.Fatalf("only %d objects in %s", len(ids), repo)
	}
	return ids
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
