package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// The issue and pull request tests run a whole node (forgetest: a real
// single-validator chain, the index, the forge, git over Smart HTTP) and
// drive it as clients do: the JSON API with tokens, git push over HTTP.

type issuesNode struct {
	*forgetest.Node
	t *testing.T
}

func startIssuesNode(t *testing.T) *issuesNode {
	t.Helper()
	return &issuesNode{Node: forgetest.Start(t), t: t}
}

type apiResult struct {
	status int
	header http.Header
	body   []byte
}

func (r apiResult) obj() map[string]any {
	var v map[string]any
	json.Unmarshal(r.body, &v)
	return v
}

func (r apiResult) list() []map[string]any {
	var v []map[string]any
	json.Unmarshal(r.body, &v)
	return v
}

// call sends a request as u (nil: anonymous) with body as JSON.
func (n *issuesNode) call(u *forgetest.User, method, path string, body any) apiResult {
	n.t.Helper()
	res := n.Call(method, path, u, body)
	return apiResult{status: res.Status, header: res.Header, body: res.Body}
}

// must is call expecting status.
func (n *issuesNode) must(status int, u *forgetest.User, method, path string, body any) apiResult {
	n.t.Helper()
	res := n.call(u, method, path, body)
	if res.status != status {
		n.t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.status, status, res.body)
	}
	return res
}

// repo makes a repository of owner with a README commit on main.
func (n *issuesNode) repo(owner *forgetest.User, name string, private bool) index.Repo {
	n.t.Helper()
	r, err := n.Repos.Create(context.Background(), owner.Address, gitrepos.CreateOptions{
		Name: name, Private: private, README: []byte("# " + name + "\n\nline two\nline three\n"),
		Author: gitstore.Signature{Name: "owner", Email: "owner@example.org", When: time.Unix(1700000000, 0)},
	})
	if err != nil {
		n.t.Fatal(err)
	}
	return r
}

func (n *issuesNode) fork(u *forgetest.User, src index.Repo) index.Repo {
	n.t.Helper()
	r, err := n.Repos.Fork(context.Background(), u.Address, src, "")
	if err != nil {
		n.t.Fatal(err)
	}
	return r
}

// dir is the repository's bare git directory on the node.
func (n *issuesNode) dir(r index.Repo) string {
	n.t.Helper()
	d, err := n.Repos.Dir(r)
	if err != nil {
		n.t.Fatal(err)
	}
	return d
}

// push commits files on branch, starting from parent, once per message
// (each later commit appends to the files), and pushes the branch as u
// over Smart HTTP. It returns the new tip.
func (n *issuesNode) push(u *forgetest.User, owner *forgetest.User, repo, branch, parent string, files map[string]string, messages ...string) string {
	n.t.Helper()
	wt := n.Clone(n.Remote(u, owner.Name(), repo), "--branch", parent)
	n.Git(wt, "checkout", "-q", "-B", branch)
	if len(messages) == 0 {
		messages = []string{"change " + branch}
	}
	tip := ""
	for i, msg := range messages {
		changed := map[string]string{}
		for path, content := range files {
			changed[path] = content + strings.Repeat("more\n", i)
		}
		tip = n.Commit(wt, msg, changed)
	}
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/"+branch)
	return tip
}

// runGit runs git in dir and returns its trimmed output.
func (n *issuesNode) runGit(dir string, args ...string) string {
	n.t.Helper()
	return strings.TrimSpace(n.Git(dir, args...))
}

func (n *issuesNode) branchTip(dir, branch string) string {
	n.t.Helper()
	return n.runGit(dir, "rev-parse", "refs/heads/"+branch)
}

// mustJSON is v as compact JSON, for messages and comparisons.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
