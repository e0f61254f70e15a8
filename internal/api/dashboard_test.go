package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// dashOut is the part of GET /user/dashboard the tests read.
type dashOut struct {
	ReviewRequests dashSection `json:"review_requests"`
	Assigned       dashSection `json:"assigned"`
	Pulls          struct {
		dashSection
		Items []struct {
			Title     string `json:"title"`
			HeadSHA   string `json:"head_sha"`
			Approvals int    `json:"approvals"`
			Checks    struct {
				State      string `json:"state"`
				TotalCount int    `json:"total_count"`
				Statuses   []struct {
					Context string `json:"context"`
					Status  string `json:"status"`
				} `json:"statuses"`
			} `json:"checks"`
		} `json:"items"`
	} `json:"pulls"`
	Repositories struct {
		TotalCount int64  `json:"total_count"`
		SeeAll     string `json:"see_all"`
		Items      []struct {
			FullName string `json:"full_name"`
		} `json:"items"`
	} `json:"repositories"`
	Notifications struct {
		TotalCount int64  `json:"total_count"`
		SeeAll     string `json:"see_all"`
		Items      []struct {
			Subject struct {
				Title string `json:"title"`
			} `json:"subject"`
		} `json:"items"`
	} `json:"notifications"`
}

type dashSection struct {
	TotalCount int64  `json:"total_count"`
	SeeAll     string `json:"see_all"`
	Items      []struct {
		Title      string `json:"title"`
		HTMLURL    string `json:"html_url"`
		Repository struct {
			FullName string `json:"full_name"`
		} `json:"repository"`
	} `json:"items"`
}

func (d dashOut) notes() []string {
	out := []string{}
	for _, th := range d.Notifications.Items {
		out = append(out, th.Subject.Title)
	}
	return out
}

