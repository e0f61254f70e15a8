package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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

// hint names the scopes that grant s, for a user's error.
func (s Scope) hint() string {
	switch s {
	case ScopeRead:
		return "a read or write scope, such as read:repository"
	case ScopeWrite:
		return "a write scope, such as write:repository"
	}
	return "the all, write:admin or admin scope"
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

// Gitea's token scopes: "all", "public-only", and read:/write: on each of
// these categories. dForge keeps them as given and, for now, enforces the
// level they add up to (see levelOf); per-category checks are to come.
var scopeCategories = []string{"activitypub", "admin", "issue", "misc", "notification", "organization", "package", "repository", "user"}

// scopeOrder lists every scope name a token may carry, in the order the
// node returns them: dForge's aliases, then Gitea's.
var scopeOrder = func() []string {
	out := []string{"read", "write", "admin", "all", "public-only"}
	for _, c := range scopeCategories {
		out = append(out, "read:"+c, "write:"+c)
	}
	return out
}()

// levelOf is what one scope name allows: write:admin, admin and all manage
// credentials; any other write:* writes; any other read:* (read:admin too:
// reading must not mint tokens) reads; public-only adds no level: it
// narrows what the others reach (see PublicOnly).
func levelOf(name string) Scope {
	switch {
	case name == "admin" || name == "all" || name == "write:admin":
		return ScopeAdmin
	case name == "write" || strings.HasPrefix(name, "write:"):
		return ScopeWrite
	case name == "read" || strings.HasPrefix(name, "read:"):
		return ScopeRead
	}
	return 0
}

// Grants reports whether the identity may act at level need on one of
// Gitea's scope categories: a session always; a token through all, an alias
// of that level or above, or read:category/write:category (write implies
// read). The API asks it for each request's category and git for a push.
func (id *Identity) Grants(category string, need Scope) bool {
	if id.TokenID == 0 {
		return id.Scope >= need
	}
	for _, name := range id.Scopes {
		switch name {
		case "all":
			return true
		case "read", "write", "admin":
			if levelOf(name) >= need {
				return true
			}
		case "read:" + category:
			if need <= ScopeRead {
				return true
			}
		case "write:" + category:
			if need <= ScopeWrite {
				return true
			}
		}
	}
	return false
}

// PublicOnly reports whether the identity is a token with Gitea's
// public-only scope: it reaches public resources only, so the forge answers
// its private repositories as it answers a stranger's request.
func (id *Identity) PublicOnly() bool {
	return id != nil && id.TokenID != 0 && slices.Contains(id.Scopes, "public-only")
}

// normalizeScopes checks scope names (Gitea's and dForge's aliases) and
// returns them once each, in scopeOrder. A name it does not know is a 400,
// as Gitea answers.
func normalizeScopes(in []string) ([]string, error) {
	have := make([]bool, len(scopeOrder))
	for _, name := range in {
		i := slices.Index(scopeOrder, strings.ToLower(strings.TrimSpace(name)))
		if i < 0 {
			return nil, usererr.InvalidField("scopes", "invalid_scope", fmt.Sprintf("%q is not a scope; use all, public-only, read:<category> or write:<category> (categories: %s), or read, write or admin.", name, strings.Join(scopeCategories, ", ")))
		}
		have[i] = true
	}
	var out []string
	for i, ok := range have {
		if ok {
			out = append(out, scopeOrder[i])
		}
	}
	if len(out) == 0 {
		return nil, usererr.InvalidField("scopes", "invalid_scope", "Choose at least one scope, such as read:repository or write:repository.")
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

// RevokeToken deletes one of u's tokens, named as Gitea does by its id or,
// when no token has that id, by its name.
func (s *Service) RevokeToken(ctx context.Context, u User, idOrName string) error {
	id, err := strconv.ParseInt(idOrName, 10, 64)
	if err == nil {
		ok, err := s.store.DeleteAccessToken(ctx, u.ID, id)
		if err != nil {
			return fmt.Errorf("revoke token: %w", err)
		}
		if ok {
			return nil
		}
	}
	list, err := s.store.AccessTokensOf(ctx, u.ID)
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	for _, t := range list {
		if t.Name != idOrName {
			continue
		}
		ok, err := s.store.DeleteAccessToken(ctx, u.ID, t.ID)
		if err != nil {
			return fmt.Errorf("revoke token: %w", err)
		}
		if ok {
			return nil
		}
	}
	return usererr.Missingf("You have no access token with that id or name.")
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
		scope = max(scope, levelOf(name))
	}
	return &Identity{User: u, TokenID: t.ID, Scope: scope, Scopes: t.Scopes}, nil
}
