package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// User is a node-local account record, created on the first sign-in. Its
// username is not here: names live on chain.
type User struct {
	ID        int64
	Address   string // lowercase 0x-hex
	Profile   Profile
	CreatedAt time.Time
	TwoFactor bool // TOTP is enabled
}

// Profile is what a user may edit about themself.
type Profile struct {
	FullName    string
	Description string
	Location    string
	Website     string
	Email       string
}

const userColumns = `u.id, u.address, u.full_name, u.description, u.location, u.website, u.email, u.created_at,
	COALESCE(t.enabled, FALSE)`

const userFrom = `FROM users u LEFT JOIN user_totp t ON t.user_id = u.id`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var created int64
	p := &u.Profile
	err := row.Scan(&u.ID, &u.Address, &p.FullName, &p.Description, &p.Location, &p.Website, &p.Email, &created, &u.TwoFactor)
	u.CreatedAt = time.UnixMilli(created).UTC()
	return u, err
}

// EnsureUser returns the user with address, creating the record if it is new.
func (s *Store) EnsureUser(ctx context.Context, address string, now time.Time) (User, error) {
	_, err := s.db.ExecContext(ctx, `INSERT INTO users (address, created_at) VALUES ($1, $2)
		ON CONFLICT (address) DO NOTHING`, address, now.UnixMilli())
	if err != nil {
		return User{}, fmt.Errorf("insert user: %w", err)
	}
	u, ok, err := s.UserByAddress(ctx, address)
	if err == nil && !ok {
		err = fmt.Errorf("user %s vanished after insert", address)
	}
	return u, err
}

// UserByID reads a user; ok is false when there is none. Every signed-in
// request asks, so the answer is remembered (credentials.go).
func (s *Store) UserByID(ctx context.Context, id int64) (User, bool, error) {
	if u, ok := s.creds.user(id); ok {
		return u, true, nil
	}
	gen := s.creds.generation()
	u, ok, err := s.oneUser(ctx, `SELECT `+userColumns+` `+userFrom+` WHERE u.id = $1`, id)
	if ok {
		s.creds.putUser(gen, u)
	}
	return u, ok, err
}

// UserByAddress reads the user with a lowercase 0x-hex address.
func (s *Store) UserByAddress(ctx context.Context, address string) (User, bool, error) {
	return s.oneUser(ctx, `SELECT `+userColumns+` `+userFrom+` WHERE u.address = $1`, address)
}

func (s *Store) oneUser(ctx context.Context, query string, arg any) (User, bool, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, query, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, fmt.Errorf("read user: %w", err)
	}
	return u, true, nil
}

// UserAddressesWithPrefix lists the addresses of local users starting with
// prefix (lowercase 0x-hex), at most limit of them.
func (s *Store) UserAddressesWithPrefix(ctx context.Context, prefix string, limit int) ([]string, error) {
	// prefix is hex, so it holds no LIKE wildcards.
	rows, err := s.db.QueryContext(ctx, `SELECT address FROM users WHERE address LIKE $1 ORDER BY address LIMIT $2`, prefix+"%", limit)
	if err != nil {
		return nil, fmt.Errorf("query users by address prefix: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("scan user address: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read user addresses: %w", err)
	}
	return out, nil
}

// UpdateProfile replaces a user's profile fields.
func (s *Store) UpdateProfile(ctx context.Context, userID int64, p Profile) error {
	defer s.creds.forget()
	_, err := s.db.ExecContext(ctx, `UPDATE users SET full_name = $1, description = $2, location = $3, website = $4, email = $5
		WHERE id = $6`, p.FullName, p.Description, p.Location, p.Website, p.Email, userID)
	if err != nil {
		return fmt.Errorf("update profile: %w", err)
	}
	return nil
}

// NotificationPrefs are which notifications a user wants.
type NotificationPrefs struct {
	Email, Mentions, Reviews, Governance, Rewards bool
}

// NotificationPrefsOf reads a user's preferences; ok is false when they never set any.
func (s *Store) NotificationPrefsOf(ctx context.Context, userID int64) (NotificationPrefs, bool, error) {
	var p NotificationPrefs
	// Every notification list and badge reads them: through the read pool,
	// so they do not queue for SQLite's one writer connection.
	err := s.rdb.QueryRowContext(ctx, `SELECT email, mentions, reviews, governance, rewards
		FROM notification_preferences WHERE user_id = $1`, userID).Scan(&p.Email, &p.Mentions, &p.Reviews, &p.Governance, &p.Rewards)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("read notification preferences: %w", err)
	}
	return p, true, nil
}

// SetNotificationPrefs stores a user's preferences.
func (s *Store) SetNotificationPrefs(ctx context.Context, userID int64, p NotificationPrefs) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO notification_preferences (user_id, email, mentions, reviews, governance, rewards)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, mentions = excluded.mentions,
			reviews = excluded.reviews, governance = excluded.governance, rewards = excluded.rewards`,
		userID, p.Email, p.Mentions, p.Reviews, p.Governance, p.Rewards)
	if err != nil {
		return fmt.Errorf("store notification preferences: %w", err)
	}
	return nil
}
