package api_test

import (
	"github.com/dforge/dforge/internal/forgetest"

	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestLongQueryParameters: a query parameter past its bound is refused
// with 422 query_too_long naming it, on the anonymous searches and lists
// that once answered a 60,000-character q with a 500 (SQLite: "LIKE or
// GLOB pattern too complex"); q within the bound still finds what it
// should, and absurd page numbers are refused or clamped, never a 500.
func TestLongQueryParameters(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	n.repo(alice, "lathe", false)
	base := "/api/v1/repos/" + alice.Name() + "/lathe"
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Spindle wobbles"})
	n.push(alice, alice, "lathe", "true-up", "main", map[string]string{"spindle.txt": "trued\n"})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "true-up", "base": "main", "title": "True the spindle"})

	// found reads the names a list or {ok, data} search answer holds.
	found := func(body []byte) string {
		var page struct{ Data []map[string]any }
		var list []map[string]any
		if json.Unmarshal(body, &list) != nil {
			if err := json.Unmarshal(body, &page); err != nil {
				t.Fatalf("not a list: %s", body)
			}
			list = page.Data
		}
		var names []string
		for _, v := range list {
			for _, k := range []string{"title", "name", "login"} {
				if s, ok := v[k].(string); ok {
					names = append(names, s)
				}
			}
		}
		return strings.Join(names, ",")
	}
	long := strings.Repeat("a", 60000)
	for _, c := range []struct{ path, q, want string }{
		{"/api/v1/repos/search", "lath", "lathe"},
		{"/api/v1/repos/issues/search", "wobble", "Spindle wobbles"},
		{"/api/v1/users/search", alice.Name()[len("user-"):], alice.Name()},
		{base + "/issues", "wobble", "Spindle wobbles"},
		{base + "/pulls", "true", "True the spindle"},
	} {
		if res := n.call(nil, "GET", c.path+"?q="+long, nil); res.status != http.StatusUnprocessableEntity ||
			res.obj()["code"] != "query_too_long" || !strings.HasPrefix(res.obj()["message"].(string), "q ") {
			t.Errorf("%s with a 60,000-character q: %d %s", c.path, res.status, res.body)
		}
		// Within the bound (256 characters, not bytes), and on the same
		// page as the known match.
		n.must(http.StatusOK, nil, "GET", c.path+"?q="+url.QueryEscape(strings.Repeat("é", 256)), nil)
		if got := found(n.must(http.StatusOK, nil, "GET", c.path+"?q="+c.q, nil).body); got != c.want {
			t.Errorf("%s?q=%s found %q, want %q", c.path, c.q, got, c.want)
		}
	}

	// Every other parameter is bounded too, naming it.
	for _, path := range []string{base + "/issues?labels=", "/api/v1/repos/search?sort=", base + "/commits?path="} {
		res := n.must(http.StatusUnprocessableEntity, nil, "GET", path+strings.Repeat("x", 5000), nil).obj()
		if name := path[strings.Index(path, "?")+1 : len(path)-1]; res["code"] != "query_too_long" || !strings.HasPrefix(res["message"].(string), name+" ") {
			t.Errorf("%s…: %v", path, res)
		}
	}

	// Numbers past any page: refused (page) or clamped (limit), never a 500.
	n.must(http.StatusBadRequest, nil, "GET", base+"/issues?page=99999999999999999999", nil)
	n.must(http.StatusBadRequest, nil, "GET", base+"/issues?page=-1", nil)
	n.must(http.StatusBadRequest, nil, "GET", base+"/issues?limit=-5", nil)
	if got := found(n.must(http.StatusOK, nil, "GET", base+"/issues?page=2147483647&limit=2147483647", nil).body); got != "" {
		t.Errorf("a page far past the end lists %q", got)
	}
	if res := n.must(http.StatusOK, nil, "GET", "/api/v1/repos/search?limit=99999999", nil); !strings.Contains(found(res.body), "lathe") {
		t.Errorf("a huge limit: %s", res.body)
	}
}

// TestControlCharactersInQueryParameters: a NUL in q made PostgreSQL
// refuse the search (a 500). Every query parameter but a path is held to
// the one-line rule, a path only to "no NUL", on both stores.
func TestControlCharactersInQueryParameters(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := &issuesNode{Node: forgetest.Start(t, opts...), t: t}
			alice := n.NewUser()
			n.repo(alice, "loom", false)
			base := "/api/v1/repos/" + alice.Name() + "/loom"
			for _, path := range []string{
				"/api/v1/repos/search?q=a%00b", "/api/v1/repos/issues/search?q=%00", "/api/v1/users/search?q=%00",
				base + "/issues?q=%00", base + "/pulls?q=%01", base + "/issues?q=%FF", base + "/issues?labels=bug%00",
				base + "/contents?ref=main%00", base + "/raw/README.md?path=a%00b",
			} {
				res := n.Call("GET", path, nil, nil)
				var body struct{ Code, Field string }
				json.Unmarshal(res.Body, &body)
				if res.Status != http.StatusUnprocessableEntity || body.Code != "invalid_text" || body.Field == "" {
					t.Errorf("GET %s = %d %s, want 422 invalid_text naming the parameter", path, res.Status, res.Body)
				}
			}
			// A tab in a path is a byte git allows; it is looked up, not refused.
			if res := n.Call("GET", base+"/contents?path=a%09b", nil, nil); res.Status == http.StatusUnprocessableEntity || res.Status >= 500 {
				t.Errorf("a path with a tab = %d %s, want it looked up", res.Status, res.Body)
			}
			if res := n.Call("GET", "/api/v1/repos/search?q=loom", nil, nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "loom") {
				t.Errorf("a plain search after them = %d %s", res.Status, res.Body)
			}
		})
	}
}

// TestHugePageNumbers: a page number near the int limit once overflowed
// the git tree listing's slice bounds (a panic, 500). Huge pages are a
// client's mistake or an empty page, on every paged list.
func TestHugePageNumbers(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	n.repo(alice, "kiln", false)
	n.push(alice, alice, "kiln", "glaze", "main", map[string]string{"glaze.txt": "celadon\n"})
	base := "/api/v1/repos/" + alice.Name() + "/kiln"
	for _, path := range []string{
		base + "/git/trees/glaze?page=9223372036854775807", base + "/git/trees/glaze?per_page=9223372036854775807&page=2",
		base + "/git/trees/glaze?page=2147483647", base + "/branches?page=9223372036854775807", base + "/commits?page=9223372036854775807",
		base + "/issues?page=9223372036854775807", "/api/v1/repos/search?page=9223372036854775807",
	} {
		res := n.Call("GET", path, nil, nil)
		if res.Status >= 500 || res.Status != http.StatusOK && res.Status != http.StatusBadRequest && res.Status != http.StatusUnprocessableEntity {
			t.Errorf("GET %s = %d %s, want 200 (an empty page) or a 4xx", path, res.Status, res.Body)
		}
	}
}
