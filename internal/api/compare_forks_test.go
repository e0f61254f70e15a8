package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestCompareAcrossForks: bob forks alice's repository through the API,
// pushes a branch to his fork, and compares it with alice's main from her
// repository (owner:branch and owner/repo:branch), as a pull request from
// it would show; the other way round from his fork too. An unknown fork
// or branch is refused with a message, never a server error, and the
// base repository keeps no ref of the fork's.
func TestCompareAcrossForks(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	n.must(http.StatusAccepted, bob, "POST", base+"/forks", map[string]any{})
	head := n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"}, "Fix one", "Fix two")

	// 1. From the base: the fork's two commits and its file.
	for _, spec := range []string{bob.Name() + ":fix", bob.Name() + "/lib:fix"} {
		cmp := n.must(http.StatusOK, nil, "GET", base+"/compare/main..."+spec, nil).obj()
		commits, _ := cmp["commits"].([]any)
		files, _ := cmp["files"].([]any)
		if cmp["total_commits"] != 2.0 || len(commits) != 2 || commits[0].(map[string]any)["sha"] != head || len(files) != 1 {
			t.Fatalf("compare main...%s: %s", spec, mustJSON(cmp))
		}
		f := files[0].(map[string]any)
		if f["filename"] != "fix.txt" || f["status"] != "added" || !strings.Contains(f["patch"].(string), "+fixed") {
			t.Fatalf("compare main...%s file: %v", spec, f)
		}
	}
	if refs := n.runGit(n.dir(repo), "for-each-ref", "refs/dforge/"); refs != "" {
		t.Fatalf("left-over refs in the base: %s", refs)
	}

	// 2. From the fork, against the repository it was forked from: alice's
	// main has nothing bob's fix lacks, and bob's main is alice's.
	fork := "/api/v1/repos/" + bob.Name() + "/lib"
	back := n.must(http.StatusOK, nil, "GET", fork+"/compare/fix..."+alice.Name()+":main", nil).obj()
	if back["total_commits"] != 0.0 || len(back["files"].([]any)) != 0 {
		t.Fatalf("compare fix...%s:main from the fork: %s", alice.Name(), mustJSON(back))
	}
	same := n.must(http.StatusOK, nil, "GET", fork+"/compare/main..."+alice.Name()+"/lib:main", nil).obj()
	if same["total_commits"] != 0.0 {
		t.Fatalf("compare main with its parent's main: %s", mustJSON(same))
	}

	// 3. Refusals say what is wrong.
	for path, status := range map[string]int{
		base + "/compare/main..." + bob.Name() + ":nope":        http.StatusNotFound,
		base + "/compare/main..." + bob.Name() + "/lib:nope":    http.StatusNotFound,
		base + "/compare/main..." + carol.Name() + ":fix":       http.StatusUnprocessableEntity, // carol has no fork
		base + "/compare/main...nobody-here:fix":                http.StatusUnprocessableEntity,
		base + "/compare/main..." + bob.Name() + ":":            http.StatusUnprocessableEntity,
		base + "/compare/main..." + carol.Name() + "/other:fix": http.StatusNotFound,
	} {
		res := n.call(nil, "GET", path, nil)
		if res.status != status || res.obj()["message"] == "" {
			t.Errorf("GET %s: %d %s, want %d with a message", path, res.status, res.body, status)
		}
	}
	// A repository outside the network is not compared with.
	n.repo(carol, "other", false)
	other := n.call(nil, "GET", base+"/compare/main..."+carol.Name()+"/other:main", nil)
	if other.status != http.StatusUnprocessableEntity || !strings.Contains(other.obj()["message"].(string), "fork") {
		t.Fatalf("compare with an unrelated repository: %d %s", other.status, other.body)
	}
}
