package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The auth tables hold secrets only as SHA-256 hex digests ("hash" below),
// so a copy of the database signs nobody in.

// NonceState is what consuming a sign-in nonce found.
type NonceState int

const (
	NonceConsumed NonceState = iota // it was fresh and is now used
	NonceUnknown
	NonceUsed
	NonceExpired
)

// AddNonce stores a fresh sign-in nonce.
func (s *Store) AddNonce(ctx context.Context, nonce string, expires time.Time) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO auth_nonces (nonce, expires_at) VALUES ($1, $2)`, nonce, expires.UnixMilli()); err != nil {
		return fmt.Errorf("insert nonce: %w", err)
	}
	return nil
}

// ConsumeNonce marks a nonce used if it is unused and unexpired, in one
// statement so two requests racing with the same message cannot both win.
func (s *Store) ConsumeNonce(ctx context.Context, nonce string, now time.Time) (NonceState, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE auth_nonces SET used_at = $1
		WHERE nonce = $2 AND used_at IS NULL AND expires_at > $1`, now.UnixMilli(), nonce)
	if err != nil {
		return 0, fmt.Errorf("consume nonce: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, fmt.Errorf("consume nonce: %w", err)
	} else if n == 1 {
		return NonceConsumed, nil
	}
	// It was not consumed: say why, for a message the user understands.
	var used sql.NullInt64
	var expires int64
	err = s.db.QueryRowContext(ctx, `SELECT used_at, expires_at FROM auth_nonces WHERE nonce = $1`, nonce).Scan(&used, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return NonceUnknown, nil
	case err != nil:
		return 0, fmt.Errorf("read nonce: %w", err)
	case used.Valid:
		return NonceUsed, nil
	default:
		return NonceExpired, nil
	}
}

// PruneAuth deletes nonces, sessions and two-factor challenges that expired
// before the given time. It leaves the remembered sessions be: a lookup
// checks a remembered session's expiry, and each sign-in prunes.
func (s *Store) PruneAuth(ctx context.Context, before time.Time) error {
	for _, table := range []string{"auth_nonces", "sessions", "twofactor_challenges"} {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM `+table+` WHERE expires_at < $1`, before.UnixMilli()); err != nil {
			return fmt.Errorf("prune %s: %w", table, err)
		}
	}
	return nil
}

// Session is a signed-in browser.
type Session struct {
	ID         int64
	UserID     int64
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	UserAgent  string
	IP         string
}

// AddSession stores a session under the hash of its secret id.
func (s *Store) AddSession(ctx context.Context, hash string, se Session) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		hash, se.UserID, se.CreatedAt.UnixMilli(), se.LastSeenAt.UnixMilli(), se.ExpiresAt.UnixMilli(), se.UserAgent, se.IP).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert session: %w", err)
	}
	return id, nil
}

const sessionColumns = `id, user_id, created_at, last_seen_at, expires_at, user_agent, ip`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var se Session
	var created, seen, expires int64
	err := row.Scan(&se.ID, &se.UserID, &created, &seen, &expires, &se.UserAgent, &se.IP)
	se.CreatedAt, se.LastSeenAt, se.ExpiresAt = time.UnixMilli(created).UTC(), time.UnixMilli(seen).UTC(), time.UnixMilli(expires).UTC()
	return se, err
}

// SessionByHash finds the unexpired session whose secret hashes to hash.
// Every signed-in request asks, so the answer is remembered (credentials.go).
func (s *Store) SessionByHash(ctx context.Context, hash string, now time.Time) (Session, bool, error) {
	if se, ok := s.creds.session(hash); ok {
		return se, se.ExpiresAt.UnixMilli() > now.UnixMilli(), nil
	}
	gen := s.creds.generation()
	se, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions
		WHERE token_hash = $1 AND expires_at > $2`, hash, now.UnixMilli()))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, fmt.Errorf("read session: %w", err)
	}
	s.creds.putSession(gen, hash, se)
	return se, true, nil
}

