package api_test

import (
	"net/http"
	"testing"
)

// TestReviewCommentDiffHunk: each line comment of a review comes with
// Gitea's diff_hunk, the few diff lines that end at the commented line
// under a header that counts them, on the new side and on the old.
func TestReviewCommentDiffHunk(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "mill", false)
	base := "/api/v1/repos/" + alice.Name() + "/mill"
	n.push(alice, alice, "mill", "fast", "main", map[string]string{
		"src/mill.go": "package mill\n\nfunc A() {}\n\nfunc B() {}\n",
		"README.md":   "# mill\n\nline two, longer\nline three\n",
	}, "Add the mill")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "fast", "base": "main", "title": "Faster mill"})
	rv := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{
		"event": "COMMENT", "body": "", "comments": []map[string]any{
			{"path": "src/mill.go", "body": "B?", "new_position": 5},
			{"path": "src/mill.go", "body": "Name?", "new_position": 1},
			{"path": "README.md", "body": "Why longer?", "old_position": 3},
		},
	}).obj()
	got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/reviews/"+num(rv["id"])+"/comments", nil).list()
	want := map[string]string{
		"B?":          "@@ -0,0 +2,4 @@\n+\n+func A() {}\n+\n+func B() {}",
		"Name?":       "@@ -0,0 +1,1 @@\n+package mill",
		"Why longer?": "@@ -1,3 +1,2 @@\n # mill\n \n-line two",
	}
	if len(got) != len(want) {
		t.Fatalf("comments: %v", got)
	}
	for _, c := range got {
		if w := want[c["body"].(string)]; c["diff_hunk"] != w {
			t.Errorf("diff_hunk of %q = %q, want %q", c["body"], c["diff_hunk"], w)
		}
	}
}
