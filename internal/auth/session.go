package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// CookieName is the session cookie.
const CookieName = "dforge_session"

// SignInRequest is a signed SIWE message and where it arrived.
type SignInRequest struct {
	Message   string
	Signature string
	// Origins are the node's configured origins (OriginsOf): a message
	// must be for one of them. The request's Host has no say.
	Origins   Origins
	UserAgent string
	IP        string
}

// SignInResult is either a new session or, when the user has two-factor
// authentication on, a challenge to finish with FinishTwoFactor.
type SignInResult struct {
	User      User
	Session   NewSession // zero when Challenge is set
	Challenge string
}

// NewSession is a session just created; Secret goes in the cookie and is
// not stored anywhere on the node.
type NewSession struct {
	Secret    string
	CSRFToken string
	ExpiresAt time.Time
}

// SignIn verifies a Sign-In with Ethereum message and its signature and
// starts a session for the signer, creating the user on first sign-in.
func (s *Service) SignIn(ctx context.Context, req SignInRequest) (SignInResult, error) {
	now := s.now()
	// 1. The message must follow the EIP-4361 grammar exactly.
	m, err := ParseMessage(req.Message)
	if err != nil {
		return SignInResult{}, errMessage(err)
	}
	// 2. It must be meant for this node, this chain and this moment.
	if err := s.checkMessage(ctx, m, req.Origins, now); err != nil {
		return SignInResult{}, err
	}
	// 3. The address it names must have signed it.
	if signer, err := recoverSigner(req.Message, req.Signature); err != nil || signer != m.Address {
		return SignInResult{}, errSignature
	}
	// 4. Its nonce must be ours and fresh; using it up makes a replay fail.
	if err := s.consumeNonce(ctx, m.Nonce, now); err != nil {
		return SignInResult{}, err
	}
	// 5. The first sign-in creates the user.
	su, err := s.store.EnsureUser(ctx, strings.ToLower(m.Address.Hex()), now)
	if err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w", err)
	}
	u, err := s.userFrom(ctx, su)
	if err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w", err)
	}
	// 6. With a second factor on, the session waits for a code.
	if u.TwoFactor {
		challenge := randomHex(32)
		if err := s.store.AddChallenge(ctx, hash(challenge), u.ID, now.Add(ChallengeTTL)); err != nil {
			return SignInResult{}, fmt.Errorf("sign in: %w", err)
		}
		return SignInResult{User: u, Challenge: challenge}, nil
	}
	ns, err := s.startSession(ctx, u.ID, req.UserAgent, req.IP, now)
	if err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w", err)
	}
	return SignInResult{User: u, Session: ns}, nil
}

// TwoFactorRequest finishes a sign-in that asked for a second factor.
type TwoFactorRequest struct {
	Challenge string
	Code      string // a TOTP code or a recovery code
	UserAgent string
	IP        string
}

var (
	errChallenge = unauthenticated("twofactor_challenge_invalid", "This sign-in has expired or had too many wrong codes. Sign in again with your wallet.")
	errCode      = unauthenticated("twofactor_invalid_code", "That code is not right, or it was already used. Enter the current code from your authenticator app, or an unused recovery code.")
)

// FinishTwoFactor checks the code for a sign-in challenge and starts the session.
func (s *Service) FinishTwoFactor(ctx context.Context, req TwoFactorRequest) (SignInResult, error) {
	now := s.now()
	challenge := hash(req.Challenge)
	userID, ok, err := s.store.ChallengeUser(ctx, challenge, now, maxChallengeTries)
	if err != nil {
		return SignInResult{}, fmt.Errorf("two-factor sign in: %w", err)
	}
	if !ok {
		return SignInResult{}, errChallenge
	}
	if ok, err := s.useSecondFactor(ctx, userID, req.Code, now); err != nil {
		return SignInResult{}, fmt.Errorf("two-factor sign in: %w", err)
	} else if !ok {
		return SignInResult{}, errCode
	}
	// The challenge is single use: of two racing requests, one wins.
	if ok, err := s.store.DeleteChallenge(ctx, challenge); err != nil {
		return SignInResult{}, fmt.Errorf("two-factor sign in: %w", err)
	} else if !ok {
		return SignInResult{}, errChallenge
	}
	u, err := s.userByID(ctx, userID)
	if err != nil {
		return SignInResult{}, fmt.Errorf("two-factor sign in: %w", err)
	}
	ns, err := s.startSession(ctx, userID, req.UserAgent, req.IP, now)
	if err != nil {
		return SignInResult{}, fmt.Errorf("two-factor sign in: %w", err)
	}
	return SignInResult{User: u, Session: ns}, nil
}

