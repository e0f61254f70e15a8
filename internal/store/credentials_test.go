package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
)

// What a signed-in request resolves (its session or token, and its user)
// is answered without the database once known: on SQLite it does not wait
// for a write transaction holding the single writer connection.
func TestSignedInLookupsDoNotWaitForTheWriter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStores(t)["sqlite"]
	now := time.Now().UTC()
	u, se, tok := signedIn(t, s, now)
	// Known once: the first lookups read the database.
	lookUp(ctx, t, s, u.ID, se, tok, now)

	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE users SET location = 'busy' WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	lookUp(wait, t, s, u.ID, se, tok, now)
}

// Every write that changes what a lookup returns is seen by the next
// lookup: revocations, profile edits, two-factor, touches and expiry.
func TestSignedInLookupsFollowEveryWrite(t *testing.T) {
	t.Parallel()
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Millisecond)
			u, se, tok := signedIn(t, s, now)
			lookUp(ctx, t, s, u.ID, se, tok, now)

			if err := s.TouchAccessToken(ctx, tok, now.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := s.AccessTokenByHash(ctx, "tok-hash"); !got.LastUsedAt.Equal(now.Add(2 * time.Minute)) {
				t.Fatalf("token last used %v after a touch at %v", got.LastUsedAt, now.Add(2*time.Minute))
			}
			if err := s.TouchSession(ctx, se, now.Add(3*time.Minute)); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := s.SessionByHash(ctx, "se-hash", now); !got.LastSeenAt.Equal(now.Add(3 * time.Minute)) {
				t.Fatalf("session last seen %v after a touch at %v", got.LastSeenAt, now.Add(3*time.Minute))
			}
			if _, ok, _ := s.SessionByHash(ctx, "se-hash", now.Add(2*time.Hour)); ok {
				t.Fatal("a remembered session was found after it expired")
			}

			if err := s.UpdateProfile(ctx, u.ID, store.Profile{FullName: "Edited"}); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := s.UserByID(ctx, u.ID); got.Profile.FullName != "Edited" {
				t.Fatalf("full name %q after an edit", got.Profile.FullName)
			}
			if _, err := s.SetPendingTOTP(ctx, u.ID, "SECRET", now); err != nil {
				t.Fatal(err)
			}
			if ok, err := s.EnableTOTP(ctx, u.ID, 1, nil); err != nil || !ok {
				t.Fatalf("enable totp: %v %v", ok, err)
			}
			if got, _, _ := s.UserByID(ctx, u.ID); !got.TwoFactor {
				t.Fatal("two-factor is off after it was enabled")
			}
			if err := s.DisableTOTP(ctx, u.ID); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := s.UserByID(ctx, u.ID); got.TwoFactor {
				t.Fatal("two-factor is on after it was disabled")
			}

			if ok, err := s.DeleteAccessToken(ctx, u.ID, tok); err != nil || !ok {
				t.Fatalf("revoke token: %v %v", ok, err)
			}
			if _, ok, _ := s.AccessTokenByHash(ctx, "tok-hash"); ok {
				t.Fatal("a revoked token was found")
			}
			if ok, err := s.RevokeAnySession(ctx, se); err != nil || !ok {
				t.Fatalf("revoke session: %v %v", ok, err)
			}
			if _, ok, _ := s.SessionByHash(ctx, "se-hash", now); ok {
				t.Fatal("a revoked session was found")
			}
		})
	}
}

// Lookups racing a revocation: once the revocation has returned, no
// lookup finds the token, not even one that read it before the DELETE and
// remembers it afterwards.
func TestARevokedTokenIsNeverFoundAfterTheRevocationReturns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStores(t)["sqlite"]
	now := time.Now().UTC()
	u, _, _ := signedIn(t, s, now)
	for round := range 20 {
		hash := "race-" + string(rune('a'+round))
		id, err := s.AddAccessToken(ctx, hash, store.AccessToken{UserID: u.ID, Name: hash, Scopes: []string{"all"}, CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		var revoked, foundAfter atomic.Bool
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for after := 0; after < 50; {
					wasRevoked := revoked.Load()
					_, ok, err := s.AccessTokenByHash(ctx, hash)
					if err != nil {
						t.Error(err)
						return
					}
					if wasRevoked {
						after++
						if ok {
							foundAfter.Store(true)
						}
					}
				}
			}()
		}
		if _, err := s.DeleteAccessToken(ctx, u.ID, id); err != nil {
			t.Fatal(err)
		}
		revoked.Store(true)
		wg.Wait()
		if foundAfter.Load() {
			t.Fatalf("round %d: the token was found after its revocation returned", round)
		}
	}
}

func signedIn(t *testing.T, s *store.Store, now time.Time) (store.User, int64, int64) {
	t.Helper()
	ctx := context.Background()
	u, err := s.EnsureUser(ctx, "0x00000000000000000000000000000000000000c1", now)
	if err != nil {
		t.Fatal(err)
	}
	se, err := s.AddSession(ctx, "se-hash", store.Session{UserID: u.ID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.AddAccessToken(ctx, "tok-hash", store.AccessToken{UserID: u.ID, Name: "ci", Scopes: []string{"write:issue"}, CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	return u, se, tok
}

func lookUp(ctx context.Context, t *testing.T, s *store.Store, userID, session, token int64, now time.Time) {
	t.Helper()
	if se, ok, err := s.SessionByHash(ctx, "se-hash", now); err != nil || !ok || se.ID != session {
		t.Fatalf("session = %+v %v %v", se, ok, err)
	}
	if tok, ok, err := s.AccessTokenByHash(ctx, "tok-hash"); err != nil || !ok || tok.ID != token {
		t.Fatalf("token = %+v %v %v", tok, ok, err)
	}
	if u, ok, err := s.UserByID(ctx, userID); err != nil || !ok || u.ID != userID {
		t.Fatalf("user = %+v %v %v", u, ok, err)
	}
}
