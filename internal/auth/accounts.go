package auth

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/usererr"
)

// The admin console's view of every account of the node. Callers check
// that the actor is an admin (api.requireAdmin); these only act.

// Users lists the node's accounts, oldest first, and how many there are.
func (s *Service) Users(ctx context.Context, limit, offset int) ([]User, int64, error) {
	list, total, err := s.store.Users(ctx, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	out := make([]User, len(list))
	for i, su := range list {
		if out[i], err = s.userFrom(ctx, su); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// UserByID is the account with a node-local id.
func (s *Service) UserByID(ctx context.Context, id int64) (User, error) {
	return s.userByID(ctx, id)
}

// SessionsOf lists u's live sessions, as the admin console shows them.
func (s *Service) SessionsOf(ctx context.Context, u User) ([]SessionInfo, error) {
	if u.ID == 0 { // an account that never signed in here
		return []SessionInfo{}, nil
	}
	return s.Sessions(ctx, &Identity{User: u})
}

// RevokeAnySession ends a session of any user: their next request with it
// is signed out.
func (s *Service) RevokeAnySession(ctx context.Context, id int64) error {
	ok, err := s.store.RevokeAnySession(ctx, id)
	if err != nil {
		return fmt.Errorf("revoke session %d: %w", id, err)
	}
	if !ok {
		return usererr.Missingf("There is no session with id %d.", id)
	}
	return nil
}

// RevokeAnyToken deletes an access token of any user.
func (s *Service) RevokeAnyToken(ctx context.Context, id int64) error {
	ok, err := s.store.RevokeAnyAccessToken(ctx, id)
	if err != nil {
		return fmt.Errorf("revoke token %d: %w", id, err)
	}
	if !ok {
		return usererr.Missingf("There is no access token with id %d.", id)
	}
	return nil
}