func (s dashSection) titles() string {
	out := []string{}
	for _, it := range s.Items {
		out = append(out, it.Title)
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// TestDashboard: each section lists what needs the signed-in user and
// nobody else's: the review requests and assignments they got (in public
// and private repositories they may read), their open pull requests with
// the combined status of each head, their repositories by ownership and
// collaboration and organization membership, their notifications. A public-only token sees none of
// the private repository's items, a stranger sees nothing of either user,
// and the "see all" queries list the same items through Gitea's issue
// search.
func TestDashboard(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testDashboard(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func testDashboard(t *testing.T, n *issuesNode) {
	alice, bob, carol := n.NewUser(), n.NewUser("all"), n.NewUser()
	n.repo(alice, "pub", false)
	n.repo(alice, "sec", true)
	n.repo(bob, "tool", false)
	pub, sec, tool := "/api/v1/repos/"+alice.Name()+"/pub", "/api/v1/repos/"+alice.Name()+"/sec", "/api/v1/repos/"+bob.Name()+"/tool"
	// An organization's repository is its members' too.
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs", map[string]string{"username": "dashorg"})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/dashorg/repos", map[string]any{"name": "shared"})
	for _, r := range []string{pub, sec} { // assignees need write permission
		n.must(http.StatusNoContent, alice, "PUT", r+"/collaborators/"+bob.Name(), map[string]any{"permission": "write"})
	}

	// 1. Alice asks bob to review a pull request in each repository and
	// assigns him an issue in each; carol is mentioned in the public one.
	for _, r := range []struct{ name, base, title string }{{"pub", pub, "Public"}, {"sec", sec, "Secret"}} {
		n.push(alice, alice, r.name, "feature", "main", map[string]string{"a.go": "package a\n"}, "Add a")
		n.must(http.StatusCreated, alice, "POST", r.base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": r.title + " change"})
		n.must(http.StatusCreated, alice, "POST", r.base+"/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{bob.Name()}})
		n.must(http.StatusCreated, alice, "POST", r.base+"/issues", map[string]any{"title": r.title + " bug", "assignees": []string{bob.Name()}})
	}
	// A mention reaches accounts the chain knows: carol stars pub first.
	n.must(http.StatusNoContent, carol, "PUT", "/api/v1/user/starred/"+alice.Name()+"/pub", nil)
	n.must(http.StatusCreated, alice, "POST", pub+"/issues/2/comments", map[string]any{"body": "cc @" + carol.Name()})
	n.must(http.StatusCreated, alice, "POST", pub+"/issues", map[string]any{"title": "Closed bug", "assignees": []string{bob.Name()}})
	n.must(http.StatusCreated, alice, "PATCH", pub+"/issues/3", map[string]any{"state": "closed"})

	// 2. Bob's own pull request, with two checks on its head.
	head := n.push(bob, bob, "tool", "fix", "main", map[string]string{"b.go": "package b\n"}, "Fix b")
	n.must(http.StatusCreated, bob, "POST", tool+"/pulls", map[string]any{"head": "fix", "base": "main", "title": "Bob fix"})
	n.must(http.StatusCreated, bob, "POST", tool+"/statuses/"+head, map[string]any{"state": "success", "context": "lint"})
	n.must(http.StatusCreated, bob, "POST", tool+"/statuses/"+head, map[string]any{"state": "pending", "context": "test"})
	n.must(http.StatusCreated, bob, "POST", tool+"/statuses/"+head, map[string]any{"state": "failure", "context": "test"})
	// Alice approves it; carol approves, then asks for changes.
	n.must(http.StatusOK, alice, "POST", tool+"/pulls/1/reviews", map[string]any{"event": "APPROVED", "body": "ok"})
	n.must(http.StatusOK, carol, "POST", tool+"/pulls/1/reviews", map[string]any{"event": "APPROVED", "body": "ok"})
	n.must(http.StatusOK, carol, "POST", tool+"/pulls/1/reviews", map[string]any{"event": "REQUEST_CHANGES", "body": "wait"})

	dash := func(u *forgetest.User) dashOut {
		t.Helper()
		var d dashOut
		n.JSON("GET", "/api/v1/user/dashboard", u, nil, http.StatusOK, &d)
		return d
	}

	// 3. Bob sees both repositories' requests and assignments.
	d := dash(bob)
	if got := d.ReviewRequests.titles(); got != "Public change,Secret change" || d.ReviewRequests.TotalCount != 2 {
		t.Fatalf("bob's review requests: %q (%d)", got, d.ReviewRequests.TotalCount)
	}
	if got := d.Assigned.titles(); got != "Public bug,Secret bug" || d.Assigned.TotalCount != 2 {
		t.Fatalf("bob's assignments: %q (%d)", got, d.Assigned.TotalCount)
	}
	if !strings.HasSuffix(d.Assigned.Items[0].HTMLURL, "/issues/2") {
		t.Fatalf("an assignment's link: %s", d.Assigned.Items[0].HTMLURL)
	}
	if len(d.Pulls.Items) != 1 || d.Pulls.TotalCount != 1 {
		t.Fatalf("bob's pull requests: %+v", d.Pulls)
	}
	pr := d.Pulls.Items[0]
	if pr.Title != "Bob fix" || pr.HeadSHA != head || pr.Approvals != 1 || pr.Checks.State != "failure" || pr.Checks.TotalCount != 2 ||
		len(pr.Checks.Statuses) != 2 || pr.Checks.Statuses[0].Context != "lint" || pr.Checks.Statuses[1].Status != "failure" {
		t.Fatalf("bob's pull request and its checks: %+v", pr)
	}
	repos := []string{}
	for _, r := range d.Repositories.Items {
		repos = append(repos, r.FullName)
	}
	slices.Sort(repos)
	want := []string{alice.Name() + "/pub", alice.Name() + "/sec", bob.Name() + "/tool"}
	slices.Sort(want)
	if !slices.Equal(repos, want) || d.Repositories.TotalCount != 3 {
		t.Fatalf("bob's repositories: %v (%d), want %v", repos, d.Repositories.TotalCount, want)
	}
	if notes := d.notes(); !slices.Contains(notes, "Public bug") || !slices.Contains(notes, "Secret bug") || d.Notifications.TotalCount != int64(len(notes)) {
		t.Fatalf("bob's notifications: %v (%d)", notes, d.Notifications.TotalCount)
	}

	// 4. "See all": the same items through the issue search, for bob only.
	for _, s := range []dashSection{d.ReviewRequests, d.Assigned} {
		var list []map[string]any
		n.JSON("GET", s.SeeAll, bob, nil, http.StatusOK, &list)
		if len(list) != len(s.Items) {
			t.Fatalf("%s lists %d, the dashboard %d", s.SeeAll, len(list), len(s.Items))
		}
	}
	var all []map[string]any
	n.JSON("GET", d.Repositories.SeeAll, bob, nil, http.StatusOK, &all)
	if len(all) != 3 {
		t.Fatalf("%s: %v", d.Repositories.SeeAll, all)
	}
	search := func(u *forgetest.User, q string) string {
		t.Helper()
		var list []struct {
			Title string `json:"title"`
		}
		n.JSON("GET", "/api/v1/repos/issues/search?"+q, u, nil, http.StatusOK, &list)
		out := []string{}
		for _, is := range list {
			out = append(out, is.Title)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	for _, c := range []struct {
		u    *forgetest.User
		q    string
		want string
	}{
		{alice, "review_requested=true", ""},
		{alice, "created=true&type=issues&state=all", "Closed bug,Public bug,Secret bug"},
		{bob, "assigned=true&state=closed", "Closed bug"},
		{bob, "created=true", "Bob fix"},
		{carol, "mentioned=true", "Public bug"},
		{carol, "assigned=true", ""},
		{bob, "reviewed=true", ""},
		{carol, "reviewed=true", "Bob fix"},
		{nil, "q=bug&assigned=true", "Public bug"}, // anonymous: the relation means nothing, the private one stays hidden
	} {
		if got := search(c.u, c.q); got != c.want {
			t.Errorf("search %s: %q, want %q", c.q, got, c.want)
		}
	}

	// 5. A public-only token of bob's sees nothing of the private repository.
	var tok tokenOut
	n.JSON("POST", "/api/v1/users/"+bob.Name()+"/tokens", bob, map[string]any{"name": "pub", "scopes": []string{"public-only", "read:repository", "read:issue", "read:user", "read:notification"}},
		http.StatusCreated, &tok)
	d = dash(&forgetest.User{Address: bob.Address, Token: tok.SHA1})
	if d.ReviewRequests.titles() != "Public change" || d.Assigned.titles() != "Public bug" || d.ReviewRequests.TotalCount != 1 || d.Assigned.TotalCount != 1 ||
		len(d.Repositories.Items) != 2 || d.Repositories.TotalCount != 2 {
		t.Fatalf("bob's public-only dashboard: %+v", d)
	}
	if notes := d.notes(); !slices.Contains(notes, "Public bug") || slices.ContainsFunc(notes, func(s string) bool { return strings.HasPrefix(s, "Secret") }) ||
		d.Notifications.TotalCount != int64(len(notes)) {
		t.Fatalf("bob's public-only notifications: %v (%d)", notes, d.Notifications.TotalCount)
	}

	// 6. Carol has nothing but her mention; alice, the author, nothing to do
	// but her repositories; nobody signed in gets a 401.
	d = dash(carol)
	if d.ReviewRequests.TotalCount+d.Assigned.TotalCount+d.Pulls.TotalCount+d.Repositories.TotalCount != 0 ||
		len(d.Notifications.Items) != 1 || d.Notifications.Items[0].Subject.Title != "Public bug" {
		t.Fatalf("carol's dashboard: %+v", d)
	}
	d = dash(alice)
	if d.ReviewRequests.TotalCount != 0 || d.Assigned.TotalCount != 0 || d.Pulls.TotalCount != 2 || d.Repositories.TotalCount != 3 ||
		!slices.ContainsFunc(d.Repositories.Items, func(r struct {
			FullName string `json:"full_name"`
		}) bool {
			return r.FullName == "dashorg/shared"
		}) {
		t.Fatalf("alice's dashboard: %+v", d)
	}
	n.must(http.StatusUnauthorized, nil, "GET", "/api/v1/user/dashboard", nil)
	n.must(http.StatusUnauthorized, nil, "GET", "/api/v1/user/dashboard/repos", nil)
}
