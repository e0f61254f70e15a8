package api_test

import (
	"net/http"
	"slices"
	"testing"
)

// TestRefMovesAreSeenAtOnce: the code browser keeps what never changes
// (the trees and history of a commit id) and reads refs from the ref files
// on every request, so each ref move shows on the very next read: a push,
// a force-push, a deletion, a merge made through the API, and refs packed
// by git.
func TestRefMovesAreSeenAtOnce(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	repo := n.repo(alice, "live", false)
	dir := n.dir(repo)
	base := "/api/v1/repos/" + alice.Name() + "/live"

	// entries lists the names at path of ref ("" for the default branch).
	entries := func(path, ref string) []string {
		t.Helper()
		url := base + "/contents" + path
		if ref != "" {
			url += "?ref=" + ref
		}
		var names []string
		for _, e := range n.must(http.StatusOK, nil, "GET", url, nil).list() {
			names = append(names, e["name"].(string))
		}
		return names
	}
	// tips are the branches as the API lists them.
	tips := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, b := range n.must(http.StatusOK, nil, "GET", base+"/branches", nil).list() {
			out[b["name"].(string)] = b["commit"].(map[string]any)["id"].(string)
		}
		return out
	}
	// state reads every view of main a repository page shows, checks they
	// agree with git, and returns the root's names.
	state := func(wantCommits float64) []string {
		t.Helper()
		tip := n.branchTip(dir, "main")
		if got := tips()["main"]; got != tip {
			t.Fatalf("branches: main at %s, git has %s", got, tip)
		}
		if got := n.must(http.StatusOK, nil, "GET", base+"/commits?sha=main&limit=1", nil).list(); len(got) != 1 || got[0]["sha"] != tip {
			t.Fatalf("commits of main: %v, want %s first", got, tip)
		}
		if got := n.must(http.StatusOK, nil, "GET", base+"/counts", nil).obj(); got["commits"] != wantCommits {
			t.Fatalf("counts: %v, want %v commits", got, wantCommits)
		}
		root := entries("", "main")
		if def := entries("", ""); !slices.Equal(def, root) {
			t.Fatalf("the default branch lists %v, main %v", def, root)
		}
		tree := n.must(http.StatusOK, nil, "GET", base+"/git/trees/main", nil).obj()
		var paths []string
		for _, e := range tree["tree"].([]any) {
			paths = append(paths, e.(map[string]any)["path"].(string))
		}
		if sorted := slices.Sorted(slices.Values(root)); tree["sha"] != tip || !slices.Equal(paths, sorted) {
			t.Fatalf("tree of main: %v %v, want %s %v", tree["sha"], paths, tip, sorted)
		}
		return root
	}

	// 1. Warm every read.
	if got := state(1); !slices.Equal(got, []string{"README.md"}) {
		t.Fatalf("first root: %v", got)
	}

	// 2. A push to main.
	n.push(alice, alice, "live", "main", "main", map[string]string{"src/new.go": "package src\n"}, "Add new")
	if got := state(2); !slices.Equal(got, []string{"src", "README.md"}) {
		t.Fatalf("root after the push: %v", got)
	}
	if got := entries("/src", "main"); !slices.Equal(got, []string{"new.go"}) {
		t.Fatalf("src after the push: %v", got)
	}

	// 3. A branch, force-pushed to other files, then deleted.
	first := n.push(alice, alice, "live", "topic", "main", map[string]string{"a.txt": "a\n"}, "A")
	if got := entries("", "topic"); !slices.Contains(got, "a.txt") || tips()["topic"] != first {
		t.Fatalf("topic: %v, tips %v", got, tips())
	}
	wt := n.Clone(n.Remote(alice, alice.Name(), "live"), "--branch", "main")
	n.Git(wt, "checkout", "-q", "-b", "topic")
	second := n.Commit(wt, "B", map[string]string{"b.txt": "b\n"})
	n.Git(wt, "push", "-q", "--force", "origin", "HEAD:refs/heads/topic")
	if got := entries("", "topic"); !slices.Contains(got, "b.txt") || slices.Contains(got, "a.txt") || tips()["topic"] != second {
		t.Fatalf("topic after the force-push: %v, tips %v", got, tips())
	}
	n.Git(wt, "push", "-q", "origin", ":topic")
	n.must(http.StatusNotFound, nil, "GET", base+"/contents?ref=topic", nil)
	if _, ok := tips()["topic"]; ok {
		t.Fatalf("topic is still listed after its deletion: %v", tips())
	}

	// 4. A merge through the API moves main (the node's own git writes).
	n.push(alice, alice, "live", "feature", "main", map[string]string{"docs/guide.md": "# Guide\n"}, "Guide")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Guide"})
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "merge"}).obj()
	if merged["merge_commit_sha"] != n.branchTip(dir, "main") {
		t.Fatalf("merged: %v", merged)
	}
	if got := state(4); !slices.Equal(got, []string{"docs", "src", "README.md"}) {
		t.Fatalf("root after the merge: %v", got)
	}

	// 5. Refs packed (as gc packs them), then moved again: packed-refs is
	// read, and a loose ref still wins over it.
	n.Git(dir, "pack-refs", "--all")
	if got := state(4); !slices.Equal(got, []string{"docs", "src", "README.md"}) {
		t.Fatalf("root with packed refs: %v", got)
	}
	n.push(alice, alice, "live", "main", "main", map[string]string{"z.txt": "z\n"}, "Z")
	if got := state(5); !slices.Equal(got, []string{"docs", "src", "README.md", "z.txt"}) {
		t.Fatalf("root after a push over packed refs: %v", got)
	}
}
