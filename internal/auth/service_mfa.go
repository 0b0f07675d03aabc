package auth

import (
	"crypto/subtle"
	"time"

	"context"

	"github.com/google/uuid"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
)

func (s *Service) startChallenge(ctx context.Context, u User, creds Credentials, useCookies bool) (LoginResult, error) {
	token, hash := NewOpaque(PrefixMFA, u.TenantID)
	c := Challenge{ID: uuid.NewString(), TenantID: u.TenantID, UserID: u.ID, Hash: hash, UseCookies: useCookies,
		ExpiresAt: s.now().Add(ChallengeTTL)}
	if err := s.store.CreateChallenge(ctx, c); err != nil {
		return LoginResult{}, err
	}
	if creds.TOTPSecret == "" {
		return LoginResult{MFASetupRequired: true, TempToken: token}, nil
	}
	return LoginResult{MFARequired: true, TempToken: token}, nil
}

var errChallenge = apperr.New(apperr.Unauthenticated, "MFA challenge is invalid, expired or already used")

// SetupMFA starts enrolment for the user of a challenge: it returns a new TOTP secret that
// becomes the user's once VerifyMFA accepts a code for it. Codes: UNAUTHENTICATED, CONFLICT.
func (s *Service) SetupMFA(ctx context.Context, tempToken string) (secret, otpauthURL string, err error) {
	tenantID, ok := ParseOpaque(PrefixMFA, tempToken)
	if !ok {
		return "", "", errChallenge
	}
	t, err := s.store.GetTenant(ctx, tenantID)
	if err != nil {
		return "", "", err
	}
	var key *otp.Key
	_, err = s.store.UpdateChallenge(ctx, tenantID, HashOpaque(tempToken), func(c *Challenge, cr *Credentials) (ChallengeOutcome, error) {
		if c.UsedAt != nil || !s.now().Before(c.ExpiresAt) {
			return ChallengeOutcome{}, errChallenge
		}
		if cr.TOTPSecret != "" {
			return ChallengeOutcome{}, apperr.New(apperr.Conflict, "MFA is already enrolled; send a code to /auth/mfa/verify")
		}
		u, err := s.store.GetUser(ctx, tenantID, c.UserID)
		if err != nil {
			return ChallengeOutcome{}, err
		}
		key, err = totp.Generate(totp.GenerateOpts{Issuer: "complyd (" + t.Name + ")", AccountName: u.Email})
		if err != nil {
			return ChallengeOutcome{}, err
		}
		c.PendingSecret = key.Secret()
		return ChallengeOutcome{}, nil
	})
	if err != nil {
		return "", "", err
	}
	return key.Secret(), key.URL(), nil
}

// VerifyMFAParams are the inputs of VerifyMFA.
type VerifyMFAParams struct {
	TempToken string
	Code      string
	IP        string
	RequestID string
}

// VerifyMFA completes an MFA login. A wrong code is INVALID_CREDENTIALS and counts against the
// challenge (MaxChallengeAttempts); an unknown, used or expired tempToken is UNAUTHENTICATED.
// useCookies reports the form the login asked for.
func (s *Service) VerifyMFA(ctx context.Context, p VerifyMFAParams) (t Tokens, useCookies bool, err error) {
	tenantID, ok := ParseOpaque(PrefixMFA, p.TempToken)
	if !ok {
		return Tokens{}, false, errChallenge
	}
	var userID string
	ch, err := s.store.UpdateChallenge(ctx, tenantID, HashOpaque(p.TempToken), func(c *Challenge, cr *Credentials) (ChallengeOutcome, error) {
		if c.UsedAt != nil || !s.now().Before(c.ExpiresAt) || c.Attempts >= MaxChallengeAttempts {
			return ChallengeOutcome{}, errChallenge
		}
		secret, enrol := cr.TOTPSecret, false
		if secret == "" {
			if c.PendingSecret == "" {
				return ChallengeOutcome{}, apperr.New(apperr.Validation, "MFA is not enrolled; call /auth/mfa/setup first")
			}
			secret, enrol = c.PendingSecret, true
		}
		step, valid := totpStep(p.Code, secret, s.now())
		if valid && step <= cr.TOTPLastStep {
			valid = false // replayed: this code, or a later one, was already accepted
		}
		if !valid {
			c.Attempts++
			return ChallengeOutcome{Err: apperr.New(apperr.InvalidCredentials, "invalid MFA code")}, nil
		}
		cr.TOTPLastStep = step
		now := s.now()
		c.UsedAt = &now
		userID = c.UserID
		out := ChallengeOutcome{}
		if enrol {
			out.EnrolSecret = secret
			out.Audit = audit.Event{TenantID: tenantID, Actor: audit.Actor{ID: c.UserID, Type: audit.ActorUser, IP: p.IP, RequestID: p.RequestID},
				Action: "auth.mfa_enrolled", ResourceType: "user", ResourceID: c.UserID}
		}
		return out, nil
	})
	if err != nil {
		return Tokens{}, false, err
	}
	u, err := s.store.GetUser(ctx, tenantID, userID)
	if err != nil {
		return Tokens{}, false, err
	}
	if !u.IsActive {
		return Tokens{}, false, apperr.New(apperr.AccountDisabled, "this account is deactivated")
	}
	actor := audit.Actor{ID: u.ID, Type: audit.ActorUser, IP: p.IP, RequestID: p.RequestID}
	t, err = s.startSession(ctx, u, actor, "auth.login")
	return t, ch.UseCookies, err
}

// totpPeriod is the TOTP time step (RFC 6238's default, which authenticator apps use).
const totpPeriod = 30

// totpStep checks code against secret at now, allowing one step of clock skew either way, and
// returns the time step it belongs to, so that the caller can refuse its reuse.
func totpStep(code, secret string, now time.Time) (int64, bool) {
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	cur := now.Unix() / totpPeriod
	for _, step := range []int64{cur, cur - 1, cur + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), opts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}
