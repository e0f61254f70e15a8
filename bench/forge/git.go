package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitTool runs the git binary with a clean, fixed configuration: no
// system or user config, no prompts, so every run on every machine clones
// and pushes the same way.
type gitTool struct {
	path    string
	version string
	env     []string
}

func newGit(tmp string) (*gitTool, error) {
	path, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("git is required: %w", err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@dforge.invalid", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@dforge.invalid")
	g := &gitTool{path: path, env: env}
	v, err := g.output(context.Background(), "", "version")
	if err != nil {
		return nil, err
	}
	g.version = strings.TrimSpace(v)
	return g, nil
}

func (g *gitTool) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = dir
	cmd.Env = g.env
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// output runs git and returns its stdout; a failure carries its stderr.
func (g *gitTool) output(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := g.command(ctx, dir, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), gitError(args, err, stderr.String())
	}
	return stdout.String(), nil
}

func gitError(args []string, err error, stderr string) error {
	stderr = strings.TrimSpace(stderr)
	if len(stderr) > 600 {
		stderr = "..." + stderr[len(stderr)-600:]
	}
	return fmt.Errorf("git %s: %w: %s", strings.Join(redact(args), " "), err, stderr)
}

// redact hides the access token in an http.extraHeader argument.
func redact(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.HasPrefix(a, "http.extraHeader=") {
			a = "http.extraHeader=<token>"
		}
		out[i] = a
	}
	return out
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
	if _, err := g.output(ctx, "", args...); err != nil {
		return 0, 0, err
	}
	d := time.Since(t0)
	size, err := packBytes(dest)
	return d, size, err
}

// push sends every branch of the bare repository src to r.
func (g *gitTool) push(ctx context.Context, src string, r remote) (time.Duration, error) {
	args := append(append([]string{}, r.config...), "push", "--quiet", r.url, "refs/heads/*:refs/heads/*")
	t0 := time.Now()
	_, err := g.output(ctx, src, args...)
	return time.Since(t0), err
}

// head is the commit a branch of a bare repository points at.
func (g *gitTool) head(ctx context.Context, dir, branch string) (string, error) {
	s, err := g.output(ctx, dir, "rev-parse", "--verify", "refs/heads/"+branch)
	return strings.TrimSpace(s), err
}

// packBytes is the size of the packs of a bare repository.
func packBytes(dir string) (int64, error) {
	packs, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "*.pack"))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, p := range packs {
		st, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		n += st.Size()
	}
	return n, nil
}

// httpBackend serves the bare repositories under root with
// `git http-backend` through CGI, as a plain web server would: every
// repository exported, pushes allowed where the repository's config says
// http.receivepack. Both directions stream.
func (g *gitTool) httpBackend(root string) *httptest.Server {
	h := &cgi.Handler{
		Path: g.path,
		Args: []string{"http-backend"},
		Dir:  root,
		Env: append(envWithout(g.env, "PATH="),
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
	if _, err := g.output(ctx, "", "init", "--bare", "--quiet", "--initial-branch=main", dir); err != nil {
		return err
	}
	_, err := g.output(ctx, dir, "config", "http.receivepack", "true")
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
