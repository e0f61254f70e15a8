package gitserver_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/repoaccess"
)

// onItsWay finds every public repository, with no git data on disk, and
// says demo's is being copied here (gitserver.Pending). Other methods of
// Repos are never called by a clone.
type onItsWay struct {
	gitserver.Repos
	dir string
}

func (o onItsWay) Resolve(_ context.Context, owner, name string) (repoaccess.Repo, bool, error) {
	return repoaccess.Repo{ID: "1", Owner: owner, Name: name, Path: filepath.Join(o.dir, name+".git")}, true, nil
}

func (onItsWay) AccessLevel(context.Context, *auth.User, repoaccess.Repo) repoaccess.Level {
	return repoaccess.Read
}

func (onItsWay) Pending(_ context.Context, r repoaccess.Repo) (string, bool) {
	return "The git data of " + r.Owner + "/" + r.Name + " is being copied to this node.", r.Name == "demo"
}

// A clone of a repository whose git data is on its way gets a message to
// retry (503, Retry-After), which git shows, not "Repository not found".
func TestACloneOfARepositoryOnItsWayIsToldToRetry(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(gitserver.New(gitserver.Config{Repos: onItsWay{dir: t.TempDir()}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()

	res, err := http.Get(srv.URL + "/alice/demo.git/info/refs?service=git-upload-pack")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "being copied") {
		t.Fatalf("info/refs = %d (Retry-After %q) %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}

	cmd := exec.Command("git", "clone", srv.URL+"/alice/demo.git", filepath.Join(t.TempDir(), "clone"))
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "The git data of alice/demo is being copied to this node.") || strings.Contains(string(out), "not found") {
		t.Fatalf("git clone: %v\n%s", err, out)
	}

	// A repository that is not coming is still not found.
	res, err = http.Get(srv.URL + "/alice/other.git/info/refs?service=git-upload-pack")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("info/refs of a repository not coming = %d, want 404", res.StatusCode)
	}
}
