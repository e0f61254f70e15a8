package gitserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/repoaccess"
)

func TestHookTokenIsOneTime(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	token, done, err := s.startPush(auth.User{Username: "alice"}, repoaccess.Repo{ID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := s.hooks.claim(token, gitstore.PreReceive); !ok || p.user.Username != "alice" {
		t.Fatal("a fresh token was refused")
	}
	if _, ok := s.hooks.claim(token, gitstore.PreReceive); ok {
		t.Fatal("a token served pre-receive twice")
	}
	other, done2, _ := s.startPush(auth.User{}, repoaccess.Repo{ID: "2"})
	done2()
	if _, ok := s.hooks.claim(other, gitstore.PreReceive); ok {
		t.Fatal("a token outlived its push")
	}
	done()
	// On the wire: an unknown token is refused before anything else.
	req, _ := http.NewRequest("POST", s.hooks.url+"/pre-receive", strings.NewReader(`{"updates":[]}`))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("spent token: %d", res.StatusCode)
	}
}

func TestWithoutReposEverythingIsNotFound(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, path := range []string{"/alice/proj.git/info/refs?service=git-upload-pack", "/alice/proj.git/info/refs?service=git-receive-pack"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
}