// TouchSession records that a session was used.
func (s *Store) TouchSession(ctx context.Context, id int64, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1 WHERE id = $2`, now.UnixMilli(), id); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	s.creds.touchSession(id, time.UnixMilli(now.UnixMilli()).UTC())
	return nil
}

// SessionsOf lists a user's unexpired sessions, most recently used first.
func (s *Store) SessionsOf(ctx context.Context, userID int64, now time.Time) ([]Session, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions
		WHERE user_id = $1 AND expires_at > $2 ORDER BY last_seen_at DESC, id DESC`, userID, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("query sessions: %w", err)
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		se, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("scan session: %w", err)
		}
		out = append(out, se)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	return out, nil
}

// DeleteSession removes one of a user's sessions; false when it was not theirs.
func (s *Store) DeleteSession(ctx context.Context, userID, id int64) (bool, error) {
	defer s.creds.forget()
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1 AND user_id = $2`, id, userID))
}

// affected reports whether a write changed any row.
func (s *Store) affected(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("write: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("write: %w", err)
	}
	return n > 0, nil
}

// AddChallenge stores a pending second sign-in step under the hash of its secret.
func (s *Store) AddChallenge(ctx context.Context, hash string, userID int64, expires time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO twofactor_challenges (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
		hash, userID, expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert two-factor challenge: %w", err)
	}
	return nil
}

// ChallengeUser returns the user a live challenge belongs to, counting the
// attempt; a challenge that has had maxAttempts is dead.
func (s *Store) ChallengeUser(ctx context.Context, hash string, now time.Time, maxAttempts int) (int64, bool, error) {
	var userID int64
	err := s.db.QueryRowContext(ctx, `UPDATE twofactor_challenges SET attempts = attempts + 1
		WHERE token_hash = $1 AND expires_at > $2 AND attempts < $3 RETURNING user_id`,
		hash, now.UnixMilli(), maxAttempts).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read two-factor challenge: %w", err)
	}
	return userID, true, nil
}

// DeleteChallenge ends a challenge; false when it was already gone.
func (s *Store) DeleteChallenge(ctx context.Context, hash string) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM twofactor_challenges WHERE token_hash = $1`, hash))
}

// AccessToken is a personal access token's record (never its secret).
type AccessToken struct {
	ID         int64
	UserID     int64
	Name       string
	LastEight  string
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt time.Time // zero when never used
}

// ErrDuplicate reports a unique name already in use.
var ErrDuplicate = errors.New("already exists")

// AddAccessToken stores a token under the hash of its secret. It returns
// ErrDuplicate when the user already has a token of that name.
func (s *Store) AddAccessToken(ctx context.Context, hash string, t AccessToken) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO access_tokens (user_id, name, token_hash, last_eight, scopes, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, name) DO NOTHING RETURNING id`,
		t.UserID, t.Name, hash, t.LastEight, strings.Join(t.Scopes, ","), t.CreatedAt.UnixMilli()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrDuplicate
	}
	if err != nil {
		return 0, fmt.Errorf("insert access token: %w", err)
	}
	return id, nil
}

const tokenColumns = `id, user_id, name, last_eight, scopes, created_at, last_used_at`

func scanToken(row interface{ Scan(...any) error }) (AccessToken, error) {
	var t AccessToken
	var scopes string
	var created int64
	var used sql.NullInt64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.LastEight, &scopes, &created, &used)
	t.Scopes = strings.Split(scopes, ",")
	t.CreatedAt = time.UnixMilli(created).UTC()
	if used.Valid {
		t.LastUsedAt = time.UnixMilli(used.Int64).UTC()
	}
	return t, err
}

// AccessTokenByHash finds the token whose secret hashes to hash. Every
// request with a token asks, so the answer is remembered (credentials.go).
func (s *Store) AccessTokenByHash(ctx context.Context, hash string) (AccessToken, bool, error) {
	if t, ok := s.creds.token(hash); ok {
		return t, true, nil
	}
	gen := s.creds.generation()
	t, err := scanToken(s.db.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM access_tokens WHERE token_hash = $1`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return AccessToken{}, false, nil
	}
	if err != nil {
		return AccessToken{}, false, fmt.Errorf("read access token: %w", err)
	}
	s.creds.putToken(gen, hash, t)
	return t, true, nil
}

