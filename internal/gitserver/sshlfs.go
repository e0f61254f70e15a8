package gitserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/repoaccess"
)

// lfsAuthenticate is git-lfs's SSH command for the HTTP LFS endpoint of
// an SSH remote (git-lfs docs/api/authentication.md).
const lfsAuthenticate = "git-lfs-authenticate"

// lfsAuthenticate answers `git-lfs-authenticate <repo> <upload|download>`
// with where the repository's LFS endpoint is and a ticket for it
// (ticket.go): {"href", "header": {"Authorization"}, "expires_in"}. The
// access checks are those of the operation over HTTP, so a ticket is never
// made for what its holder may not do. (git-lfs asks for git-lfs-transfer,
// the pure SSH protocol, first; it is not served, and git-lfs falls back
// to this.)
func (srv *SSHServer) lfsAuthenticate(ctx context.Context, user *auth.User, ch ssh.Channel, args string) uint32 {
	stderr := ch.Stderr()
	// 1. The repository and the operation: the last word.
	i := strings.LastIndexByte(strings.TrimSpace(args), ' ')
	if i < 0 {
		fmt.Fprintln(stderr, "fatal: usage: git-lfs-authenticate <owner/repo.git> <upload|download>")
		return 1
	}
	path, op := strings.TrimSpace(args)[:i], strings.TrimSpace(args)[i+1:]
	if op != "upload" && op != "download" {
		fmt.Fprintf(stderr, "fatal: the operation must be upload or download, not %q\n", op)
		return 1
	}
	owner, name, err := parseRepoPath(path)
	if err != nil {
		fmt.Fprintf(stderr, "fatal: %v\n", err)
		return 1
	}
	base, _ := srv.httpURL.Load().(string)
	if base == "" {
		fmt.Fprintln(stderr, "fatal: this node does not serve Git LFS over SSH yet; try again shortly")
		return 1
	}
	// 2. May user do it? As over HTTP: not found below read, write to upload.
	repo, level, err := srv.git.find(ctx, user, owner, name)
	switch {
	case errors.Is(err, errNoRepo):
		fmt.Fprintf(stderr, "fatal: repository '%s/%s' not found\n", owner, name)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "fatal: the repository could not be looked up; please try again")
		return 1
	case op == "upload" && level < repoaccess.Write:
		fmt.Fprintf(stderr, "fatal: you may not push to %s/%s\n", owner, name)
		return 1
	}
	if op == "upload" {
		if why := srv.git.refusedWriter(ctx, user); why != "" {
			fmt.Fprintf(stderr, "fatal: %s\n", why)
			return 1
		}
	}
	// 3. The ticket, on standard output only (never logged).
	secret, ttl := srv.git.tickets.mint(user, repo.ID, op)
	out, _ := json.Marshal(map[string]any{
		"href":       base + "/" + owner + "/" + name + ".git/info/lfs",
		"header":     map[string]string{"Authorization": "Bearer " + secret},
		"expires_in": int(ttl.Seconds()),
	})
	if _, err := ch.Write(append(out, '\n')); err != nil {
		return 1
	}
	return 0
}
