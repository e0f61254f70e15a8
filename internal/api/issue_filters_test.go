package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// The issue and pull request lists filter by author, assignee, mention,
// milestone and labels (all of several), and sort by Gitea's orders; an
// unknown sort, state or user is a 4xx with a message, never a 500.

// numbersOf is the numbers of a list, in its order.
func numbersOf(list []map[string]any) []int {
	out := []int{}
	for _, is := range list {
		out = append(out, int(is["number"].(float64)))
	}
	return out
}

// listed checks that GET path?query lists the numbers want, in order.
func (n *issuesNode) listed(t *testing.T, path, query string, want ...int) {
	t.Helper()
	got := numbersOf(n.must(http.StatusOK, nil, "GET", path+"?"+query, nil).list())
	if want == nil {
		want = []int{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GET %s?%s = %v, want %v", path, query, got, want)
	}
}

// refused checks that GET path?query is refused with status, naming field.
func (n *issuesNode) refused(t *testing.T, path, query string, status int, field string) {
	t.Helper()
	res := n.call(nil, "GET", path+"?"+query, nil)
	msg, _ := res.obj()["message"].(string)
	if res.status != status || msg == "" {
		t.Errorf("GET %s?%s: %d %s, want %d with a message", path, query, res.status, res.body, status)
	}
	if f, _ := res.obj()["field"].(string); field != "" && f != "" && f != field {
		t.Errorf("GET %s?%s: field %q, want %q", path, query, f, field)
	}
}

// labelled makes labels bug and ui and milestone v1 in base, and returns
// their ids.
func (n *issuesNode) labelled(owner *forgetest.User, base string) (bug, ui, v1 any) {
	bug = n.must(http.StatusCreated, owner, "POST", base+"/labels", map[string]any{"name": "bug", "color": "ee0701"}).obj()["id"]
	ui = n.must(http.StatusCreated, owner, "POST", base+"/labels", map[string]any{"name": "ui", "color": "0000ee"}).obj()["id"]
	v1 = n.must(http.StatusCreated, owner, "POST", base+"/milestones", map[string]any{"title": "v1"}).obj()["id"]
	return bug, ui, v1
}

// eachStore runs test on a node over SQLite and, with DFORGE_TEST_PG, over
// PostgreSQL.
func eachStore(t *testing.T, test func(t *testing.T, n *issuesNode)) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func TestIssueListFilters(t *testing.T) { eachStore(t, issueListFilters) }

func TestPullListFilters(t *testing.T) { eachStore(t, pullListFilters) }

func issueListFilters(t *testing.T, n *issuesNode) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "filters", false)
	base := "/api/v1/repos/" + alice.Name() + "/filters"
	bug, ui, v1 := n.labelled(alice, base)

	// #1 by bob (bug), #2 by carol (bug, ui; assigned to alice; v1), #3 by
	// alice (ui; mentions carol). #1 gets two comments, #3 one, and #2's
	// title is edited last.
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "First"})
	n.must(http.StatusCreated, carol, "POST", base+"/issues", map[string]any{"title": "Second"})
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Third", "body": "Ask @" + carol.Name() + "."})
	n.must(http.StatusOK, alice, "POST", base+"/issues/1/labels", map[string]any{"labels": []any{bug}})
	n.must(http.StatusOK, alice, "POST", base+"/issues/2/labels", map[string]any{"labels": []any{bug, ui}})
	n.must(http.StatusOK, alice, "POST", base+"/issues/3/labels", map[string]any{"labels": []any{ui}})
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/2", map[string]any{"milestone": v1, "assignees": []string{alice.Name()}})
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "one"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "two"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues/3/comments", map[string]any{"body": "three"})
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/2", map[string]any{"title": "Second, edited"})

	list := base + "/issues"
	n.listed(t, list, "", 3, 2, 1)
	n.listed(t, list, "created_by="+bob.Name(), 1)
	n.listed(t, list, "assigned_by="+alice.Name(), 2)
	n.listed(t, list, "mentioned_by="+carol.Name(), 3)
	n.listed(t, list, "milestones=v1", 2)
	n.listed(t, list, fmt.Sprintf("milestones=%v", v1), 2)
	n.listed(t, list, "labels=bug", 2, 1)
	n.listed(t, list, "labels=bug,ui", 2)
	n.listed(t, list, "labels=bug&labels=ui", 2)
	n.listed(t, list, fmt.Sprintf("labels=%v,%v", ui, bug), 2)
	n.listed(t, list, "labels=bug,nothing")
	n.listed(t, list, "labels=ui&created_by="+alice.Name(), 3)
	n.listed(t, list, "sort=newest", 3, 2, 1)
	n.listed(t, list, "sort=oldest", 1, 2, 3)
	n.listed(t, list, "sort=recentupdate", 2, 3, 1)
	n.listed(t, list, "sort=leastupdate", 1, 3, 2)
	n.listed(t, list, "sort=mostcomment", 1, 3, 2)
	n.listed(t, list, "sort=leastcomment", 2, 3, 1)
	n.listed(t, list, "labels=ui&sort=oldest", 2, 3)
	n.listed(t, list, "sort=oldest&limit=1&page=2", 2)

	n.refused(t, list, "sort=best", http.StatusBadRequest, "sort")
	n.refused(t, list, "state=half", http.StatusBadRequest, "state")
	n.refused(t, list, "created_by=nobody-at-all", http.StatusUnprocessableEntity, "created_by")
	n.refused(t, list, "assigned_by=nobody-at-all", http.StatusUnprocessableEntity, "assigned_by")
	n.refused(t, list, "mentioned_by="+url.QueryEscape("no one"), http.StatusUnprocessableEntity, "mentioned_by")
}

