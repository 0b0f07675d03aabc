package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/tenancy"
)

// CreateChallenge stores an MFA challenge.
func (s *AuthStore) CreateChallenge(ctx context.Context, c auth.Challenge) error {
	return s.db.inTenant(ctx, c.TenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into mfa_challenges (id, tenant_id, user_id, token_hash, use_cookies, expires_at, created_at)
			values ($1, $2, $3, $4, $5, $6, $7)`, c.ID, string(c.TenantID), c.UserID, c.Hash, c.UseCookies, c.ExpiresAt, s.db.now())
		return err
	})
}

// UpdateChallenge locks a challenge and the user's credentials, applies fn and saves both.
func (s *AuthStore) UpdateChallenge(ctx context.Context, tenantID tenancy.TenantID, hash []byte,
	fn func(*auth.Challenge, *auth.Credentials) (auth.ChallengeOutcome, error)) (auth.Challenge, error) {
	var c auth.Challenge
	var outErr error
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var pending, totp *string
		var cr auth.Credentials
		err := tx.QueryRow(ctx, `select c.id, c.user_id, c.pending_secret, c.use_cookies, c.attempts, c.expires_at, c.used_at,
				u.password_hash, u.totp_secret, u.totp_last_step
			from mfa_challenges c join users u on u.id = c.user_id and u.tenant_id = c.tenant_id
			where c.tenant_id = $1 and c.token_hash = $2 for update of c, u`, string(tenantID), hash).
			Scan(&c.ID, &c.UserID, &pending, &c.UseCookies, &c.Attempts, &c.ExpiresAt, &c.UsedAt, &cr.PasswordHash, &totp, &cr.TOTPLastStep)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.New(apperr.Unauthenticated, "MFA challenge is invalid, expired or already used")
		} else if err != nil {
			return err
		}
		c.TenantID, c.Hash = tenantID, hash
		if c.PendingSecret, err = s.db.seal.openText(tenantID, deref(pending)); err != nil {
			return err
		}
		if cr.TOTPSecret, err = s.db.seal.openText(tenantID, deref(totp)); err != nil {
			return err
		}
		lastStep := cr.TOTPLastStep
		out, err := fn(&c, &cr)
		if err != nil {
			return err
		}
		if cr.TOTPLastStep != lastStep {
			if _, err := tx.Exec(ctx, "update users set totp_last_step = $3 where tenant_id = $1 and id = $2",
				string(tenantID), c.UserID, cr.TOTPLastStep); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `update mfa_challenges set pending_secret = $2, attempts = $3, used_at = $4 where id = $1`,
			c.ID, nullIfEmpty(s.db.seal.sealText(tenantID, c.PendingSecret)), c.Attempts, c.UsedAt); err != nil {
			return err
		}
		if out.EnrolSecret != "" {
			if _, err := tx.Exec(ctx, "update users set totp_secret = $3, updated_at = $4 where tenant_id = $1 and id = $2",
				string(tenantID), c.UserID, s.db.seal.sealText(tenantID, out.EnrolSecret), s.db.now()); err != nil {
				return err
			}
		}
		if err := insertAudit(ctx, tx, out.Audit, s.db.now()); err != nil {
			return err
		}
		outErr = out.Err
		return nil
	})
	if err != nil {
		return c, err
	}
	return c, outErr
}
