package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/dforge/dforge/internal/store"
)

// Nonce is a single-use sign-in nonce for a SIWE message.
type Nonce struct {
	Value     string
	ExpiresAt time.Time
}

// IssueNonce stores and returns a fresh nonce: 32 hex digits, which the
// EIP-4361 grammar (8 or more letters and digits) accepts.
func (s *Service) IssueNonce(ctx context.Context) (Nonce, error) {
	now := s.now()
	// Expired rows only serve to explain a late sign-in; a day is plenty.
	if err := s.store.PruneAuth(ctx, now.Add(-24*time.Hour)); err != nil {
		return Nonce{}, fmt.Errorf("issue nonce: %w", err)
	}
	n := Nonce{Value: randomHex(16), ExpiresAt: now.Add(NonceTTL)}
	if err := s.store.AddNonce(ctx, n.Value, n.ExpiresAt); err != nil {
		return Nonce{}, fmt.Errorf("issue nonce: %w", err)
	}
	return n, nil
}

// consumeNonce uses up a nonce, or says why it cannot be used.
func (s *Service) consumeNonce(ctx context.Context, nonce string, now time.Time) error {
	state, err := s.store.ConsumeNonce(ctx, nonce, now)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	switch state {
	case store.NonceConsumed:
		return nil
	case store.NonceUsed:
		return errNonceUsed
	case store.NonceExpired:
		return errNonceOld
	default:
		return errNonceUnkwn
	}
}
