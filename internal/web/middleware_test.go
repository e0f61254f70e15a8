package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestPanicBecomesJSON500(t *testing.T) {
	t.Parallel()
	h := recoverPanics(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"internal"`) || strings.Contains(rec.Body.String(), "boom") {
		t.Fatalf("panic answered %d %q; want a 500 JSON body that hides the panic value", rec.Code, rec.Body.String())
	}
}

func TestRateLimitPerAddress(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := rateLimits{"POST /limited": newLimiter(2, time.Minute)}.wrap(ok)
	send := func(method, path, addr string) int {
		req := httptest.NewRequest(method, path, nil)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	got := []int{send("POST", "/limited", "10.0.0.1:1"), send("POST", "/limited", "10.0.0.1:2"), send("POST", "/limited", "10.0.0.1:3"), send("POST", "/limited", "10.0.0.2:1"), send("GET", "/limited", "10.0.0.1:4")}
	want := []int{204, 204, 429, 204, 204}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses = %v, want %v (third request from one address limited; other address and other method not)", got, want)
		}
	}
}

func TestLevelForRetryableUnavailable(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]slog.Level{
		http.StatusServiceUnavailable:  slog.LevelInfo, // a repository still replicating
		http.StatusInternalServerError: slog.LevelError,
		http.StatusBadGateway:          slog.LevelError,
		http.StatusOK:                  slog.LevelDebug,
	} {
		if got := levelFor(status); got != want {
			t.Errorf("levelFor(%d) = %v, want %v", status, got, want)
		}
	}
}
