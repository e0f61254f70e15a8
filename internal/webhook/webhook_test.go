package webhook_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/webhook"
)

// TestQueuedDeliverySurvivesARestart: a delivery queued in the projecting
// transaction by a node that stops before sending it (a kill -9 after
// the block) is sent by the next service over the same database. The
// hook is an owner's (an organization's, in Gitea), so a repository
// created under that owner reaches it.
func TestQueuedDeliverySurvivesARestart(t *testing.T) {
	ctx := context.Background()
	got := make(chan []byte, 4)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
	}))
	defer rc.Close()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "dforge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ix := index.New(log, st, nil)
	cfg := webhook.Config{Store: st, Index: ix, AllowPrivate: true, Log: log}

	// 1. The first node: a hook, and an event projected but never sent.
	first := webhook.New(cfg)
	owner := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	url, ctype, on := rc.URL, "json", true
	if _, err := first.Create(ctx, webhook.Scope{Owner: owner}, webhook.Input{URL: &url, ContentType: &ctype, Active: &on,
		Events: []string{"repository"}}); err != nil {
		t.Fatal(err)
	}
	change := forge.Change{Action: "repo.create", Actor: owner, Height: 7,
		Repos: []forge.Repo{{ID: 42, Owner: owner, Name: "tools", DefaultBranch: "main"}}}
	tx, err := st.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Observe(ctx, readdb.NewWriteTx(tx), []index.ForgeChange{{Change: change, Height: 7, TimeNS: time.Unix(1700000000, 0).UnixNano()}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := pendingCount(t, st.DB()); n != 1 {
		t.Fatalf("queued deliveries: %d, want 1", n)
	}

	// 2. The restarted node delivers it.
	second := webhook.New(cfg)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); second.Run(runCtx) }()
	defer func() { stop(); <-done }()
	select {
	case body := <-got:
		var p struct {
			Action string `json:"action"`
			Repo   struct {
				Name string `json:"name"`
			} `json:"repository"`
		}
		if err := json.Unmarshal(body, &p); err != nil || p.Action != "created" || p.Repo.Name != "tools" {
			t.Fatalf("payload: %v %s", err, body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the queued delivery was not sent after the restart")
	}
}

func pendingCount(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestHistoryIsBounded: a hook's log keeps about its newest fifty
// finished deliveries, however many were sent.
func TestHistoryIsBounded(t *testing.T) {
	ctx := context.Background()
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer rc.Close()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "dforge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := webhook.New(webhook.Config{Store: st, Index: index.New(log, st, nil), AllowPrivate: true, Log: log})
	url, ctype := rc.URL, "json"
	sc := webhook.Scope{RepoID: 5}
	h, err := s.Create(ctx, sc, webhook.Input{URL: &url, ContentType: &ctype})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(runCtx) }()
	defer func() { stop(); <-done }()
	const sent = 120
	for range sent {
		if _, err := s.Test(ctx, sc, h.ID, index.Repo{ID: 5, DefaultBranch: "main"}, common.Address{}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for pendingCount(t, st.DB()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_, total, err := s.Deliveries(ctx, sc, h.ID, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 || total > 60 {
		t.Fatalf("%d deliveries kept of %d sent, want about 50", total, sent)
	}
}
