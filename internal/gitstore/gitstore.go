// Package gitstore keeps the node's bare git repositories on disk and drives
// them through the git binary: create (optionally with a first commit),
// fork, delete, and stream objects out for the blockstore.
//
// A repository lives at <root>/<owner>/<id>.git, named by the owner's
// lowercase address and the repository's id rather than names, so renames
// and transfers never move directories. Every repository points
// core.hooksPath at one shared hooks directory whose hooks call back into
// the node (`dforge hook ...`).
package gitstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// ZeroID is the object id git uses for "no object" (ref creation, deletion).
const ZeroID = "0000000000000000000000000000000000000000"

// ErrExists is returned when the repository to create is already there.
var ErrExists = errors.New("repository already exists")

// ErrNotFound is returned for a repository that is not on disk.
var ErrNotFound = errors.New("repository not found")

// Store is the directory of bare repositories.
type Store struct {
	root  string
	hooks string
}

// Owners are lowercase addresses today; the rule is only that an owner is
// one safe path segment, so nothing a caller passes can leave the root.
var (
	ownerRule  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	idRule     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	branchRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$`)
)

// Open returns the store rooted at dir (<data>/git), creating it and
// (re)writing the shared hooks, so a node upgrade refreshes them.
func Open(dir string) (*Store, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve git dir: %w", err)
	}
	s := &Store{root: root, hooks: filepath.Join(root, ".hooks")}
	if err := os.MkdirAll(s.hooks, 0o755); err != nil {
		return nil, fmt.Errorf("create git dir: %w", err)
	}
	if err := writeHooks(s.hooks); err != nil {
		return nil, err
	}
	return s, nil
}

// Root is the directory holding the repositories.
func (s *Store) Root() string { return s.root }

// HooksDir is the shared hooks directory every repository uses.
func (s *Store) HooksDir() string { return s.hooks }

// Path is where the repository id of owner lives (whether or not it exists).
func (s *Store) Path(owner, id string) (string, error) {
	if !ownerRule.MatchString(owner) {
		return "", fmt.Errorf("invalid repository owner %q", owner)
	}
	if !idRule.MatchString(id) {
		return "", fmt.Errorf("invalid repository id %q", id)
	}
	return filepath.Join(s.root, owner, id+".git"), nil
}

// Exists reports whether the repository is on disk.
func (s *Store) Exists(owner, id string) bool {
	p, err := s.Path(owner, id)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(p, "HEAD"))
	return err == nil
}

// Signature is who made a commit, and when.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// CreateOptions describe a new repository.
type CreateOptions struct {
	DefaultBranch string // "main" when empty
	// README, when non-nil, becomes README.md of a first commit on the
	// default branch, authored and committed by Author.
	README  []byte
	Author  Signature
	Message string // of the first commit; "Initial commit" when empty
}

// Create makes the bare repository id of owner and returns its path. It is
// built in a temporary directory and moved into place whole, so a failure
// leaves nothing behind and readers never see a half-made repository.
func (s *Store) Create(ctx context.Context, owner, id string, opts CreateOptions) (string, error) {
	final, err := s.Path(owner, id)
	if err != nil {
		return "", err
	}
	branch := opts.DefaultBranch
	if branch == "" {
		branch = "main"
	}
	if !branchRule.MatchString(branch) || strings.Contains(branch, "..") {
		return "", fmt.Errorf("invalid default branch %q", branch)
	}
	tmp, err := s.tempDir(owner, id)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// 1. The bare repository with our settings.
	if _, err := run(ctx, "", nil, nil, "init", "--quiet", "--bare", "--initial-branch="+branch, tmp); err != nil {
		return "", fmt.Errorf("git init: %w", err)
	}
	if err := s.configure(ctx, tmp); err != nil {
		return "", err
	}
	// 2. The optional first commit, written with plumbing (no worktree).
	if opts.README != nil {
		if err := initialCommit(ctx, tmp, branch, opts); err != nil {
			return "", err
		}
	}
	// 3. Move it into place.
	if err := publish(tmp, final); err != nil {
		return "", err
	}
	return final, nil
}

// Fork copies the repository at src to a new repository id of owner and
// returns its path. The copy is a local clone: object files are hard links
// where the filesystem allows (copies where it does not), never alternates,
// so the fork keeps every object when the source is deleted (git objects
// are immutable, so sharing their inodes is safe).
func (s *Store) Fork(ctx context.Context, src, owner, id string) (string, error) {
	final, err := s.Path(owner, id)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(src, "HEAD")); err != nil {
		return "", fmt.Errorf("fork %s: %w", src, ErrNotFound)
	}
	tmp, err := s.tempDir(owner, id)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// clone refuses an existing directory, even an empty one.
	if err := os.Remove(tmp); err != nil {
		return "", fmt.Errorf("prepare fork dir: %w", err)
	}
	if _, err := run(ctx, "", nil, nil, "clone", "--quiet", "--bare", src, tmp); err != nil {
		return "", fmt.Errorf("git clone: %w", err)
	}
	// The fork stands alone: no remote pointing at another repository's path.
	if _, err := run(ctx, tmp, nil, nil, "remote", "remove", "origin"); err != nil {
		return "", fmt.Errorf("drop origin remote: %w", err)
	}
	if err := s.configure(ctx, tmp); err != nil {
		return "", err
	}
	if err := publish(tmp, final); err != nil {
		return "", err
	}
	return final, nil
}

// Delete removes the repository id of owner. It is first renamed away, so
// it disappears at once even while its files are being removed.
func (s *Store) Delete(ctx context.Context, owner, id string) error {
	p, err := s.Path(owner, id)
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		return ErrNotFound
	}
	batches.drop(p)
	trash := filepath.Join(filepath.Dir(p), ".deleted-"+id+"-"+randomHex())
	if err := os.Rename(p, trash); err != nil {
		return fmt.Errorf("delete repository: %w", err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("delete repository files: %w", err)
	}
	return nil
}

// configure applies the settings every repository has. The git server
// passes the same ones on its command lines; these make the repository
// right even when it is opened some other way.
func (s *Store) configure(ctx context.Context, dir string) error {
	settings := [][2]string{
		{"core.hooksPath", s.hooks},
		{"uploadpack.allowFilter", "true"},
		{"uploadpack.allowAnySHA1InWant", "true"},
		{"receive.advertisePushOptions", "true"},
		{"core.logAllRefUpdates", "false"},
	}
	for _, kv := range settings {
		if _, err := run(ctx, dir, nil, nil, "config", kv[0], kv[1]); err != nil {
			return fmt.Errorf("set %s: %w", kv[0], err)
		}
	}
	return nil
}

func initialCommit(ctx context.Context, dir, branch string, opts CreateOptions) error {
	blob, err := run(ctx, dir, nil, bytes.NewReader(opts.README), "hash-object", "-w", "--stdin")
	if err != nil {
		return fmt.Errorf("write README blob: %w", err)
	}
	tree, err := run(ctx, dir, nil, strings.NewReader("100644 blob "+blob+"\tREADME.md\n"), "mktree")
	if err != nil {
		return fmt.Errorf("write tree: %w", err)
	}
	a := opts.Author
	if a.Name == "" || a.Email == "" {
		return errors.New("initial commit: author name and email are required")
	}
	when := a.When
	if when.IsZero() {
		when = time.Now()
	}
	date := fmt.Sprintf("@%d %s", when.Unix(), when.Format("-0700"))
	env := []string{
		"GIT_AUTHOR_NAME=" + a.Name, "GIT_AUTHOR_EMAIL=" + a.Email, "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=" + a.Name, "GIT_COMMITTER_EMAIL=" + a.Email, "GIT_COMMITTER_DATE=" + date,
	}
	msg := opts.Message
	if msg == "" {
		msg = "Initial commit"
	}
	commit, err := run(ctx, dir, env, strings.NewReader(msg+"\n"), "commit-tree", tree)
	if err != nil {
		return fmt.Errorf("write commit: %w", err)
	}
	// The empty old value makes this a creation: it fails if the ref exists.
	if _, err := run(ctx, dir, nil, nil, "update-ref", "refs/heads/"+branch, commit, ""); err != nil {
		return fmt.Errorf("create branch %s: %w", branch, err)
	}
	return nil
}

// tempDir makes an empty directory beside where the repository will live
// (same filesystem, so the final rename is atomic).
func (s *Store) tempDir(owner, id string) (string, error) {
	parent := filepath.Join(s.root, owner)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create owner dir: %w", err)
	}
	tmp := filepath.Join(parent, ".new-"+id+"-"+randomHex())
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", fmt.Errorf("create temp repository dir: %w", err)
	}
	return tmp, nil
}

// publish moves a finished repository into place, refusing to replace one.
func publish(tmp, final string) error {
	if _, err := os.Stat(final); err == nil {
		return ErrExists
	}
	// rename(2) would replace an empty directory, never a repository.
	if err := os.Rename(tmp, final); err != nil {
		if errors.Is(err, os.ErrExist) || errors.Is(err, syscall.ENOTEMPTY) {
			return ErrExists
		}
		return fmt.Errorf("move repository into place: %w", err)
	}
	return nil
}

func randomHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// run runs git in dir (none: the current directory) and returns its
// trimmed standard output; a failure carries git's standard error.
func run(ctx context.Context, dir string, env []string, stdin io.Reader, args ...string) (string, error) {
	cmd := Command(ctx, dir, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// Command is `git args...` run in dir with an environment cleared of the
// GIT_* variables the node itself may have been started with (GIT_DIR in a
// hook, say), so every command sees only the repository it names. Every
// command also syncs the loose objects it writes (git syncs packs, not
// loose objects, by default): a merge or a first commit goes on chain once
// written, and the chain must only name objects that are on disk.
func Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(CleanEnv(os.Environ()), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsync", "GIT_CONFIG_VALUE_0=loose-object")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// CleanEnv returns env without GIT_* variables.
func CleanEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}
