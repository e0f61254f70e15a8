package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
)

// Issue 11, end to end on a running node: once a committed block cannot be
// projected (here the database refuses the comment's row, as PostgreSQL
// refused a NUL), a write answers 503 index_stalled at once, saying it is
// on chain, instead of hanging 60 s for a 500; /healthz names the block
// and the error; reads keep working; once the database takes the row
// again the index catches up by itself and the comment shows.
func TestWritesAndHealthWhileTheIndexIsStuck(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	create(t, n, alice, "app", false)
	issue := repoPath(alice, "app") + "/issues"
	n.JSON("POST", issue, alice, map[string]any{"title": "first"}, http.StatusCreated, nil)

	db := n.Store.DB()
	if _, err := db.Exec(`CREATE TRIGGER refuse_comments BEFORE INSERT ON forge_comments BEGIN SELECT RAISE(ABORT, 'the disk says no'); END`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := n.Call("POST", issue+"/1/comments", alice, map[string]any{"body": "stuck"})
	var e struct{ Code, Message string }
	json.Unmarshal(res.Body, &e)
	if res.Status != http.StatusServiceUnavailable || e.Code != "index_stalled" || !strings.Contains(e.Message, "do not send it again") {
		t.Fatalf("a write while the index is stuck: %d %s, want 503 index_stalled", res.Status, res.Body)
	}
	if waited := time.Since(start); waited > 45*time.Second {
		t.Fatalf("the write waited %s, as for a deadline, not for the stall", waited)
	}
	var health struct {
		Status, Index string
		StuckAt       int64  `json:"index_stuck_at"`
		Err           string `json:"index_error"`
	}
	n.JSON("GET", "/healthz", nil, nil, http.StatusServiceUnavailable, &health)
	if health.Status != "degraded" || health.Index != "stalled" ||
		health.StuckAt == 0 || !strings.Contains(health.Err, "the disk says no") {
		t.Fatalf("healthz while stuck: %+v", health)
	}
	n.JSON("GET", issue+"/1", nil, nil, http.StatusOK, nil)
	n.JSON("GET", repoPath(alice, "app")+"/contents/README.md", nil, nil, http.StatusOK, nil)

	if _, err := db.Exec(`DROP TRIGGER refuse_comments`); err != nil {
		t.Fatal(err)
	}
	var comments []struct{ Body string }
	for deadline := time.Now().Add(60 * time.Second); len(comments) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the index never caught up after the database recovered")
		}
		n.JSON("GET", issue+"/1/comments", nil, nil, http.StatusOK, &comments)
	}
	if comments[0].Body != "stuck" {
		t.Fatalf("comments after recovery: %+v", comments)
	}
	n.JSON("POST", issue+"/1/comments", alice, map[string]any{"body": "after"}, http.StatusCreated, nil)
	n.JSON("GET", "/healthz", nil, nil, http.StatusOK, nil)
}
