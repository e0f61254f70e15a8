package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// TestIssueLifecycle drives an issue through the API on a real chain:
// opened by a reader, commented, labelled, closed as not planned,
// reopened by its author and closed as completed; a stranger may not
// close it, an oversized comment is refused whole, and Markdown bodies
// link their mentions and references.
func TestIssueLifecycle(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "hello", false)
	base := "/api/v1/repos/" + alice.Name() + "/hello"

	// 1. Bob, who only reads the repository, opens issue #1; the list shows it.
	first := n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "It crashes", "body": "Steps: run it."}).obj()
	if first["number"] != 1.0 || first["state"] != "open" || first["title"] != "It crashes" || first["body_html"] != "<p>Steps: run it.</p>\n" {
		t.Fatalf("created issue: %v", first)
	}
	if u := first["user"].(map[string]any); u["login"] != bob.Name() {
		t.Fatalf("issue author %v, want %s", u, bob.Name())
	}
	if first["pull_request"] != nil || first["repository"].(map[string]any)["full_name"] != alice.Name()+"/hello" {
		t.Fatalf("issue meta: %v", first)
	}
	body := fmt.Sprintf("Like #1, says @%s; not @nobody-here or #99.\n\n`#1 @%s` stays code.", alice.Name(), alice.Name())
	second := n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Also", "body": body}).obj()
	html := second["body_html"].(string)
	for _, want := range []string{
		`<a href="/` + alice.Name() + `/hello/issues/1" class="ref-issue">#1</a>`,
		`<a href="/user/` + alice.Name() + `" class="mention">@` + alice.Name() + `</a>`,
		`@nobody-here`, `#99`, `<code>#1 @` + alice.Name() + `</code>`,
	} {
		if !strings.Contains(html, want) {
			t.Fatalf("body_html lacks %q:\n%s", want, html)
		}
	}
	if strings.Count(html, "<a ") != 2 {
		t.Fatalf("body_html links too much:\n%s", html)
	}
	list := n.must(http.StatusOK, nil, "GET", base+"/issues?limit=1", nil)
	if got := list.list(); len(got) != 1 || got[0]["number"] != 2.0 || list.header.Get("X-Total-Count") != "2" ||
		!strings.Contains(list.header.Get("Link"), `rel="next"`) {
		t.Fatalf("issue list: %s %v", list.body, list.header)
	}

	// 2. A comment by alice, with its rendered body.
	c := n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "Thanks, **confirmed**."}).obj()
	if c["body_html"] != "<p>Thanks, <strong>confirmed</strong>.</p>\n" || c["user"].(map[string]any)["login"] != alice.Name() || c["created_at"] == "" {
		t.Fatalf("comment: %v", c)
	}
	comments := n.must(http.StatusOK, nil, "GET", base+"/issues/1/comments", nil).list()
	if len(comments) != 1 || comments[0]["id"] != c["id"] {
		t.Fatalf("comments: %v", comments)
	}

	// 3. An oversized comment is refused, and nothing is recorded.
	huge := n.call(bob, "POST", base+"/issues/1/comments", map[string]any{"body": strings.Repeat("x", chainforge.MaxBody+1)})
	if huge.status != http.StatusUnprocessableEntity || huge.obj()["code"] != "too_large" || !strings.Contains(huge.obj()["message"].(string), "65536") {
		t.Fatalf("oversized comment: %d %s", huge.status, huge.body)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/issues/1", nil).obj(); got["comments"] != 1.0 {
		t.Fatalf("comments after the refusal: %v", got["comments"])
	}

	// 4. Labels: alice makes one and puts it on #1; the list filters by it.
	label := n.must(http.StatusCreated, alice, "POST", base+"/labels", map[string]any{"name": "bug", "color": "ee0701"}).obj()
	if label["color"] != "ee0701" || label["name"] != "bug" {
		t.Fatalf("label: %v", label)
	}
	n.must(http.StatusForbidden, bob, "POST", base+"/labels", map[string]any{"name": "mine", "color": "#000000"})
	set := n.must(http.StatusOK, alice, "POST", base+"/issues/1/labels", map[string]any{"labels": []any{label["id"]}}).list()
	if len(set) != 1 || set[0]["name"] != "bug" {
		t.Fatalf("issue labels: %v", set)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/issues?labels=bug", nil).list(); len(got) != 1 || got[0]["number"] != 1.0 {
		t.Fatalf("issues labelled bug: %v", got)
	}

	// 5. Carol, a stranger, may not close it; alice closes it as not planned.
	refused := n.call(carol, "PATCH", base+"/issues/1", map[string]any{"state": "closed"})
	if refused.status != http.StatusForbidden || refused.obj()["code"] != "forbidden" {
		t.Fatalf("a stranger's close: %d %s", refused.status, refused.body)
	}
	closed := n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"state": "closed", "state_reason": "not_planned"}).obj()
	if closed["state"] != "closed" || closed["state_reason"] != "not_planned" || closed["closed_at"] == nil {
		t.Fatalf("closed: %v", closed)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/issues?state=closed", nil).list(); len(got) != 1 || got[0]["number"] != 1.0 {
		t.Fatalf("closed issues: %v", got)
	}

	// 6. Bob, its author, reopens it; alice closes it as completed.
	reopened := n.must(http.StatusCreated, bob, "PATCH", base+"/issues/1", map[string]any{"state": "open"}).obj()
	if reopened["state"] != "open" || reopened["closed_at"] != nil {
		t.Fatalf("reopened: %v", reopened)
	}
	done := n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"state": "closed", "state_reason": "completed", "title": "It crashed"}).obj()
	if done["state"] != "closed" || done["state_reason"] != "completed" || done["title"] != "It crashed" {
		t.Fatalf("completed: %v", done)
	}
	n.must(http.StatusBadRequest, alice, "PATCH", base+"/issues/1", map[string]any{"state": "closed", "state_reason": "wontfix"})

	// 7. The issue by its global id, as the /issue/:id page reads it.
	global := n.must(http.StatusOK, nil, "GET", fmt.Sprintf("/api/v1/issues/%.0f", done["id"].(float64)), nil).obj()
	if global["number"] != 1.0 || global["title"] != "It crashed" || global["repository"].(map[string]any)["id"] != float64(repo.ID) {
		t.Fatalf("by global id: %v", global)
	}
	n.must(http.StatusNotFound, nil, "GET", "/api/v1/issues/99999999", nil)
}

