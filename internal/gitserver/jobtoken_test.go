package gitserver_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeJobs stands in for the actions service: running jobs' tokens and
// the id of the repository each reads.
type fakeJobs struct {
	mu   sync.Mutex
	repo map[string]uint64
}

func (f *fakeJobs) JobRepository(_ context.Context, secret string) (uint64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.repo[secret]
	return id, ok
}

// set makes secret a running job's token for repository id (0: the job ended).
func (f *fakeJobs) set(secret string, id uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == 0 {
		delete(f.repo, secret)
		return
	}
	f.repo[secret] = id
}

// A running workflow job's token clones its own private repository, as
// actions/checkout does with GITHUB_TOKEN (as the password, or as a
// Bearer header), and nothing more: not another repository, not a push,
// not LFS; a token of no running job is challenged like a bad password.
func TestAJobsTokenReadsItsOwnRepositoryOnly(t *testing.T) {
	h := newHarness(t)
	owner := h.user()
	own := h.repo(owner, "acme", "secret", true, false)
	h.repo(owner, "acme", "other", true, false)
	const token = "eyJhbGciOiJIUzI1NiJ9.eyJUYXNrSUQiOjF9.c2lnbmF0dXJl"
	id, _ := strconv.ParseUint(own.ID, 10, 64)
	h.jobs.set(token, id)

	asJob := func(name string) string {
		u, _ := url.Parse(h.remote(nil, "acme", name))
		u.User = url.UserPassword("x-access-token", token)
		return u.String()
	}
	dir := h.clone(asJob("secret"))
	if b, err := os.ReadFile(filepath.Join(dir, "README.md")); err != nil || string(b) != "# secret\n" {
		t.Fatalf("the job's clone: %q %v", b, err)
	}
	bearer := filepath.Join(t.TempDir(), "bearer")
	h.run("", "-c", "http.extraHeader=Authorization: Bearer "+token, "clone", "--quiet", h.remote(nil, "acme", "secret"), bearer)

	if out, err := h.try("", "clone", "--quiet", asJob("other"), filepath.Join(t.TempDir(), "other")); err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("another repository with the job's token: %v\n%s", err, out)
	}
	h.commit(dir, "from a job", map[string]string{"out.txt": "built\n"})
	if out, err := h.try(dir, "push", "--quiet", "origin", "main"); err == nil || !strings.Contains(out, "may not push") {
		t.Fatalf("a push with the job's token: %v\n%s", err, out)
	}
	if got := h.refOf(own, "refs/heads/main"); got == strings.TrimSpace(h.run(dir, "rev-parse", "HEAD")) {
		t.Fatal("the job's push moved main")
	}

	h.jobs.set(token, 0) // the job ended
	if out, err := h.try("", "clone", "--quiet", asJob("secret"), filepath.Join(t.TempDir(), "ended")); err == nil || !strings.Contains(out, "Authentication failed") {
		t.Fatalf("an ended job's token: %v\n%s", err, out)
	}
	h.jobs.set(token, id)
	res, _ := h.get("/acme/secret.git/info/lfs/locks", map[string]string{"Authorization": "Bearer " + token})
	if res.StatusCode != 401 {
		t.Fatalf("LFS with a job's token: %d, want 401", res.StatusCode)
	}
}
