package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// The search tests run a whole node (forgetest) and search what they made
// through the API: users by name and full name, and issues across
// repositories, private ones only for those who may read them.

// searchPage is Gitea's {ok, data} search answer.
type searchPage struct {
	OK   bool             `json:"ok"`
	Data []map[string]any `json:"data"`
}

func (n *issuesNode) searchUsers(q string, extra string) (searchPage, apiResult) {
	n.t.Helper()
	res := n.must(http.StatusOK, nil, "GET", "/api/v1/users/search?q="+url.QueryEscape(q)+extra, nil)
	var page searchPage
	if err := json.Unmarshal(res.body, &page); err != nil || !page.OK || page.Data == nil {
		n.t.Fatalf("users search %q: %s", q, res.body)
	}
	return page, res
}

func logins(list []map[string]any) []string {
	out := make([]string, len(list))
	for i, u := range list {
		out[i], _ = u["login"].(string)
	}
	return out
}

func TestSearchUsers(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	// A transaction on chain makes its people accounts the chain knows;
	// dave has a token on this node but never signed a delegation (a
	// wallet whose key the test does not hold), so he is no account yet.
	dave := n.UserAt(common.BytesToAddress(crypto.Keccak256([]byte(t.Name()))[12:]))
	for _, u := range []*forgetest.User{alice, bob, carol} {
		n.repo(u, "things", false)
	}
	n.must(http.StatusOK, bob, "PATCH", "/api/v1/user/settings", map[string]string{"full_name": "Grace Hopper", "location": "Arlington"})

	// 1. A piece of a name, in any case, finds that account alone.
	piece := strings.ToUpper(alice.Name()[len("user-") : len("user-")+8])
	if page, res := n.searchUsers(piece, ""); len(page.Data) != 1 || page.Data[0]["login"] != alice.Name() || res.header.Get("X-Total-Count") != "1" {
		t.Fatalf("search %q: %s", piece, res.body)
	}
	if page, _ := n.searchUsers(dave.Name(), ""); len(page.Data) != 0 {
		t.Fatalf("dave, unknown to the chain, was found: %v", page.Data)
	}

	// 2. The full name on this node matches too, and the answer is the
	// public profile of GET /users/{username}: no email.
	page, _ := n.searchUsers("hOPPER", "")
	if len(page.Data) != 1 {
		t.Fatalf("full name search: %v", page.Data)
	}
	got := page.Data[0]
	_, hasEmail := got["email"]
	bobID, _ := got["id"].(float64)
	if got["login"] != bob.Name() || got["full_name"] != "Grace Hopper" || got["location"] != "Arlington" || bobID < 1 || bobID >= float64(index.LocalUserIDBase) ||
		got["wallet_address"] != bob.Address.Hex() || got["created"] == "" || hasEmail {
		t.Fatalf("bob as found: %v", got)
	}
	// uid finds bob by that id, the same on every node (his account's
	// number in the chain's order); an id nobody has finds nobody.
	if page, res := n.searchUsers("", fmt.Sprintf("&uid=%d", int64(bobID))); len(page.Data) != 1 || page.Data[0]["login"] != bob.Name() {
		t.Fatalf("search by uid: %s", res.body)
	}
	if page, _ := n.searchUsers(alice.Name(), fmt.Sprintf("&uid=%d", int64(bobID))); len(page.Data) != 0 {
		t.Fatalf("alice's name with bob's uid: %v", page.Data)
	}
	n.must(http.StatusUnprocessableEntity, nil, "GET", "/api/v1/users/search?uid=bob", nil)
	profile := n.must(http.StatusOK, nil, "GET", "/api/v1/users/"+bob.Name(), nil).obj()
	for _, k := range []string{"id", "login", "full_name", "description", "location", "website", "created", "wallet_address"} {
		if fmt.Sprint(profile[k]) != fmt.Sprint(got[k]) {
			t.Errorf("%s: search gives %v, the profile %v", k, got[k], profile[k])
		}
	}

	// 3. The account named exactly q comes first, even when another
	// (matching by full name) sorts before it.
	exact, fan := alice, carol
	if carol.Name() > alice.Name() {
		exact, fan = carol, alice
	}
	n.must(http.StatusOK, fan, "PATCH", "/api/v1/user/settings", map[string]string{"full_name": "Fan of " + exact.Name()})
	if page, _ := n.searchUsers(strings.ToUpper(exact.Name()), ""); strings.Join(logins(page.Data), ",") != exact.Name()+","+fan.Name() {
		t.Fatalf("exact match first: %v, want %s then %s", logins(page.Data), exact.Name(), fan.Name())
	}

	// 4. Paging: every account without a claimed name is user-..., one a
	// page, with Gitea's headers; past the end is empty with the total.
	all, res := n.searchUsers("user-", "&limit=100")
	total := res.header.Get("X-Total-Count")
	if len(all.Data) < 3 || total != fmt.Sprint(len(all.Data)) {
		t.Fatalf("all user-: %d, X-Total-Count %s", len(all.Data), total)
	}
	first, res := n.searchUsers("user-", "&limit=1")
	if len(first.Data) != 1 || first.Data[0]["login"] != all.Data[0]["login"] || res.header.Get("X-Total-Count") != total ||
		!strings.Contains(res.header.Get("Link"), `rel="next"`) {
		t.Fatalf("first page: %v %v", first.Data, res.header)
	}
	second, _ := n.searchUsers("user-", "&limit=1&page=2")
	if len(second.Data) != 1 || second.Data[0]["login"] != all.Data[1]["login"] {
		t.Fatalf("second page: %v", second.Data)
	}
	past, res := n.searchUsers("user-", "&limit=1&page=1000")
	if len(past.Data) != 0 || res.header.Get("X-Total-Count") != total {
		t.Fatalf("past the end: %v, X-Total-Count %s, want %s", past.Data, res.header.Get("X-Total-Count"), total)
	}
	everyone, res := n.searchUsers("", "&limit=100")
	if len(everyone.Data) < len(all.Data) || res.header.Get("X-Total-Count") != fmt.Sprint(len(everyone.Data)) {
		t.Fatalf("no q lists everyone: %d of %s", len(everyone.Data), res.header.Get("X-Total-Count"))
	}

	// 5. LIKE's wildcards are plain characters.
	for _, q := range []string{"%", "_", `\`} {
		if page, _ := n.searchUsers(q, ""); len(page.Data) != 0 {
			t.Errorf("search %q found %v", q, logins(page.Data))
		}
	}

	// 6. /users/search is not a user called search; users are still found by name.
	if n.must(http.StatusOK, nil, "GET", "/api/v1/users/"+alice.Name(), nil).obj()["login"] != alice.Name() {
		t.Fatal("GET /users/{username} no longer answers")
	}
}

// issueSearch is GET /repos/issues/search as u (nil: anonymous).
func (n *issuesNode) issueSearch(u *forgetest.User, query string) ([]map[string]any, apiResult) {
	n.t.Helper()
	res := n.must(http.StatusOK, u, "GET", "/api/v1/repos/issues/search?"+query, nil)
	list := res.list()
	if list == nil {
		n.t.Fatalf("issue search %s: not a list: %s", query, res.body)
	}
	return list, res
}

// refs are the found issues as owner/repo#number.
func refs(list []map[string]any) []string {
	out := make([]string, len(list))
	for i, is := range list {
		repo, _ := is["repository"].(map[string]any)
		out[i] = fmt.Sprintf("%v#%v", repo["full_name"], is["number"])
	}
	return out
}

func sameSet(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
	}
	for _, w := range want {
		if seen[w] == 0 {
			return false
		}
		seen[w]--
	}
	return true
}

func TestSearchIssues(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol, dave := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "alpha", false)
	n.repo(bob, "beta", false)
	n.repo(carol, "secret", true)
	alpha, beta, secret := alice.Name()+"/alpha", bob.Name()+"/beta", carol.Name()+"/secret"
	issue := func(u *forgetest.User, repo, title, body string) {
		t.Helper()
		n.must(http.StatusCreated, u, "POST", "/api/v1/repos/"+repo+"/issues", map[string]any{"title": title, "body": body})
	}

	// alpha: #1 open, #2 closed (matching by its body), #3 a pull request.
	issue(alice, alpha, "Needle in the title", "")
	issue(bob, alpha, "Closed one", "there is a NEEDLE here")
	n.must(http.StatusCreated, alice, "PATCH", "/api/v1/repos/"+alpha+"/issues/2", map[string]any{"state": "closed"})
	n.push(alice, alice, "alpha", "feature", "main", map[string]string{"f.txt": "f\n"})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+alpha+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "A needle pull"})
	// beta: #1 matches nothing, #2 holds LIKE's wildcards.
	issue(bob, beta, "Unrelated", "nothing to see")
	issue(bob, beta, "Needle_50% done", "")
	// secret, private: only carol, and bob once he collaborates.
	issue(carol, secret, "Secret needle", "")

	public := []string{alpha + "#1", alpha + "#2", alpha + "#3", beta + "#2"}

	// 1. Anyone finds the public matches; open ones by default. A private
	// repository's issues are not found, nor counted.
	list, res := n.issueSearch(nil, "q=needle")
	if !sameSet(refs(list), []string{alpha + "#1", alpha + "#3", beta + "#2"}) || res.header.Get("X-Total-Count") != "3" {
		t.Fatalf("open: %v (%s)", refs(list), res.header.Get("X-Total-Count"))
	}
	for _, who := range []*forgetest.User{nil, dave, bob} {
		list, res := n.issueSearch(who, "q=NEEDLE&state=all")
		if !sameSet(refs(list), public) || res.header.Get("X-Total-Count") != "4" {
			t.Fatalf("all, as %v: %v (%s)", who, refs(list), res.header.Get("X-Total-Count"))
		}
	}
	if list, _ := n.issueSearch(nil, "q=needle&state=closed"); !sameSet(refs(list), []string{alpha + "#2"}) || list[0]["state"] != "closed" {
		t.Fatalf("closed: %v", refs(list))
	}

	// 2. By type.
	if list, _ := n.issueSearch(nil, "q=needle&state=all&type=issues"); !sameSet(refs(list), []string{alpha + "#1", alpha + "#2", beta + "#2"}) {
		t.Fatalf("issues: %v", refs(list))
	}
	list, _ = n.issueSearch(nil, "q=needle&state=all&type=pulls")
	if !sameSet(refs(list), []string{alpha + "#3"}) || list[0]["pull_request"] == nil ||
		!strings.HasSuffix(list[0]["html_url"].(string), "/"+alpha+"/pulls/3") {
		t.Fatalf("pulls: %v", list)
	}

	// 3. Gitea's Issue, as the repository's own list gives it, with the
	// repository it is in.
	list, _ = n.issueSearch(nil, "q=in+the+title")
	own := n.must(http.StatusOK, nil, "GET", "/api/v1/repos/"+alpha+"/issues?type=issues", nil).list()
	if len(list) != 1 || len(own) != 1 || mustJSON(list[0]) != mustJSON(own[0]) {
		t.Fatalf("found %s\nlisted %s", mustJSON(list), mustJSON(own))
	}
	repo := list[0]["repository"].(map[string]any)
	if repo["name"] != "alpha" || repo["owner"] != alice.Name() || repo["full_name"] != alpha || repo["id"] == nil {
		t.Fatalf("repository: %v", repo)
	}

	// 4. The private repository's issue, for its owner and then a
	// collaborator; never for anyone else.
	if list, res := n.issueSearch(carol, "q=needle&state=all"); !sameSet(refs(list), append([]string{secret + "#1"}, public...)) ||
		res.header.Get("X-Total-Count") != "5" {
		t.Fatalf("carol: %v (%s)", refs(list), res.header.Get("X-Total-Count"))
	}
	n.must(http.StatusNoContent, carol, "PUT", "/api/v1/repos/"+secret+"/collaborators/"+bob.Name(), map[string]string{"permission": "read"})
	if list, res := n.issueSearch(bob, "q=secret"); !sameSet(refs(list), []string{secret + "#1"}) || res.header.Get("X-Total-Count") != "1" {
		t.Fatalf("bob, collaborating: %v", refs(list))
	}
	for _, who := range []*forgetest.User{nil, dave} {
		if list, res := n.issueSearch(who, "q=secret&state=all"); len(list) != 0 || res.header.Get("X-Total-Count") != "0" {
			t.Fatalf("%v sees the private issue: %v (%s)", who, refs(list), res.header.Get("X-Total-Count"))
		}
	}

	// 5. LIKE's wildcards match themselves only; no q is every issue.
	for _, q := range []string{"50%25", "_50", "%25"} {
		if list, _ := n.issueSearch(nil, "q="+q); !sameSet(refs(list), []string{beta + "#2"}) {
			t.Errorf("q=%s: %v", q, refs(list))
		}
	}
	if _, res := n.issueSearch(nil, "state=all"); res.header.Get("X-Total-Count") != "5" {
		t.Fatalf("no q, anonymous: X-Total-Count %s, want the 5 public issues", res.header.Get("X-Total-Count"))
	}

	// 6. Pages, most recently updated first, with Gitea's headers.
	var paged []string
	for page := 1; page <= 2; page++ {
		list, res := n.issueSearch(nil, fmt.Sprintf("q=needle&state=all&limit=2&page=%d", page))
		if len(list) != 2 || res.header.Get("X-Total-Count") != "4" {
			t.Fatalf("page %d: %v (%s)", page, refs(list), res.header.Get("X-Total-Count"))
		}
		if page == 1 && (!strings.Contains(res.header.Get("Link"), `rel="next"`) || refs(list)[0] != beta+"#2") {
			t.Fatalf("page 1: %v, Link %s; want the newest, %s#2, first", refs(list), res.header.Get("Link"), beta)
		}
		paged = append(paged, refs(list)...)
	}
	if !sameSet(paged, public) {
		t.Fatalf("pages: %v", paged)
	}

	// 7. Bad filters are Gitea's 422.
	for query, field := range map[string]string{"state=shut": "state", "type=prs": "type"} {
		res := n.call(nil, "GET", "/api/v1/repos/issues/search?"+query, nil)
		if got := res.obj(); res.status != http.StatusUnprocessableEntity || got["field"] != field || got["message"] == "" {
			t.Errorf("%s: %d %s", query, res.status, res.body)
		}
	}

	// 8. The literal path wins over /repos/{owner}/{repo}; there is no
	// user "issues" (the chain reserves it), so its repositories are 404.
	res = n.call(nil, "GET", "/api/v1/repos/issues/search/issues", nil)
	if res.status != http.StatusNotFound {
		t.Fatalf("/repos/issues/search/issues: %d %s", res.status, res.body)
	}
	if res := n.call(nil, "GET", "/api/v1/repos/"+alpha, nil); res.status != http.StatusOK || res.obj()["full_name"] != alpha {
		t.Fatalf("GET /repos/{owner}/{repo}: %d %s", res.status, res.body)
	}
}