// TestPrivateIssues: a private repository's issues are 404 to anyone
// without access, reads and writes alike, by path or by global id.
func TestPrivateIssues(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, carol := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "secret", true)
	base := "/api/v1/repos/" + alice.Name() + "/secret"
	is := n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Private matter"}).obj()
	n.must(http.StatusOK, alice, "GET", base+"/issues/1", nil)
	for _, who := range []*forgetest.User{nil, carol} {
		n.must(http.StatusNotFound, who, "GET", base+"/issues", nil)
		n.must(http.StatusNotFound, who, "GET", base+"/issues/1", nil)
		n.must(http.StatusNotFound, who, "GET", fmt.Sprintf("/api/v1/issues/%.0f", is["id"].(float64)), nil)
	}
	n.must(http.StatusNotFound, carol, "PATCH", base+"/issues/1", map[string]any{"state": "closed"})
	n.must(http.StatusNotFound, carol, "POST", base+"/issues/1/comments", map[string]any{"body": "hi"})
	got, err := n.Index.Issue(context.Background(), repo.ID, 1)
	if err != nil || got.State != "open" || got.Comments != 0 {
		t.Fatalf("private issue after the refusals: %+v %v", got, err)
	}
	if _, total, _ := n.Index.Issues(context.Background(), repo.ID, index.IssueFilter{}, index.Page{Number: 1, Limit: 10}); total != 1 {
		t.Fatalf("private issues: %d", total)
	}
}

