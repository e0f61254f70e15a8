package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestSignedInAnswersArePrivate: the web client's service worker keeps
// recently read API answers for offline use, but only those not marked
// private; every answer to a signed-in request is marked private, so a
// private repository never lands in that cache, while an anonymous read of
// a public one may.
func TestSignedInAnswersArePrivate(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	n.repo(alice, "open", false)
	n.repo(alice, "hidden", true)
	base := "/api/v1/repos/" + alice.Name()

	for _, path := range []string{base + "/hidden", base + "/open", "/api/v1/user", base + "/open/issues"} {
		res := n.must(http.StatusOK, alice, "GET", path, nil)
		if cc := res.header.Get("Cache-Control"); !strings.Contains(cc, "private") && !strings.Contains(cc, "no-store") {
			t.Errorf("signed-in GET %s: Cache-Control %q, want private", path, cc)
		}
	}
	for _, path := range []string{base + "/open", base + "/open/issues", "/api/v1/pages/about"} {
		res := n.must(http.StatusOK, nil, "GET", path, nil)
		if cc := res.header.Get("Cache-Control"); strings.Contains(cc, "private") || strings.Contains(cc, "no-store") {
			t.Errorf("anonymous GET %s: Cache-Control %q, want it cacheable", path, cc)
		}
	}
	// The private repository is not there for anyone else at all.
	n.must(http.StatusNotFound, nil, "GET", base+"/hidden", nil)
}
