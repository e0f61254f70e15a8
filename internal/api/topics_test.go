package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Topics through Gitea's paths: admins set them, anyone who can read sees
// them on the repository, search finds repositories by topic, and a
// private repository's topics stay private (404 to others, not counted in
// /topics/search).
func TestRepoTopicsAPI(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testRepoTopics(t, forgetest.Start(t, opts...))
		})
	}
}

func testRepoTopics(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "hidden", "private": true}, http.StatusCreated, nil)
	base := "/api/v1/repos/" + alice.Name()

	// 1. Set, add, remove; topics are lower-cased as Gitea does.
	n.JSON("PUT", base+"/app/topics", alice, map[string]any{"topics": []string{"Go", "forge"}}, http.StatusNoContent, nil)
	n.JSON("PUT", base+"/app/topics/p2p", alice, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", base+"/app/topics/forge", alice, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", base+"/app/topics/forge", alice, nil, http.StatusNotFound, nil)
	var list struct {
		Topics []string `json:"topics"`
	}
	n.JSON("GET", base+"/app/topics", nil, nil, http.StatusOK, &list)
	if strings.Join(list.Topics, ",") != "go,p2p" {
		t.Fatalf("topics %v", list.Topics)
	}
	var repo struct {
		Topics []string `json:"topics"`
	}
	n.JSON("GET", base+"/app", bob, nil, http.StatusOK, &repo)
	if strings.Join(repo.Topics, ",") != "go,p2p" {
		t.Fatalf("the repository's topics %v", repo.Topics)
	}

	// 2. Bad topics: Gitea's 422 naming each; nothing applied.
	var bad struct {
		InvalidTopics []string `json:"invalidTopics"`
	}
	n.JSON("PUT", base+"/app/topics", alice, map[string]any{"topics": []string{"ok", "not ok", "-dash"}}, http.StatusUnprocessableEntity, &bad)
	if strings.Join(bad.InvalidTopics, ",") != "not ok,-dash" {
		t.Fatalf("invalidTopics %v", bad.InvalidTopics)
	}
	n.JSON("PUT", base+"/app/topics/"+strings.Repeat("x", 36), alice, nil, http.StatusUnprocessableEntity, nil)
	many := make([]string, 26)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	n.JSON("PUT", base+"/app/topics", alice, map[string]any{"topics": many}, http.StatusUnprocessableEntity, nil)
	n.JSON("GET", base+"/app/topics", nil, nil, http.StatusOK, &list)
	if strings.Join(list.Topics, ",") != "go,p2p" {
		t.Fatalf("topics after refused changes %v", list.Topics)
	}

	// 3. Only admins change them.
	n.JSON("PUT", base+"/app/topics/mine", bob, nil, http.StatusForbidden, nil)
	n.JSON("PUT", base+"/app/topics", nil, map[string]any{"topics": []string{"x"}}, http.StatusUnauthorized, nil)

	// 4. A private repository's topics: its owner's alone.
	n.JSON("PUT", base+"/hidden/topics", alice, map[string]any{"topics": []string{"go", "secret-plan"}}, http.StatusNoContent, nil)
	n.JSON("GET", base+"/hidden/topics", bob, nil, http.StatusNotFound, nil)
	n.JSON("PUT", base+"/hidden/topics/x", bob, nil, http.StatusNotFound, nil)
	var found struct {
		Topics []struct {
			Name  string `json:"topic_name"`
			Count int    `json:"repo_count"`
		} `json:"topics"`
	}
	res := n.JSON("GET", "/api/v1/topics/search?q=", nil, nil, http.StatusOK, &found)
	if len(found.Topics) != 2 || found.Topics[0].Count != 1 || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("topic search %+v", found.Topics)
	}
	n.JSON("GET", "/api/v1/topics/search?q=sec", nil, nil, http.StatusOK, &found)
	if len(found.Topics) != 0 {
		t.Fatalf("a private repository's topic was found: %+v", found.Topics)
	}

	// 5. Search by topic (Gitea's topic=true) finds the public one.
	var search struct {
		Data []struct {
			Name string `json:"name"`
		} `json:"data"`
	}
	n.JSON("GET", "/api/v1/repos/search?q=p2p&topic=true", nil, nil, http.StatusOK, &search)
	if len(search.Data) != 1 || search.Data[0].Name != "app" {
		t.Fatalf("search by topic %+v", search.Data)
	}
	n.JSON("GET", "/api/v1/repos/search?q=secret-plan&topic=true", bob, nil, http.StatusOK, &search)
	if len(search.Data) != 0 {
		t.Fatalf("bob found a private repository by topic: %+v", search.Data)
	}
	n.JSON("GET", "/api/v1/repos/search?q=secret-plan&topic=true", alice, nil, http.StatusOK, &search)
	if len(search.Data) != 1 || search.Data[0].Name != "hidden" {
		t.Fatalf("alice's own private repository by topic %+v", search.Data)
	}
}

