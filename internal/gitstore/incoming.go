package gitstore

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Incoming is a new bare repository filled out of sight, a copy of one
// from another node say, until Publish moves it into place whole: a clone
// never sees it half-made. Its directory is beside the final one, named so
// that nothing looking for <id>.git finds it.
type Incoming struct {
	Dir   string
	final string
}

// Incoming makes an empty bare repository, with the store's settings, that
// will become the repository id of owner.
func (s *Store) Incoming(ctx context.Context, owner, id, branch string) (*Incoming, error) {
	final, err := s.Path(owner, id)
	if err != nil {
		return nil, err
	}
	if branch == "" {
		branch = "main"
	}
	if !branchRule.MatchString(branch) || strings.Contains(branch, "..") {
		return nil, fmt.Errorf("invalid default branch %q", branch)
	}
	tmp, err := s.tempDir(owner, id)
	if err != nil {
		return nil, err
	}
	st := &Incoming{Dir: tmp, final: final}
	if _, err := run(ctx, "", nil, nil, "init", "--quiet", "--bare", "--initial-branch="+branch, tmp); err != nil {
		st.Discard()
		return nil, fmt.Errorf("git init: %w", err)
	}
	if err := s.configure(ctx, tmp); err != nil {
		st.Discard()
		return nil, err
	}
	return st, nil
}

// Publish moves the repository into place and returns its path; it fails
// with ErrExists when one is there already.
func (st *Incoming) Publish() (string, error) {
	if err := publish(st.Dir, st.final); err != nil {
		return "", err
	}
	return st.final, nil
}

// Discard removes what Incoming made (nothing once published).
func (st *Incoming) Discard() { os.RemoveAll(st.Dir) }