func pullListFilters(t *testing.T, n *issuesNode) {
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "app", false)
	n.fork(bob, repo)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	bug, ui, v1 := n.labelled(alice, base)

	// #1 by alice (bug), #2 by bob from his fork (bug, ui; v1), #3 by
	// alice. #1 gets two comments, #3 one, and #2's title is edited last.
	n.push(alice, alice, "app", "one", "main", map[string]string{"one.txt": "1\n"})
	n.push(bob, bob, "app", "two", "main", map[string]string{"two.txt": "2\n"})
	n.push(alice, alice, "app", "three", "main", map[string]string{"three.txt": "3\n"})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "one", "base": "main", "title": "One"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":two", "base": "main", "title": "Two"})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "three", "base": "main", "title": "Three"})
	n.must(http.StatusOK, alice, "POST", base+"/issues/1/labels", map[string]any{"labels": []any{bug}})
	n.must(http.StatusOK, alice, "POST", base+"/issues/2/labels", map[string]any{"labels": []any{bug, ui}})
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/2", map[string]any{"milestone": v1})
	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "one"})
	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "two"})
	n.must(http.StatusCreated, alice, "POST", base+"/issues/3/comments", map[string]any{"body": "three"})
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/2", map[string]any{"title": "Two, edited"})

	list := base + "/pulls"
	n.listed(t, list, "", 3, 2, 1)
	n.listed(t, list, "poster="+bob.Name(), 2)
	n.listed(t, list, "poster="+alice.Name(), 3, 1)
	n.listed(t, list, fmt.Sprintf("milestone=%v", v1), 2)
	n.listed(t, list, "milestone=999")
	n.listed(t, list, fmt.Sprintf("labels=%v", bug), 2, 1)
	n.listed(t, list, fmt.Sprintf("labels=%v&labels=%v", bug, ui), 2)
	n.listed(t, list, fmt.Sprintf("labels=%v&sort=oldest", bug), 1, 2)
	n.listed(t, list, "sort=oldest", 1, 2, 3)
	n.listed(t, list, "sort=recentupdate", 2, 3, 1)
	n.listed(t, list, "sort=leastupdate", 1, 3, 2)
	n.listed(t, list, "sort=mostcomment", 1, 3, 2)
	n.listed(t, list, "sort=leastcomment", 2, 3, 1)
	n.listed(t, list, "sort=priority", 3, 2, 1)
	// The web's pull request list reads the issue route, which filters alike.
	n.listed(t, base+"/issues", "type=pulls&sort=oldest", 1, 2, 3)
	n.listed(t, base+"/issues", "type=pulls&created_by="+bob.Name()+"&labels=bug,ui&milestones=v1", 2)
	n.listed(t, base+"/issues", "type=pulls&sort=mostcomment&state=all", 1, 3, 2)

	n.refused(t, list, "sort=best", http.StatusBadRequest, "sort")
	n.refused(t, list, "poster=nobody-at-all", http.StatusUnprocessableEntity, "poster")
}
