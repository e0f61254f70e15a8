package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A directory is listed through the cat-file pool, with no process of its
// own, exactly as `git ls-tree -l` lists it: modes, types, ids, blob sizes
// and git's order, for files, directories, executables, symlinks,
// submodules and names with spaces; a path that is not a directory is not
// found.
func TestTreesAreListedThroughThePool(t *testing.T) {
	SetCacheBytes(0) // every listing reaches git
	defer SetCacheBytes(DefaultCacheBytes)
	StopBatches()
	root := t.TempDir()
	wt, bare := filepath.Join(root, "wt"), filepath.Join(root, "r.git")
	gitIn(t, root, nil, "init", "-q", "-b", "main", wt)
	files := map[string]string{"README.md": "# r\n", "src/main.go": "package main\n", "a dir/with space.txt": "x\n", "run.sh": "#!/bin/sh\n"}
	for name, body := range files {
		os.MkdirAll(filepath.Join(wt, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(wt, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(wt, "run.sh"), 0o755)
	os.Symlink("README.md", filepath.Join(wt, "link"))
	gitIn(t, wt, nil, "add", "-A")
	gitIn(t, wt, nil, "update-index", "--add", "--cacheinfo", "160000,1234567890123456789012345678901234567890,vendor/lib")
	gitIn(t, wt, nil, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "c")
	gitIn(t, root, nil, "clone", "-q", "--bare", wt, bare)
	commit := gitIn(t, bare, nil, "rev-parse", "main")
	ctx := context.Background()

	before := lsTreeProcesses.Load()
	for _, c := range []struct{ treeish, base string }{
		{commit + ":", ""}, {commit + "^{tree}", ""}, {commit + ":src", "src"}, {commit + ":a dir", "a dir"}, {commit + ":vendor", "vendor"},
	} {
		pooled, err := lsTreePooled(ctx, bare, c.treeish, c.base)
		if err != nil {
			t.Fatalf("pooled %s: %v", c.treeish, err)
		}
		want, err := lsTreeProcess(ctx, bare, c.treeish, c.base, false)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pooled, want) {
			t.Fatalf("%s through the pool:\n%+v\nls-tree:\n%+v", c.treeish, pooled, want)
		}
	}
	for _, missing := range []string{commit + ":nope", commit + ":README.md"} {
		if _, err := lsTreePooled(ctx, bare, missing, ""); !errors.Is(err, ErrPathNotFound) {
			t.Fatalf("%s: %v, want not found", missing, err)
		}
	}
	if entries, err := Tree(ctx, bare, commit, "a dir"); err != nil || len(entries) != 1 || entries[0].Path != "a dir/with space.txt" || entries[0].Size != 2 {
		t.Fatalf("Tree: %+v %v", entries, err)
	}
	if e, err := Stat(ctx, bare, commit, "run.sh"); err != nil || e.Mode != "100755" || e.Size != int64(len(files["run.sh"])) {
		t.Fatalf("Stat: %+v %v", e, err)
	}
	if n := lsTreeProcesses.Load() - before - 5; n != 0 { // less the five ls-tree runs above
		t.Fatalf("%d ls-tree processes started for pooled listings", n)
	}
}
