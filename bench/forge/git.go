package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
)

// gitTool is the shared git runner (a clean, fixed configuration) with
// the clone, push and http-backend of the figures.
type gitTool struct{ *corpus.Git }

func newGit(tmp string) (*gitTool, error) {
	g, err := corpus.NewGit(tmp)
	return &gitTool{g}, err
}

// remote is a repository URL and the settings git needs to use it.
type remote struct {
	url    string
	config []string // -c pairs placed before the subcommand
}

// authed is the remote with the token as the HTTP Basic password, sent
// from the first request (no 401 round trip).
func authed(url, token string) remote {
	basic := base64.StdEncoding.EncodeToString([]byte("bench:" + token))
	return remote{url: url, config: []string{"-c", "http.extraHeader=Authorization: Basic " + basic}}
}

// clone is `git clone --bare --no-local` of r into dest. It returns the
// time it took and the bytes of the pack it received.
func (g *gitTool) clone(ctx context.Context, r remote, dest string) (time.Duration, int64, error) {
	args := append(append([]string{}, r.config...), "clone", "--bare", "--no-local", "--quiet", r.url, dest)
	t0 := time.Now()
	if _, err := g.Output(ctx, "", args...); err != nil {
		return 0, 0, err
	}
	d := time.Since(t0)
	size, err := corpus.PackBytes(dest)
	return d, size, err
}

// push sends every branch of the bare repository src to r.
func (g *gitTool) push(ctx context.Context, src string, r remote) (time.Duration, error) {
	args := append(append([]string{}, r.config...), "push", "--quiet", r.url, "refs/heads/*:refs/heads/*")
	t0 := time.Now()
	_, err := g.Output(ctx, src, args...)
	return time.Since(t0), err
}

// httpBackend serves the bare repositories under root with
// `git http-backend` through CGI, as a plain web server would: every
// repository exported, pushes allowed where the repository's config says
// http.receivepack. Both directions stream.
func (g *gitTool) httpBackend(root string) *httptest.Server {
	h := &cgi.Handler{
		Path: g.Path,
		Args: []string{"http-backend"},
		Dir:  root,
		Env: append(envWithout(g.Env, "PATH="),
			"GIT_PROJECT_ROOT="+root, "GIT_HTTP_EXPORT_ALL=1"),
		InheritEnv: []string{"PATH"},
		Stderr:     io.Discard,
	}
	// git sends a large push with a chunked body. net/http/cgi refuses
	// those, but with the body's length unknown it streams the body into
	// the CGI without CONTENT_LENGTH, which http-backend reads to EOF, as
	// it does behind Apache or nginx.
	dechunk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TransferEncoding) > 0 {
			r = r.Clone(r.Context())
			r.TransferEncoding = nil
		}
		h.ServeHTTP(w, r)
	})
	return httptest.NewServer(dechunk) // 127.0.0.1, a free port
}

func envWithout(env []string, prefix string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return out
}

// initBare makes an empty bare repository http-backend accepts pushes into.
func (g *gitTool) initBare(ctx context.Context, dir string) error {
	if _, err := g.Output(ctx, "", "init", "--bare", "--quiet", "--initial-branch=main", dir); err != nil {
		return err
	}
	_, err := g.Output(ctx, dir, "config", "http.receivepack", "true")
	return err
}

// checkHTTPBackend is a tiny GET to see that the CGI answers at all.
func checkHTTPBackend(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/info/refs?service=git-upload-pack", nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("git http-backend answered %s", res.Status)
	}
	return nil
}
