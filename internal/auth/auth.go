// Package auth is wallet identity on one node: Sign-In with Ethereum
// (EIP-4361) against single-use nonces, cookie sessions with CSRF tokens,
// personal access tokens, TOTP two-factor authentication, and the node-local
// user records (profile, notification preferences). None of it goes on chain;
// usernames come from the chain through Names.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Names resolves usernames, which live on chain. *index.Index implements it.
type Names interface {
	Username(ctx context.Context, addr common.Address) (string, error)
	AddressOf(ctx context.Context, username string) (common.Address, bool, error)
}

// Lifetimes and allowances.
const (
	NonceTTL          = 10 * time.Minute
	SessionTTL        = 30 * 24 * time.Hour
	ChallengeTTL      = 5 * time.Minute
	clockSkew         = 2 * time.Minute // how far a wallet's clock may run ahead of ours
	maxMessageAge     = NonceTTL + clockSkew
	maxChallengeTries = 5
	touchEvery        = time.Minute // how stale last-seen times may get, to spare a write per request
)

// Config is what a Service is built with.
type Config struct {
	// ChainID is the chain's EIP-712 domain chain id; SIWE messages must name it.
	ChainID uint64
	// Names resolves usernames; nil falls back to default names of local users.
	Names Names
	// Now is the clock; nil means time.Now. Tests move it.
	Now func() time.Time
	Log *slog.Logger
	// Writers refuses the writes of accounts this node's moderators
	// suspended (*moderation.Service); nil refuses none.
	Writers Writers
}

// Writers says whether an account may write through this node: nil, or
// the refusal (a usererr with code suspended).
type Writers interface {
	CheckWriter(ctx context.Context, addr common.Address) error
}

// Service owns identity: sign-in, sessions, tokens, second factors and users.
type Service struct {
	store   *store.Store
	chainID uint64
	names   Names
	now     func() time.Time
	log     *slog.Logger
	writers Writers
}

// New returns the auth service over st.
func New(st *store.Store, cfg Config) *Service {
	s := &Service{store: st, chainID: cfg.ChainID, names: cfg.Names, now: cfg.Now, log: cfg.Log, writers: cfg.Writers}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.names == nil {
		s.names = localNames{st}
	} else {
		s.names = chainThenLocal{chain: s.names, local: localNames{st}}
	}
	return s
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return short)
	return hex.EncodeToString(b)
}

// hash is how secrets are stored: SHA-256 in hex. The secrets are 128+ bits
// of randomness, so a fast hash is enough; nothing here is a password.
func hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func unauthenticated(code, message string) error {
	return usererr.New(usererr.Unauthenticated, code, message)
}

func forbidden(code, message string) error {
	return usererr.New(usererr.Forbidden, code, message)
}

func unprocessable(field, code, message string) error {
	return usererr.New(usererr.Unprocessable, code, message).On(field)
}
