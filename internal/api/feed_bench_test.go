package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
)

// BenchmarkFeedList is `make bench-feed`'s API part: pages of 20 of a
// user's activity feed across 20 repositories (each created with a
// README, then given 7 issues in turn: 180 actions, and each page of
// issues shows every repository), read by another user: each page's
// first read, then 64 concurrent connections (p50, p99), then the pages
// read again on one connection (p50).
func BenchmarkFeedList(b *testing.B) {
	for name, opts := range forgetest.Stores() {
		b.Run(name, func(b *testing.B) {
			n := forgetest.Start(b, opts...)
			alice, bob := n.NewUser(), n.NewUser()
			for i := range 20 {
				n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": fmt.Sprintf("r%d", i), "description": "a repository", "auto_init": true}, http.StatusCreated, nil)
			}
			for j := range 7 { // in turn, so that each page shows every repository
				for i := range 20 {
					n.JSON("POST", fmt.Sprintf("/api/v1/repos/%s/r%d/issues", alice.Name(), i), alice, map[string]any{"title": fmt.Sprintf("issue %d", j)}, http.StatusCreated, nil)
				}
			}
			client := loadClient()
			get := func(i int) (time.Duration, error) {
				return timedGet(client, fmt.Sprintf("%s/api/v1/users/%s/activities/feeds?page=%d&limit=20", n.URL, alice.Name(), 1+i%9), bob.Token)
			}
			underLoad(b, 9, get)
			readAgain(b, 90, get)
		})
	}
}