// AccessTokensOf lists a user's tokens, oldest first.
func (s *Store) AccessTokensOf(ctx context.Context, userID int64) ([]AccessToken, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+tokenColumns+` FROM access_tokens WHERE user_id = $1 ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("query access tokens: %w", err)
	}
	defer rows.Close()
	out := []AccessToken{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("scan access token: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read access tokens: %w", err)
	}
	return out, nil
}

// TouchAccessToken records that a token was used.
func (s *Store) TouchAccessToken(ctx context.Context, id int64, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE access_tokens SET last_used_at = $1 WHERE id = $2`, now.UnixMilli(), id); err != nil {
		return fmt.Errorf("touch access token: %w", err)
	}
	s.creds.touchToken(id, time.UnixMilli(now.UnixMilli()).UTC())
	return nil
}

// DeleteAccessToken revokes one of a user's tokens; false when it was not theirs.
func (s *Store) DeleteAccessToken(ctx context.Context, userID, id int64) (bool, error) {
	defer s.creds.forget()
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM access_tokens WHERE id = $1 AND user_id = $2`, id, userID))
}

// TOTP is a user's time-based one-time password setup.
type TOTP struct {
	Secret   string // base32
	Enabled  bool   // false while set up but not yet confirmed with a code
	LastStep int64  // the last time step accepted
}

// TOTPOf reads a user's TOTP setup; ok is false when there is none.
func (s *Store) TOTPOf(ctx context.Context, userID int64) (TOTP, bool, error) {
	var t TOTP
	err := s.db.QueryRowContext(ctx, `SELECT secret, enabled, last_step FROM user_totp WHERE user_id = $1`, userID).
		Scan(&t.Secret, &t.Enabled, &t.LastStep)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("read totp: %w", err)
	}
	return t, true, nil
}

// SetPendingTOTP stores a new, not yet enabled secret; false when TOTP is
// already enabled (an enabled secret is never replaced).
func (s *Store) SetPendingTOTP(ctx context.Context, userID int64, secret string, now time.Time) (bool, error) {
	defer s.creds.forget()
	res, err := s.db.ExecContext(ctx, `INSERT INTO user_totp (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
		WHERE user_totp.enabled = FALSE`, userID, secret, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("store totp secret: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store totp secret: %w", err)
	}
	return n == 1, nil
}

// UseTOTPStep records step as used if it is later than the last one used,
// atomically, so one code cannot sign in twice; false when it was not later.
func (s *Store) UseTOTPStep(ctx context.Context, userID, step int64) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `UPDATE user_totp SET last_step = $1 WHERE user_id = $2 AND last_step < $1`, step, userID))
}

// EnableTOTP turns on the pending secret, marks step used and replaces the
// recovery codes with codeHashes, all or nothing; false when there was no
// pending secret or step was not later than the last one used.
func (s *Store) EnableTOTP(ctx context.Context, userID, step int64, codeHashes []string) (bool, error) {
	defer s.creds.forget() // a user's TwoFactor; deferred calls run after the commit
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("enable totp: begin: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE user_totp SET enabled = TRUE, last_step = $1
		WHERE user_id = $2 AND enabled = FALSE AND last_step < $1`, step, userID)
	if err != nil {
		return false, fmt.Errorf("enable totp: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return false, fmt.Errorf("enable totp: clear recovery codes: %w", err)
	}
	for _, h := range codeHashes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
			return false, fmt.Errorf("enable totp: insert recovery code: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("enable totp: commit: %w", err)
	}
	return true, nil
}

// DisableTOTP removes a user's TOTP secret and recovery codes.
func (s *Store) DisableTOTP(ctx context.Context, userID int64) error {
	defer s.creds.forget()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("disable totp: begin: %w", err)
	}
	defer tx.Rollback()
	for _, table := range []string{"recovery_codes", "user_totp"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("disable totp: delete %s: %w", table, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("disable totp: commit: %w", err)
	}
	return nil
}

// UseRecoveryCode marks an unused recovery code used; false when there is none.
func (s *Store) UseRecoveryCode(ctx context.Context, userID int64, hash string, now time.Time) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `UPDATE recovery_codes SET used_at = $1
		WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL`, now.UnixMilli(), userID, hash))
}

// RecoveryCodesLeft counts a user's unused recovery codes.
func (s *Store) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count recovery codes: %w", err)
	}
	return n, nil
}
