package gitserver

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// The core both transports share, Smart HTTP (http.go) and SSH (ssh.go):
// which repository a path names and what its user may do there (find,
// ready), and git's command for a service with, for a push, the session
// its pre-receive hook calls back into (gitCommand, hooks.go). A
// transport only reads its request and says the outcome in its own words.

// errNoRepo: the repository does not exist for this user, because it is
// missing or because they may not read it; the two are never told apart.
var errNoRepo = errors.New("repository not found")

// pendingError: the repository's git data is on its way to this node.
type pendingError struct{ msg string }

func (e *pendingError) Error() string { return e.msg }

// find resolves owner/name and user's access level there (user nil:
// anonymous). Below repoaccess.Read it is errNoRepo; any other error is
// the node's own.
func (s *Server) find(ctx context.Context, user *auth.User, owner, name string) (repoaccess.Repo, repoaccess.Level, error) {
	if s.repos == nil { // no forge yet: nothing to find
		return repoaccess.Repo{}, repoaccess.None, errNoRepo
	}
	repo, found, err := s.repos.Resolve(ctx, owner, name)
	if err != nil {
		s.log.ErrorContext(ctx, "resolve repository", "owner", owner, "name", name, "err", err)
		return repoaccess.Repo{}, repoaccess.None, err
	}
	level := repoaccess.None
	if found {
		level = s.repos.AccessLevel(ctx, user, repo)
	}
	if level < repoaccess.Read {
		return repoaccess.Repo{}, repoaccess.None, errNoRepo
	}
	return repo, level, nil
}

// findDeployed resolves owner/name for a deploy key that opens grants:
// the repository and its grant, or errNoRepo when it is none of them.
func (s *Server) findDeployed(ctx context.Context, grants []DeployGrant, owner, name string) (repoaccess.Repo, DeployGrant, error) {
	if s.repos == nil {
		return repoaccess.Repo{}, DeployGrant{}, errNoRepo
	}
	repo, found, err := s.repos.Resolve(ctx, owner, name)
	if err != nil {
		s.log.ErrorContext(ctx, "resolve repository", "owner", owner, "name", name, "err", err)
		return repoaccess.Repo{}, DeployGrant{}, err
	}
	if found {
		for _, g := range grants {
			if g.Repo == repo.ID {
				return repo, g, nil
			}
		}
	}
	return repoaccess.Repo{}, DeployGrant{}, errNoRepo
}

// refusedWriter is why user may not push through this node at all (a
// suspended account), as "code: message"; "" lets them.
func (s *Server) refusedWriter(ctx context.Context, user *auth.User) string {
	if s.writers == nil || user == nil {
		return ""
	}
	err := s.writers.CheckWriter(ctx, user.Address)
	if err == nil {
		return ""
	}
	if ue, ok := usererr.As(err); ok {
		return ue.Code + ": " + ue.Message
	}
	s.log.ErrorContext(ctx, "check the pusher", "err", err)
	return "unavailable: the push could not be checked; please try again"
}

// ready checks that repo's git data is on this disk: errNoRepo if not,
// or a *pendingError when it is on its way here.
func (s *Server) ready(ctx context.Context, repo repoaccess.Repo) error {
	if filepath.IsAbs(repo.Path) && exists(filepath.Join(repo.Path, "HEAD")) {
		return nil
	}
	if p, ok := s.repos.(Pending); ok {
		if msg, pending := p.Pending(ctx, repo); pending {
			return &pendingError{msg: msg}
		}
	}
	s.log.ErrorContext(ctx, "repository missing on disk", "repo", repo.ID, "path", repo.Path)
	return errNoRepo
}

// gitCommand is git's command for service on repo (args follow the
// service's name). A receive-pack runs in a push session for user, whose
// hook checks and records the push (hooks.go); done ends the session once
// git has ended, and must be called even if the command never ran.
func (s *Server) gitCommand(ctx context.Context, service string, repo repoaccess.Repo, user *auth.User, proto string, args ...string) (cmd *exec.Cmd, done func(), err error) {
	cmd = s.command(ctx, service, repo, proto, args...)
	if service != receivePack {
		return cmd, func() {}, nil
	}
	token, done, err := s.startPush(*user, repo)
	if err != nil {
		return nil, nil, err
	}
	cmd.Env = append(cmd.Env, "DFORGE_HOOK_BIN="+s.hookBin, "DFORGE_HOOK_URL="+s.hooks.url, "DFORGE_HOOK_TOKEN="+token)
	return cmd, done, nil
}

// command is `git -c ... <service> args...` with the settings every
// repository must have, whatever its own config says.
func (s *Server) command(ctx context.Context, service string, repo repoaccess.Repo, proto string, args ...string) *exec.Cmd {
	settings := []string{"-c", "uploadpack.allowFilter=true", "-c", "uploadpack.allowAnySHA1InWant=true"}
	if s.store != nil {
		settings = append(settings, "-c", "core.hooksPath="+s.store.HooksDir())
	}
	if service == receivePack {
		// Every push arrives as a pack, which pre-receive stages with a
		// hard link (hooks.go), however few objects it holds.
		// receive.advertisePushOptions: `git push -o ...` works (Gitea's
		// clients send options; the hook passes them to the node).
		settings = append(settings, "-c", "receive.unpackLimit=1", "-c", "receive.advertisePushOptions=true")
	}
	cmd := gitstore.Command(ctx, repo.Path, append(append(settings, strings.TrimPrefix(service, "git-")), args...)...)
	if proto != "" {
		cmd.Env = append(cmd.Env, "GIT_PROTOCOL="+proto)
	}
	return cmd
}
