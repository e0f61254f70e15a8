package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

type followUser struct {
	Login          string `json:"login"`
	FollowersCount int64  `json:"followers_count"`
	FollowingCount int64  `json:"following_count"`
}

// Following through the API: set and cleared on chain (204 each time,
// again when nothing changes), checked with 204/404, listed by follower
// and by followed with Gitea's paging, counted on the user, told to another
// signed-in user on the user (followed_by_me, no 404); following
// oneself is a 422 naming the field, a missing user a 404, and neither
// writes anything.
func TestFollowing(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testFollowing(t, forgetest.Start(t, opts...))
		})
	}
}

func testFollowing(t *testing.T, n *forgetest.Node) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	follow := func(who *forgetest.User, whom string, status int) []byte {
		t.Helper()
		return n.JSON("PUT", "/api/v1/user/following/"+whom, who, nil, status, nil).Body
	}
	follow(bob, alice.Name(), http.StatusNoContent)
	follow(bob, alice.Name(), http.StatusNoContent) // twice is once
	follow(carol, alice.Name(), http.StatusNoContent)
	follow(alice, carol.Name(), http.StatusNoContent)
	n.JSON("PUT", "/api/v1/user/following/"+carol.Name(), nil, nil, http.StatusUnauthorized, nil)
	if body := follow(alice, alice.Name(), http.StatusUnprocessableEntity); !strings.Contains(string(body), `field \"user\"`) {
		t.Fatalf("following oneself: %s", body)
	}
	follow(alice, "nobody-here", http.StatusNotFound)
	follow(alice, "bad%00name", http.StatusNotFound) // a control character names nobody, on PostgreSQL too

	n.JSON("GET", "/api/v1/user/following/"+alice.Name(), bob, nil, http.StatusNoContent, nil)
	n.JSON("GET", "/api/v1/user/following/"+carol.Name(), bob, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/users/"+alice.Name()+"/following/"+carol.Name(), nil, nil, http.StatusNoContent, nil)
	n.JSON("GET", "/api/v1/users/"+carol.Name()+"/following/"+bob.Name(), nil, nil, http.StatusNotFound, nil)

	var list []followUser
	res := n.JSON("GET", "/api/v1/users/"+alice.Name()+"/followers?limit=1", nil, nil, http.StatusOK, &list)
	if len(list) != 1 || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("alice's followers, page 1: %+v (total %s)", list, res.Header.Get("X-Total-Count"))
	}
	var page2 []followUser
	n.JSON("GET", "/api/v1/users/"+alice.Name()+"/followers?limit=1&page=2", nil, nil, http.StatusOK, &page2)
	if len(page2) != 1 || page2[0].Login == list[0].Login {
		t.Fatalf("alice's followers, page 2: %+v after %+v", page2, list)
	}
	n.JSON("GET", "/api/v1/user/followers", alice, nil, http.StatusOK, &list)
	if followLogins(list) != carol.Name()+","+bob.Name() {
		t.Fatalf("my followers: %+v", list)
	}
	n.JSON("GET", "/api/v1/user/following", alice, nil, http.StatusOK, &list)
	if followLogins(list) != carol.Name() {
		t.Fatalf("my following: %+v", list)
	}
	n.JSON("GET", "/api/v1/users/"+bob.Name()+"/following", nil, nil, http.StatusOK, &list)
	if followLogins(list) != alice.Name() {
		t.Fatalf("bob's following: %+v", list)
	}
	n.JSON("GET", "/api/v1/users/nobody-here/followers", nil, nil, http.StatusNotFound, nil)

	// The user's own answer says whether the caller follows them, without
	// the 404: to another signed-in user only.
	followed := func(who *forgetest.User, whom string) string {
		t.Helper()
		var obj map[string]any
		n.JSON("GET", "/api/v1/users/"+whom, who, nil, http.StatusOK, &obj)
		if v, ok := obj["followed_by_me"].(bool); ok {
			return map[bool]string{true: "true", false: "false"}[v]
		}
		return "absent"
	}
	for _, c := range []struct {
		who        *forgetest.User
		whom, want string
	}{{bob, alice.Name(), "true"}, {bob, carol.Name(), "false"}, {alice, alice.Name(), "absent"}, {nil, alice.Name(), "absent"}} {
		if got := followed(c.who, c.whom); got != c.want {
			t.Fatalf("followed_by_me of %s for %v: %s, want %s", c.whom, c.who, got, c.want)
		}
	}

	var u followUser
	n.JSON("GET", "/api/v1/users/"+alice.Name(), nil, nil, http.StatusOK, &u)
	if u.FollowersCount != 2 || u.FollowingCount != 1 {
		t.Fatalf("alice: %+v", u)
	}

	n.JSON("DELETE", "/api/v1/user/following/"+alice.Name(), bob, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", "/api/v1/user/following/"+alice.Name(), bob, nil, http.StatusNoContent, nil)
	n.JSON("GET", "/api/v1/user/following/"+alice.Name(), bob, nil, http.StatusNotFound, nil)
	if got := followed(bob, alice.Name()); got != "false" {
		t.Fatalf("followed_by_me after bob left: %s", got)
	}
	n.JSON("GET", "/api/v1/user", alice, nil, http.StatusOK, &u)
	if u.FollowersCount != 1 || u.FollowingCount != 1 {
		t.Fatalf("alice after bob left: %+v", u)
	}
}

func followLogins(us []followUser) string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.Login)
	}
	return strings.Join(out, ",")
}
