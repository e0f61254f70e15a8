package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Scope is what a credential may do. A session may do everything its user may.
type Scope int

const (
	ScopeRead  Scope = iota + 1 // GET, HEAD, OPTIONS
	ScopeWrite                  // also changes
	ScopeAdmin                  // also manage the account's credentials and security
)

var scopeNames = []string{ScopeRead: "read", ScopeWrite: "write", ScopeAdmin: "admin"}

func (s Scope) String() string {
	if s < ScopeRead || s > ScopeAdmin {
		return "none"
	}
	return scopeNames[s]
}

func parseScope(name string) (Scope, bool) {
	i := slices.Index(scopeNames, name)
	return Scope(i), i > 0
}

// MaxTokenName is the longest token name.
const MaxTokenName = 100

// Token is a personal access token. Secret is set only when it is created:
// the node keeps its hash and last eight characters, nothing more.
type Token struct {
	ID         int64
	Name       string
	Secret     string
	LastEight  string
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt time.Time
}

// CreateToken makes a token for u: 40 hex digits, like Gitea's, so git and
// Gitea clients take it as they are.
func (s *Service) CreateToken(ctx context.Context, u User, name string, scopes []string) (Token, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxTokenName || checkLine("name", name) != nil {
		return Token{}, unprocessable("name", "invalid_name", fmt.Sprintf("Give the token a name of 1 to %d characters on one line.", MaxTokenName))
	}
	scopes, err := normalizeScopes(scopes)
	if err != nil {
		return Token{}, err
	}
	secret := randomHex(20)
	t := Token{Name: name, Secret: secret, LastEight: secret[len(secret)-8:], Scopes: scopes, CreatedAt: s.now()}
	t.ID, err = s.store.AddAccessToken(ctx, hash(secret), store.AccessToken{
		UserID: u.ID, Name: name, LastEight: t.LastEight, Scopes: scopes, CreatedAt: t.CreatedAt,
	})
	if errors.Is(err, store.ErrDuplicate) {
		return Token{}, unprocessable("name", "name_taken", "You already have a token called "+name+"; choose another name.")
	}
	if err != nil {
		return Token{}, fmt.Errorf("create token: %w", err)
	}
	return t, nil
}

// normalizeScopes checks scope names and returns them once each, weakest first.
func normalizeScopes(in []string) ([]string, error) {
	var have []Scope
	for _, name := range in {
		sc, ok := parseScope(strings.ToLower(strings.TrimSpace(name)))
		if !ok {
			return nil, unprocessable("scopes", "invalid_scope", fmt.Sprintf("%q is not a scope; use read, write or admin.", name))
		}
		if !slices.Contains(have, sc) {
			have = append(have, sc)
		}
	}
	if len(have) == 0 {
		return nil, unprocessable("scopes", "invalid_scope", "Choose at least one scope: read, write or admin.")
	}
	slices.Sort(have)
	out := make([]string, len(have))
	for i, sc := range have {
		out[i] = sc.String()
	}
	return out, nil
}

// Tokens lists u's tokens without their secrets.
func (s *Service) Tokens(ctx context.Context, u User) ([]Token, error) {
	list, err := s.store.AccessTokensOf(ctx, u.ID)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	out := make([]Token, len(list))
	for i, t := range list {
		out[i] = Token{ID: t.ID, Name: t.Name, LastEight: t.LastEight, Scopes: t.Scopes, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt}
	}
	return out, nil
}

// RevokeToken deletes one of u's tokens.
func (s *Service) RevokeToken(ctx context.Context, u User, id int64) error {
	ok, err := s.store.DeleteAccessToken(ctx, u.ID, id)
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	if !ok {
		return usererr.Missingf("You have no access token with that id.")
	}
	return nil
}

var errToken = unauthenticated("invalid_token", "This access token is not valid; it may have been revoked. Create a new one in Settings.")

// identifyToken resolves an access token's secret.
func (s *Service) identifyToken(ctx context.Context, secret string) (*Identity, error) {
	secret = strings.ToLower(secret)
	if len(secret) != 40 || !isHex(secret) {
		return nil, errToken
	}
	t, ok, err := s.store.AccessTokenByHash(ctx, hash(secret))
	if err != nil {
		return nil, fmt.Errorf("resolve token: %w", err)
	}
	if !ok {
		return nil, errToken
	}
	now := s.now()
	if now.Sub(t.LastUsedAt) > touchEvery {
		if err := s.store.TouchAccessToken(ctx, t.ID, now); err != nil {
			s.log.WarnContext(ctx, "could not record token use", "err", err)
		}
	}
	u, err := s.userByID(ctx, t.UserID)
	if err != nil {
		return nil, fmt.Errorf("resolve token: %w", err)
	}
	var scope Scope
	for _, name := range t.Scopes {
		if sc, ok := parseScope(name); ok && sc > scope {
			scope = sc
		}
	}
	return &Identity{User: u, TokenID: t.ID, Scope: scope}, nil
}