// TestRepoComments: GET /issues/comments lists every comment of a
// repository's issues and pull requests, and /issues/comments/{id} reads
// one of them; a private repository's are 404 to those who cannot read it.
// An edit's empty title (the Gitea SDK always sends one) leaves the title.
func TestRepoComments(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "open-one", false)
	n.repo(alice, "secret", true)
	for _, name := range []string{"open-one", "secret"} {
		base := "/api/v1/repos/" + alice.Name() + "/" + name
		n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "First"})
		n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Second"})
		n.must(http.StatusCreated, alice, "POST", base+"/issues/2/comments", map[string]any{"body": "On the second."})
		n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "On the first."})
	}
	base := "/api/v1/repos/" + alice.Name() + "/open-one"
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "Bob's."})

	// 1. All of them, oldest first, paged with Gitea's headers.
	res := n.must(http.StatusOK, nil, "GET", base+"/issues/comments", nil)
	all := res.list()
	if len(all) != 3 || all[0]["body"] != "On the second." || all[1]["body"] != "On the first." || all[2]["body"] != "Bob's." ||
		!strings.HasSuffix(all[0]["issue_url"].(string), "/issues/2") || res.header.Get("X-Total-Count") != "3" {
		t.Fatalf("repository comments: %s", res.body)
	}
	if page := n.must(http.StatusOK, nil, "GET", base+"/issues/comments?limit=1&page=3", nil).list(); len(page) != 1 || page[0]["id"] != all[2]["id"] {
		t.Fatalf("page 3 of 1: %v", page)
	}
	if none := n.must(http.StatusOK, nil, "GET", base+"/issues/comments?since=2999-01-01T00:00:00Z", nil).list(); len(none) != 0 {
		t.Fatalf("since the future: %v", none)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/issues/comments?before=2999-01-01T00:00:00Z", nil).list(); len(got) != 3 {
		t.Fatalf("before the future: %v", got)
	}
	n.must(http.StatusUnprocessableEntity, nil, "GET", base+"/issues/comments?since=yesterday", nil)

	// 2. One by id; an id of another repository, or none, is 404.
	one := n.must(http.StatusOK, nil, "GET", fmt.Sprintf("%s/issues/comments/%.0f", base, all[2]["id"].(float64)), nil).obj()
	if one["body"] != "Bob's." || one["user"].(map[string]any)["login"] != bob.Name() || one["user"].(map[string]any)["id"] == 0.0 {
		t.Fatalf("comment by id: %v", one)
	}
	secret := "/api/v1/repos/" + alice.Name() + "/secret"
	theirs := n.must(http.StatusOK, alice, "GET", secret+"/issues/comments", nil).list()
	if len(theirs) != 2 {
		t.Fatalf("alice's private comments: %v", theirs)
	}
	n.must(http.StatusNotFound, nil, "GET", fmt.Sprintf("%s/issues/comments/%.0f", base, theirs[0]["id"].(float64)), nil)
	n.must(http.StatusNotFound, nil, "GET", base+"/issues/comments/99999", nil)
	n.must(http.StatusNotFound, nil, "GET", base+"/issues/1/99999", nil)
	for _, who := range []*forgetest.User{nil, carol} {
		n.must(http.StatusNotFound, who, "GET", secret+"/issues/comments", nil)
		n.must(http.StatusNotFound, who, "GET", fmt.Sprintf("%s/issues/comments/%.0f", secret, theirs[0]["id"].(float64)), nil)
	}
	// The issue's own comments are still its own.
	if got := n.must(http.StatusOK, nil, "GET", base+"/issues/1/comments", nil).list(); len(got) != 2 {
		t.Fatalf("issue 1's comments: %v", got)
	}

	// 3. An empty title leaves the title; one of only spaces is refused.
	closed := n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"title": "", "state": "closed"}).obj()
	if closed["title"] != "First" || closed["state"] != "closed" {
		t.Fatalf("closed with an empty title: %v", closed)
	}
	n.must(http.StatusUnprocessableEntity, alice, "PATCH", base+"/issues/1", map[string]any{"title": "   "})
}
