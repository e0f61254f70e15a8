package auth

import (
	"context"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// User is a person known to this node: a wallet address with a node-local
// profile and the username the chain gives that address.
type User struct {
	ID        int64 // 0 for an account that never signed in here
	Address   common.Address
	Username  string
	Profile   Profile
	CreatedAt time.Time // zero for an account that never signed in here
	TwoFactor bool
}

// Profile is the editable part of a user. Email is private to the user.
type Profile struct {
	FullName    string
	Description string
	Location    string
	Website     string
	Email       string
}

// Profile limits (Gitea's, where Gitea has one).
const (
	MaxFullName    = 100
	MaxDescription = 255
	MaxLocation    = 50
	MaxWebsite     = 255
	MaxEmail       = 254
)

func (s *Service) userFrom(ctx context.Context, su store.User) (User, error) {
	addr := common.HexToAddress(su.Address)
	name, err := s.names.Username(ctx, addr)
	if err != nil {
		return User{}, fmt.Errorf("resolve username of %s: %w", addr.Hex(), err)
	}
	p := su.Profile
	return User{
		ID: su.ID, Address: addr, Username: name, CreatedAt: su.CreatedAt, TwoFactor: su.TwoFactor,
		Profile: Profile{FullName: p.FullName, Description: p.Description, Location: p.Location, Website: p.Website, Email: p.Email},
	}, nil
}

func (s *Service) userByID(ctx context.Context, id int64) (User, error) {
	su, ok, err := s.store.UserByID(ctx, id)
	if err == nil && !ok {
		err = fmt.Errorf("user %d not found", id)
	}
	if err != nil {
		return User{}, err
	}
	return s.userFrom(ctx, su)
}

// UserByName finds the user a username names. An account the chain knows
// that never signed in here comes back with ID 0 and an empty profile.
func (s *Service) UserByName(ctx context.Context, username string) (User, error) {
	notFound := usererr.Missingf("There is no user called %s.", username)
	addr, ok, err := s.names.AddressOf(ctx, username)
	if err != nil {
		return User{}, fmt.Errorf("resolve username %q: %w", username, err)
	}
	if !ok {
		return User{}, notFound
	}
	su, ok, err := s.store.UserByAddress(ctx, strings.ToLower(addr.Hex()))
	if err != nil {
		return User{}, err
	}
	if !ok {
		name, err := s.names.Username(ctx, addr)
		if err != nil {
			return User{}, fmt.Errorf("resolve username of %s: %w", addr.Hex(), err)
		}
		return User{Address: addr, Username: name}, nil
	}
	return s.userFrom(ctx, su)
}

// IsSelf reports whether username names u (tokens routes are per user).
func (s *Service) IsSelf(ctx context.Context, u User, username string) (bool, error) {
	addr, ok, err := s.names.AddressOf(ctx, username)
	if err != nil {
		return false, fmt.Errorf("resolve username %q: %w", username, err)
	}
	return ok && addr == u.Address, nil
}

// ProfileUpdate holds the fields to change; nil leaves a field as it is.
type ProfileUpdate struct {
	FullName    *string
	Description *string
	Location    *string
	Website     *string
	Email       *string
}

// UpdateProfile validates and applies a profile change and returns the user.
func (s *Service) UpdateProfile(ctx context.Context, u User, up ProfileUpdate) (User, error) {
	p := u.Profile
	fields := []struct {
		name  string
		in    *string
		out   *string
		max   int
		check func(field, v string) error
	}{
		{"full_name", up.FullName, &p.FullName, MaxFullName, checkLine},
		{"description", up.Description, &p.Description, MaxDescription, checkText},
		{"location", up.Location, &p.Location, MaxLocation, checkLine},
		{"website", up.Website, &p.Website, MaxWebsite, checkWebsite},
		{"email", up.Email, &p.Email, MaxEmail, checkEmail},
	}
	for _, f := range fields {
		if f.in == nil {
			continue
		}
		v := strings.TrimSpace(*f.in)
		if n := utf8.RuneCountInString(v); n > f.max {
			return User{}, unprocessable(f.name, "field_too_long", fmt.Sprintf("%s may be at most %d characters long (it has %d).", label(f.name), f.max, n))
		}
		if v != "" {
			if err := f.check(f.name, v); err != nil {
				return User{}, err
			}
		}
		*f.out = v
	}
	err := s.store.UpdateProfile(ctx, u.ID, store.Profile{
		FullName: p.FullName, Description: p.Description, Location: p.Location, Website: p.Website, Email: p.Email,
	})
	if err != nil {
		return User{}, fmt.Errorf("update profile: %w", err)
	}
	u.Profile = p
	return u, nil
}

func label(field string) string {
	return map[string]string{
		"full_name": "The display name", "description": "The bio", "location": "The location",
		"website": "The website", "email": "The email address",
	}[field]
}

func checkText(field, v string) error {
	if !utf8.ValidString(v) {
		return unprocessable(field, "invalid_text", label(field)+" is not valid text.")
	}
	for _, r := range v {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return unprocessable(field, "invalid_text", label(field)+" contains control characters.")
		}
	}
	return nil
}

func checkLine(field, v string) error {
	if strings.ContainsAny(v, "\r\n") {
		return unprocessable(field, "invalid_text", label(field)+" must fit on one line.")
	}
	return checkText(field, v)
}

func checkWebsite(field, v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || strings.ContainsAny(v, " \t\r\n") {
		return unprocessable(field, "invalid_url", "The website must be a web address starting with http:// or https://.")
	}
	return nil
}

func checkEmail(field, v string) error {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" || !strings.Contains(v[strings.LastIndexByte(v, '@')+1:], ".") {
		return unprocessable(field, "invalid_email", "The email address is not valid; it should look like name@example.org.")
	}
	return nil
}

// NotificationPrefs are which notifications a user wants.
type NotificationPrefs struct {
	Email      bool `json:"email"`
	Mentions   bool `json:"mentions"`
	Reviews    bool `json:"reviews"`
	Governance bool `json:"governance"`
	Rewards    bool `json:"rewards"`
}

// defaultPrefs: everything in the app, nothing by email until asked for.
var defaultPrefs = NotificationPrefs{Mentions: true, Reviews: true, Governance: true, Rewards: true}

// NotificationPrefs returns a user's preferences, or the defaults.
func (s *Service) NotificationPrefs(ctx context.Context, u User) (NotificationPrefs, error) {
	p, ok, err := s.store.NotificationPrefsOf(ctx, u.ID)
	if err != nil {
		return NotificationPrefs{}, err
	}
	if !ok {
		return defaultPrefs, nil
	}
	return NotificationPrefs(p), nil
}

// SetNotificationPrefs stores a user's preferences.
func (s *Service) SetNotificationPrefs(ctx context.Context, u User, p NotificationPrefs) error {
	return s.store.SetNotificationPrefs(ctx, u.ID, store.NotificationPrefs(p))
}
