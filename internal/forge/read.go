package forge

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Reads come from the SQL projection. Whoever may not read a repository
// is told it does not exist, private or not, so existence never leaks.

// Perm is re-exported for callers that check permissions.
type Perm = chainforge.Perm

// Permission levels, lowest first.
const (
	PermNone     = chainforge.PermNone
	PermRead     = chainforge.PermRead
	PermWrite    = chainforge.PermWrite
	PermMaintain = chainforge.PermMaintain
	PermOwner    = chainforge.PermOwner
)

func repoNotFound(what string) error {
	return usererr.Missingf("repository %s does not exist", what)
}

// Owner resolves an owner as written in a URL: a username (claimed or
// default, any case) or an address.
func (s *Service) Owner(ctx context.Context, name string) (common.Address, error) {
	addr, ok, err := s.ix.AddressOf(ctx, name)
	if err != nil {
		return common.Address{}, err
	}
	if ok {
		return addr, nil
	}
	if common.IsHexAddress(name) {
		return common.HexToAddress(name), nil
	}
	return common.Address{}, usererr.Missingf("user %s does not exist", name)
}

// Repo finds owner/name as viewer sees it, with viewer's permission on it
// (the zero address is an anonymous viewer).
func (s *Service) Repo(ctx context.Context, viewer common.Address, owner, name string) (index.Repo, Perm, error) {
	addr, err := s.Owner(ctx, owner)
	if err != nil {
		return index.Repo{}, PermNone, repoNotFound(owner + "/" + name)
	}
	r, err := s.ix.RepoByName(ctx, addr, name)
	if err != nil {
		return index.Repo{}, PermNone, repoNotFound(owner + "/" + name)
	}
	return s.visible(ctx, viewer, r, owner+"/"+name)
}

// RepoByID finds repository id as viewer sees it.
func (s *Service) RepoByID(ctx context.Context, viewer common.Address, id uint64) (index.Repo, Perm, error) {
	r, err := s.ix.RepoByID(ctx, id)
	if err != nil {
		return index.Repo{}, PermNone, repoNotFound(fmt.Sprint(id))
	}
	return s.visible(ctx, viewer, r, fmt.Sprint(id))
}

func (s *Service) visible(ctx context.Context, viewer common.Address, r index.Repo, what string) (index.Repo, Perm, error) {
	p, err := s.Permission(ctx, r, viewer)
	if err != nil {
		return index.Repo{}, PermNone, fmt.Errorf("read permission on repository %d: %w", r.ID, err)
	}
	if p < PermRead {
		return index.Repo{}, PermNone, repoNotFound(what)
	}
	return r, p, nil
}

// Permission is what user may do in r. Under a public-only token (the
// request's identity in ctx) a private repository is no one's: every
// lookup, API or git, then answers as to a stranger, 404.
func (s *Service) Permission(ctx context.Context, r index.Repo, user common.Address) (Perm, error) {
	if r.Private && auth.IdentityFrom(ctx).PublicOnly() {
		return PermNone, nil
	}
	return s.ix.Permission(ctx, r, user)
}

// ListViewer is whose private repositories a list across repositories may
// include: viewer's, or, under a public-only token, no one's (the list then
// holds what anyone sees).
func ListViewer(ctx context.Context, viewer common.Address) common.Address {
	if auth.IdentityFrom(ctx).PublicOnly() {
		return common.Address{}
	}
	return viewer
}

// Repos lists the repositories f selects that f.Viewer may see (see
// ListViewer).
func (s *Service) Repos(ctx context.Context, f index.RepoFilter, p index.Page) ([]index.Repo, int64, error) {
	f.Viewer = ListViewer(ctx, f.Viewer)
	return s.ix.Repos(ctx, f, p)
}

// Activities lists the actions f selects, newest first, with the private
// repositories' among them only where viewer may read them (see
// ListViewer): f.Viewer is set here, whatever the caller put there.
func (s *Service) Activities(ctx context.Context, viewer common.Address, f index.ActivityFilter, p index.Page) ([]index.Activity, int64, error) {
	f.Viewer = ListViewer(ctx, viewer)
	return s.ix.Activities(ctx, f, p)
}

// Index is the projection the service reads, for the detailed reads
// (issues, comments, pull requests, reviews, labels) once a caller has
// checked the repository is visible with Repo or RepoByID.
func (s *Service) Index() *index.Index { return s.ix }
