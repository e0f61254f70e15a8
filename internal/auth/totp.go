package auth

import (
	"context"
	"crypto/subtle"
	"fmt"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/dforge/dforge/internal/usererr"
)

// TOTP parameters every authenticator app supports.
const (
	totpPeriod        = 30
	totpIssuer        = "dForge"
	recoveryCodeCount = 10
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// TwoFactorStatus is whether TOTP is on, and how many recovery codes are unused.
type TwoFactorStatus struct {
	Enabled           bool
	RecoveryCodesLeft int
}

// TwoFactor reports u's two-factor status.
func (s *Service) TwoFactor(ctx context.Context, u User) (TwoFactorStatus, error) {
	if !u.TwoFactor {
		return TwoFactorStatus{}, nil
	}
	left, err := s.store.RecoveryCodesLeft(ctx, u.ID)
	if err != nil {
		return TwoFactorStatus{}, fmt.Errorf("two-factor status: %w", err)
	}
	return TwoFactorStatus{Enabled: true, RecoveryCodesLeft: left}, nil
}

var errAlreadyOn = usererr.Clashf("twofactor_already_enabled", "Two-factor authentication is already on. Turn it off first to set up a new authenticator.")

// TOTPSetup is a new secret for the user's authenticator app.
type TOTPSetup struct {
	Secret     string // base32, for typing in
	OTPAuthURL string // otpauth://totp/..., for a QR code
}

// SetupTOTP makes a new secret for u. It does nothing until EnableTOTP
// confirms it with a code, so a setup abandoned half way locks nobody out.
func (s *Service) SetupTOTP(ctx context.Context, u User) (TOTPSetup, error) {
	if u.TwoFactor {
		return TOTPSetup{}, errAlreadyOn
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: u.Username, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return TOTPSetup{}, fmt.Errorf("generate totp secret: %w", err)
	}
	stored, err := s.store.SetPendingTOTP(ctx, u.ID, key.Secret(), s.now())
	if err != nil {
		return TOTPSetup{}, fmt.Errorf("set up totp: %w", err)
	}
	if !stored {
		return TOTPSetup{}, errAlreadyOn
	}
	return TOTPSetup{Secret: key.Secret(), OTPAuthURL: key.URL()}, nil
}

func errBadCode() error {
	return unprocessable("code", "twofactor_invalid_code", "That code is not right, or it was already used. Enter the current code from your authenticator app.")
}

// EnableTOTP turns two-factor authentication on once code proves the app
// holds the secret from SetupTOTP, and returns fresh recovery codes, shown once.
func (s *Service) EnableTOTP(ctx context.Context, u User, code string) ([]string, error) {
	t, ok, err := s.store.TOTPOf(ctx, u.ID)
	if err != nil {
		return nil, fmt.Errorf("enable totp: %w", err)
	}
	if ok && t.Enabled {
		return nil, errAlreadyOn
	}
	if !ok {
		return nil, usererr.Clashf("twofactor_not_set_up", "Set up your authenticator app first, then enter its code.")
	}
	step, ok := matchTOTP(t.Secret, code, s.now())
	if !ok {
		return nil, errBadCode()
	}
	codes := make([]string, recoveryCodeCount)
	hashes := make([]string, recoveryCodeCount)
	for i := range codes {
		raw := randomHex(5)
		codes[i] = raw[:5] + "-" + raw[5:]
		hashes[i] = hash(raw)
	}
	if ok, err := s.store.EnableTOTP(ctx, u.ID, step, hashes); err != nil {
		return nil, fmt.Errorf("enable totp: %w", err)
	} else if !ok {
		return nil, errBadCode()
	}
	return codes, nil
}

// DisableTOTP turns two-factor authentication off; it takes a current TOTP
// code or a recovery code, so a stolen session alone cannot do it.
func (s *Service) DisableTOTP(ctx context.Context, u User, code string) error {
	if !u.TwoFactor {
		return usererr.Clashf("twofactor_not_enabled", "Two-factor authentication is not on.")
	}
	ok, err := s.useSecondFactor(ctx, u.ID, code, s.now())
	if err != nil {
		return fmt.Errorf("disable totp: %w", err)
	}
	if !ok {
		return errBadCode()
	}
	if err := s.store.DisableTOTP(ctx, u.ID); err != nil {
		return fmt.Errorf("disable totp: %w", err)
	}
	return nil
}

// useSecondFactor accepts a TOTP code whose time step is later than the last
// one accepted, or an unused recovery code, and uses it up.
func (s *Service) useSecondFactor(ctx context.Context, userID int64, code string, now time.Time) (bool, error) {
	code = strings.Join(strings.Fields(code), "")
	t, ok, err := s.store.TOTPOf(ctx, userID)
	if err != nil || !ok || !t.Enabled {
		return false, err
	}
	if len(code) == int(otp.DigitsSix) && isDigits(code) {
		step, ok := matchTOTP(t.Secret, code, now)
		if !ok {
			return false, nil
		}
		return s.store.UseTOTPStep(ctx, userID, step)
	}
	raw := strings.ToLower(strings.ReplaceAll(code, "-", ""))
	if len(raw) != 10 || !isHex(raw) {
		return false, nil
	}
	return s.store.UseRecoveryCode(ctx, userID, hash(raw), now)
}

// matchTOTP returns the time step (now's, or one either side for clock
// drift) whose code is code.
func matchTOTP(secret, code string, now time.Time) (int64, bool) {
	current := now.Unix() / totpPeriod
	for _, step := range []int64{current - 1, current, current + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}
