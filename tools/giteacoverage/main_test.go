package main

import (
	"strings"
	"testing"
)

// Parameters compare by position, excluded areas leave the total, and an
// operation counts only with its method.
func TestCompare(t *testing.T) {
	gitea, err := parseGitea(strings.NewReader(`# comment
issue GET /repos/{owner}/{repo}/issues/{index}
issue PATCH /repos/{owner}/{repo}/issues/{index}
admin GET /admin/users
repository GET /repos/{owner}/{repo}/actions/secrets
organization GET /orgs/{org}/actions/variables
user GET /user/actions/variables
package GET /packages/{owner}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(gitea) != 2 {
		t.Fatalf("parsed %+v, want the two issue operations", gitea)
	}
	ours, err := parseOpenAPI(strings.NewReader(`{"paths": {"/api/v1/repos/{owner}/{repo}/issues/{number}": {"get": {}, "parameters": []}}}`))
	if err != nil {
		t.Fatal(err)
	}
	covered, missing := compare(gitea, ours)
	if covered != 1 || len(missing["issue"]) != 1 || missing["issue"][0].method != "PATCH" {
		t.Fatalf("covered %d, missing %+v", covered, missing)
	}
}

// The committed list is Gitea 1.22's: every line parses.
func TestGiteaOperations(t *testing.T) {
	ops, err := parseGitea(strings.NewReader(giteaOperations))
	if err != nil || len(ops) != 349 {
		t.Fatalf("%d operations, %v; want 349", len(ops), err)
	}
}
