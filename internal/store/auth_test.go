package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
)

// TestAuthTables drives the identity tables' SQL on each dialect; the auth
// package's HTTP tests cover the behaviour on SQLite.
func TestAuthTables(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			truth := func(ok bool, err error) bool {
				t.Helper()
				must(err)
				return ok
			}

			// Users: created once, found by address and prefix.
			addr := "0xabcdef0123456789abcdef0123456789abcdef01"
			u, err := s.EnsureUser(ctx, addr, now)
			must(err)
			again, err := s.EnsureUser(ctx, addr, now.Add(time.Hour))
			must(err)
			if again.ID != u.ID || !again.CreatedAt.Equal(now) || u.TwoFactor {
				t.Fatalf("users = %+v then %+v", u, again)
			}
			must(s.UpdateProfile(ctx, u.ID, store.Profile{FullName: "A", Email: "a@example.org"}))
			if got, ok, err := s.UserByID(ctx, u.ID); err != nil || !ok || got.Profile.FullName != "A" || got.Profile.Email != "a@example.org" {
				t.Fatalf("user = %+v %v %v", got, ok, err)
			}
			if found, err := s.UserAddressesWithPrefix(ctx, "0xabcdef012345", 2); err != nil || len(found) != 1 || found[0] != addr {
				t.Fatalf("prefix = %v %v", found, err)
			}

			// Nonces: consumed once, and the reason a second try fails.
			must(s.AddNonce(ctx, "n1", now.Add(time.Minute)))
			must(s.AddNonce(ctx, "n2", now.Add(time.Minute)))
			for _, c := range []struct {
				nonce string
				at    time.Time
				want  store.NonceState
			}{{"n1", now, store.NonceConsumed}, {"n1", now, store.NonceUsed}, {"n2", now.Add(time.Hour), store.NonceExpired}, {"zz", now, store.NonceUnknown}} {
				if got, err := s.ConsumeNonce(ctx, c.nonce, c.at); err != nil || got != c.want {
					t.Fatalf("consume %s = %v %v, want %v", c.nonce, got, err, c.want)
				}
			}

			// Sessions and challenges.
			id, err := s.AddSession(ctx, "h1", store.Session{UserID: u.ID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour), IP: "::1"})
			must(err)
			must(s.TouchSession(ctx, id, now.Add(time.Minute)))
			if se, ok, err := s.SessionByHash(ctx, "h1", now); err != nil || !ok || se.ID != id || !se.LastSeenAt.Equal(now.Add(time.Minute)) {
				t.Fatalf("session = %+v %v %v", se, ok, err)
			}
			if _, ok, _ := s.SessionByHash(ctx, "h1", now.Add(2*time.Hour)); ok {
				t.Fatal("an expired session was found")
			}
			if list, err := s.SessionsOf(ctx, u.ID, now); err != nil || len(list) != 1 {
				t.Fatalf("sessions = %v %v", list, err)
			}
			must(s.AddChallenge(ctx, "c1", u.ID, now.Add(time.Minute)))
			if uid, ok, err := s.ChallengeUser(ctx, "c1", now, 1); err != nil || !ok || uid != u.ID {
				t.Fatalf("challenge = %v %v %v", uid, ok, err)
			}
			if _, ok, _ := s.ChallengeUser(ctx, "c1", now, 1); ok {
				t.Fatal("a challenge outlived its attempts")
			}
			if !truth(s.DeleteChallenge(ctx, "c1")) || truth(s.DeleteChallenge(ctx, "c1")) {
				t.Fatal("challenge deleted twice")
			}
			must(s.PruneAuth(ctx, now.Add(2*time.Hour)))
			if list, _ := s.SessionsOf(ctx, u.ID, time.Time{}); len(list) != 0 {
				t.Fatalf("prune left %v", list)
			}

			// Tokens: names unique per user.
			tid, err := s.AddAccessToken(ctx, "t1", store.AccessToken{UserID: u.ID, Name: "ci", LastEight: "12345678", Scopes: []string{"read", "write"}, CreatedAt: now})
			must(err)
			if _, err := s.AddAccessToken(ctx, "t2", store.AccessToken{UserID: u.ID, Name: "ci", Scopes: []string{"read"}, CreatedAt: now}); !errors.Is(err, store.ErrDuplicate) {
				t.Fatalf("duplicate token name: %v", err)
			}
			must(s.TouchAccessToken(ctx, tid, now))
			if tok, ok, err := s.AccessTokenByHash(ctx, "t1"); err != nil || !ok || len(tok.Scopes) != 2 || !tok.LastUsedAt.Equal(now) {
				t.Fatalf("token = %+v %v %v", tok, ok, err)
			}
			if !truth(s.DeleteAccessToken(ctx, u.ID, tid)) || truth(s.DeleteAccessToken(ctx, u.ID, tid)) {
				t.Fatal("token deleted twice")
			}

			// TOTP: pending, enabled with codes, steps only forward, then off.
			if !truth(s.SetPendingTOTP(ctx, u.ID, "SECRET", now)) {
				t.Fatal("pending secret not stored")
			}
			if !truth(s.EnableTOTP(ctx, u.ID, 10, []string{"r1", "r2"})) || truth(s.EnableTOTP(ctx, u.ID, 11, nil)) {
				t.Fatal("enable twice")
			}
			if truth(s.SetPendingTOTP(ctx, u.ID, "OTHER", now)) {
				t.Fatal("an enabled secret was replaced")
			}
			if got, _, _ := s.UserByID(ctx, u.ID); !got.TwoFactor {
				t.Fatal("user does not show two-factor on")
			}
			if truth(s.UseTOTPStep(ctx, u.ID, 10)) || !truth(s.UseTOTPStep(ctx, u.ID, 11)) {
				t.Fatal("time steps must only move forward")
			}
			if !truth(s.UseRecoveryCode(ctx, u.ID, "r1", now)) || truth(s.UseRecoveryCode(ctx, u.ID, "r1", now)) {
				t.Fatal("recovery code used twice")
			}
			if left, err := s.RecoveryCodesLeft(ctx, u.ID); err != nil || left != 1 {
				t.Fatalf("codes left = %d %v", left, err)
			}
			must(s.DisableTOTP(ctx, u.ID))
			if _, ok, _ := s.TOTPOf(ctx, u.ID); ok {
				t.Fatal("totp survived disable")
			}

			// Notification preferences: absent, then stored and replaced.
			if _, ok, err := s.NotificationPrefsOf(ctx, u.ID); ok || err != nil {
				t.Fatalf("prefs before any = %v %v", ok, err)
			}
			must(s.SetNotificationPrefs(ctx, u.ID, store.NotificationPrefs{Email: true}))
			must(s.SetNotificationPrefs(ctx, u.ID, store.NotificationPrefs{Rewards: true}))
			if p, ok, err := s.NotificationPrefsOf(ctx, u.ID); err != nil || !ok || p != (store.NotificationPrefs{Rewards: true}) {
				t.Fatalf("prefs = %+v %v %v", p, ok, err)
			}
		})
	}
}