func (s *Service) startSession(ctx context.Context, userID int64, userAgent, ip string, now time.Time) (NewSession, error) {
	ns := NewSession{Secret: randomHex(32), ExpiresAt: now.Add(SessionTTL)}
	ns.CSRFToken = csrfToken(ns.Secret)
	_, err := s.store.AddSession(ctx, hash(ns.Secret), store.Session{
		UserID: userID, CreatedAt: now, LastSeenAt: now, ExpiresAt: ns.ExpiresAt, UserAgent: printable(userAgent, 255), IP: ip,
	})
	if err != nil {
		return NewSession{}, fmt.Errorf("start session: %w", err)
	}
	return ns, nil
}

// SetCookie puts a new session in the response: HttpOnly so scripts cannot
// read it, SameSite=Lax so other sites cannot post with it, and Secure when
// the node's origin is https (TLS here, or the configured public URL).
func SetCookie(w http.ResponseWriter, r *http.Request, ns NewSession) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: ns.Secret, Path: "/", Expires: ns.ExpiresAt, MaxAge: int(SessionTTL / time.Second),
		HttpOnly: true, Secure: OriginOf(r).Scheme == "https", SameSite: http.SameSiteLaxMode,
	})
}

// ClearCookie tells the browser to drop the session cookie.
func ClearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: OriginOf(r).Scheme == "https", SameSite: http.SameSiteLaxMode,
	})
}

// Logout ends the session the identity signed in with, if it is one.
func (s *Service) Logout(ctx context.Context, id *Identity) error {
	if id == nil || id.SessionID == 0 {
		return nil
	}
	if _, err := s.store.DeleteSession(ctx, id.User.ID, id.SessionID); err != nil {
		return fmt.Errorf("log out: %w", err)
	}
	return nil
}

// SessionInfo describes one signed-in browser.
type SessionInfo struct {
	ID         int64
	Current    bool
	CreatedAt  time.Time
	LastSeenAt time.Time
	UserAgent  string
	IP         string
}

// Sessions lists the user's live sessions, marking the one of id.
func (s *Service) Sessions(ctx context.Context, id *Identity) ([]SessionInfo, error) {
	list, err := s.store.SessionsOf(ctx, id.User.ID, s.now())
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out := make([]SessionInfo, len(list))
	for i, se := range list {
		out[i] = SessionInfo{ID: se.ID, Current: se.ID == id.SessionID, CreatedAt: se.CreatedAt, LastSeenAt: se.LastSeenAt, UserAgent: se.UserAgent, IP: se.IP}
	}
	return out, nil
}

// RevokeSession ends one of the user's sessions.
func (s *Service) RevokeSession(ctx context.Context, u User, sessionID int64) error {
	ok, err := s.store.DeleteSession(ctx, u.ID, sessionID)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	if !ok {
		return usererr.Missingf("You have no session with that id.")
	}
	return nil
}

// identifySession resolves a session cookie's value; nil when it names no
// live session.
func (s *Service) identifySession(ctx context.Context, secret string) (*Identity, error) {
	now := s.now()
	se, ok, err := s.store.SessionByHash(ctx, hash(secret), now)
	if err != nil || !ok {
		return nil, err
	}
	if now.Sub(se.LastSeenAt) > touchEvery {
		if err := s.store.TouchSession(ctx, se.ID, now); err != nil {
			s.log.WarnContext(ctx, "could not record session use", "err", err)
		}
	}
	u, err := s.userByID(ctx, se.UserID)
	if err != nil {
		return nil, fmt.Errorf("resolve session: %w", err)
	}
	return &Identity{User: u, SessionID: se.ID, CSRFToken: csrfToken(secret), Scope: ScopeAdmin, secret: secret}, nil
}
