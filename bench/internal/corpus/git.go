package corpus

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Git runs the git binary with a clean, fixed configuration: no system or
// user config, no prompts, so every run on every machine clones and
// pushes the same way.
type Git struct {
	Path    string
	Version string
	Env     []string
}

// NewGit finds git and gives it a home under tmp.
func NewGit(tmp string) (*Git, error) {
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
	g := &Git{Path: path, Env: env}
	v, err := g.Output(context.Background(), "", "version")
	if err != nil {
		return nil, err
	}
	g.Version = strings.TrimSpace(v)
	return g, nil
}

// Command is git with args, run in dir.
func (g *Git) Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.Path, args...)
	cmd.Dir = dir
	cmd.Env = g.Env
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Output runs git and returns its stdout; a failure carries its stderr.
func (g *Git) Output(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := g.Command(ctx, dir, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), Error(args, err, stderr.String())
	}
	return stdout.String(), nil
}

// Head is the commit a branch of a bare repository points at.
func (g *Git) Head(ctx context.Context, dir, branch string) (string, error) {
	s, err := g.Output(ctx, dir, "rev-parse", "--verify", "refs/heads/"+branch)
	return strings.TrimSpace(s), err
}

// Error is a failed git run with the end of its stderr.
func Error(args []string, err error, stderr string) error {
	stderr = strings.TrimSpace(stderr)
	if len(stderr) > 600 {
		stderr = "..." + stderr[len(stderr)-600:]
	}
	return fmt.Errorf("git %s: %w: %s", strings.Join(redact(args), " "), err, stderr)
}

// redact hides an access token in an http.extraHeader argument.
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

// PackBytes is the size of the packs of a bare repository.
func PackBytes(dir string) (int64, error) {
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