// PATCH /labels/{id} changes what is sent and keeps the rest; exclusive
// round-trips.
func TestLabelEditAPI(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testLabelEdit(t, forgetest.Start(t, opts...))
		})
	}
}

func testLabelEdit(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app"}, http.StatusCreated, nil)
	base := "/api/v1/repos/" + alice.Name() + "/app/labels"
	var l struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		Color       string `json:"color"`
		Description string `json:"description"`
		Exclusive   bool   `json:"exclusive"`
	}
	n.JSON("POST", base, alice, map[string]any{"name": "kind/bug", "color": "ee0701", "description": "Broken", "exclusive": true}, http.StatusCreated, &l)
	if !l.Exclusive {
		t.Fatalf("created %+v", l)
	}
	id := base + "/" + strconv.FormatInt(l.ID, 10)
	n.JSON("PATCH", id, alice, map[string]any{"name": "kind/defect", "color": "#d73a4a", "exclusive": false}, http.StatusOK, &l)
	if l.Name != "kind/defect" || l.Color != "d73a4a" || l.Description != "Broken" || l.Exclusive {
		t.Fatalf("edited %+v", l)
	}
	n.JSON("GET", id, nil, nil, http.StatusOK, &l)
	if l.Name != "kind/defect" || l.Exclusive {
		t.Fatalf("read back %+v", l)
	}
	n.JSON("PATCH", id, alice, map[string]any{"color": "red"}, http.StatusUnprocessableEntity, nil)
	n.JSON("PATCH", id, alice, map[string]any{"name": "a\u0000b"}, http.StatusUnprocessableEntity, nil)
	n.JSON("PATCH", id, bob, map[string]any{"name": "mine"}, http.StatusForbidden, nil)
	n.JSON("PATCH", base+"/999", alice, map[string]any{"name": "x"}, http.StatusNotFound, nil)
}

// A profile lists its repositories and its forks apart: /repos/search
// with owner and Gitea's mode=source or mode=fork.
func TestReposSearchMode(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testReposSearchMode(t, forgetest.Start(t, opts...))
		})
	}
}

func testReposSearchMode(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app", "auto_init": true}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/repos", bob, map[string]any{"name": "own"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/repos/"+alice.Name()+"/app/forks", bob, map[string]any{}, http.StatusAccepted, nil)
	names := func(mode string) string {
		var out struct {
			Data []struct {
				Name string `json:"name"`
				Fork bool   `json:"fork"`
			} `json:"data"`
		}
		n.JSON("GET", "/api/v1/repos/search?sort=alpha&owner="+bob.Name()+"&mode="+mode, nil, nil, http.StatusOK, &out)
		var list []string
		for _, r := range out.Data {
			list = append(list, r.Name+map[bool]string{true: "(fork)"}[r.Fork])
		}
		return strings.Join(list, " ")
	}
	if got := names(""); got != "app(fork) own" {
		t.Fatalf("all of bob's: %s", got)
	}
	if got := names("source"); got != "own" {
		t.Fatalf("bob's sources: %s", got)
	}
	if got := names("fork"); got != "app(fork)" {
		t.Fatalf("bob's forks: %s", got)
	}
}
