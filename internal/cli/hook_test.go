package cli

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/blocks"
)

func TestHookRefusesWithoutTheNode(t *testing.T) {
	t.Setenv("DFORGE_HOOK_URL", "")
	t.Setenv("DFORGE_HOOK_TOKEN", "")
	ctx := context.Background()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hook", "pre-receive"}, "pushes go through the node's git server"},
		{[]string{"hook", "update"}, "unknown hook"},
		{[]string{"hook"}, "usage: dforge hook"},
	} {
		err := Run(ctx, tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("dforge %s: %v, want %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}

// TestServeMountsGit checks a real node serves the git layer: its stores
// under the data dir, git paths answered through the forge (a repository
// that does not exist challenges an anonymous client, as a private one
// would), and the IPFS gateway.
func TestServeMountsGit(t *testing.T) {
	dir := t.TempDir()
	url, cancel, done := startServe(t, dir)
	defer func() {
		cancel()
		<-done
	}()
	for _, sub := range []string{"git/.hooks/pre-receive", "blocks"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("%s: %v", sub, err)
		}
	}
	for path, want := range map[string]int{
		"/alice/proj.git/info/refs?service=git-upload-pack": 401,
		"/ipfs/not-a-cid?format=raw":                        400,
		"/ipfs/" + blocks.CIDForGitObject("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391").String() + "?format=raw": 404,
		"/ipfs/bafkqaaa?format=raw":    200, // the trustless gateway probe
		"/ipns/example.com?format=raw": 501, // not the app's HTML
		"/healthz":                     200,
	} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, res.StatusCode, want)
		}
	}
}
