package postgres

import (
	"context"
	"crypto/subtle"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/tenancy"
)

// StartSession creates a token family and its first refresh token and stamps last_login_at.
func (s *AuthStore) StartSession(ctx context.Context, tenantID tenancy.TenantID, rt auth.RefreshToken, ev audit.Event) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "insert into token_families (id, tenant_id, user_id, created_at) values ($1, $2, $3, $4)",
			rt.FamilyID, string(tenantID), rt.UserID, now); err != nil {
			return err
		}
		if err := insertRefresh(ctx, tx, tenantID, rt, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "update users set last_login_at = $3 where tenant_id = $1 and id = $2", string(tenantID), rt.UserID, now); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, now)
	})
}

func insertRefresh(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, rt auth.RefreshToken, now time.Time) error {
	_, err := tx.Exec(ctx, `insert into refresh_tokens (id, tenant_id, family_id, user_id, token_hash, expires_at, created_at)
		values ($1, $2, $3, $4, $5, $6, $7)`, rt.ID, string(tenantID), rt.FamilyID, rt.UserID, rt.Hash, rt.ExpiresAt, now)
	return err
}

var errRefresh = apperr.New(apperr.InvalidRefreshToken, "refresh token is invalid")

// errReuse marks a detected reuse: the family revocation must commit, so it is returned after.
var errReuse = errors.New("refresh token reuse")

// RotateRefresh exchanges a refresh token for next in the same family, with reuse detection.
func (s *AuthStore) RotateRefresh(ctx context.Context, tenantID tenancy.TenantID, oldHash []byte, next auth.RefreshToken, now time.Time) (auth.User, string, error) {
	var u auth.User
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var id, familyID, userID string
		var hash []byte
		var expires time.Time
		var rotated, revoked *time.Time
		err := tx.QueryRow(ctx, `select r.id, r.family_id, r.user_id, r.token_hash, r.expires_at, r.rotated_at, f.revoked_at
			from refresh_tokens r join token_families f on f.id = r.family_id
			where r.tenant_id = $1 and r.token_hash = $2 for update of r, f`, string(tenantID), oldHash).
			Scan(&id, &familyID, &userID, &hash, &expires, &rotated, &revoked)
		if errors.Is(err, pgx.ErrNoRows) {
			return errRefresh
		} else if err != nil {
			return err
		}
		if subtle.ConstantTimeCompare(hash, oldHash) != 1 || revoked != nil || !now.Before(expires) {
			return errRefresh
		}
		if rotated != nil {
			if _, err := tx.Exec(ctx, `update token_families set revoked_at = $2, revoke_reason = 'refresh token reuse'
				where id = $1 and revoked_at is null`, familyID, now); err != nil {
				return err
			}
			if err := insertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: audit.Actor{ID: userID, Type: audit.ActorUser},
				Action: "auth.refresh_reuse_detected", ResourceType: "session", ResourceID: familyID}, now); err != nil {
				return err
			}
			return errReuse
		}
		u, err = getUser(ctx, tx, tenantID, userID, false)
		if err != nil {
			return err
		}
		if !u.IsActive {
			return errRefresh
		}
		if _, err := tx.Exec(ctx, "update refresh_tokens set rotated_at = $2 where id = $1", id, now); err != nil {
			return err
		}
		next.FamilyID, next.UserID = familyID, userID
		return insertRefresh(ctx, tx, tenantID, next, now)
	})
	if errors.Is(err, errReuse) {
		// BeginFunc rolled back; commit the revocation on its own.
		return u, "", s.revokeReused(ctx, tenantID, oldHash, now)
	}
	return u, next.FamilyID, err
}

func (s *AuthStore) revokeReused(ctx context.Context, tenantID tenancy.TenantID, hash []byte, now time.Time) error {
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var familyID, userID string
		if err := tx.QueryRow(ctx, `update token_families f set revoked_at = coalesce(f.revoked_at, $3), revoke_reason = coalesce(f.revoke_reason, 'refresh token reuse')
			from refresh_tokens r where r.family_id = f.id and r.tenant_id = $1 and r.token_hash = $2 returning f.id, f.user_id`,
			string(tenantID), hash, now).Scan(&familyID, &userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: audit.Actor{ID: userID, Type: audit.ActorUser},
			Action: "auth.refresh_reuse_detected", ResourceType: "session", ResourceID: familyID}, now)
	})
	if err != nil {
		return err
	}
	return errRefresh
}

// RevokeFamilyOf revokes the family of a refresh token.
func (s *AuthStore) RevokeFamilyOf(ctx context.Context, tenantID tenancy.TenantID, hash []byte, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var familyID, userID string
		err := tx.QueryRow(ctx, `update token_families f set revoked_at = coalesce(f.revoked_at, $3), revoke_reason = coalesce(f.revoke_reason, 'logout')
			from refresh_tokens r where r.family_id = f.id and r.tenant_id = $1 and r.token_hash = $2 returning f.id, f.user_id`,
			string(tenantID), hash, s.db.now()).Scan(&familyID, &userID)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		ev.ResourceID, ev.Actor.ID = familyID, userID
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// RevokeFamily revokes a family by id.
func (s *AuthStore) RevokeFamily(ctx context.Context, tenantID tenancy.TenantID, familyID string, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `update token_families set revoked_at = coalesce(revoked_at, $3), revoke_reason = coalesce(revoke_reason, 'logout')
			where tenant_id = $1 and id = $2`, string(tenantID), familyID, s.db.now()); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// ResolveSession returns the user of a live token family in one query.
func (s *AuthStore) ResolveSession(ctx context.Context, tenantID tenancy.TenantID, userID, familyID string) (auth.User, error) {
	var r userRow
	err := s.db.readOne(ctx, tenantID, "session", psql.Select(prefixed("u", userColumns)).From("users u").
		Join("token_families f ON f.user_id = u.id AND f.tenant_id = u.tenant_id").
		Where("u.tenant_id = ? AND u.id = ? AND f.id = ? AND f.revoked_at IS NULL AND u.is_active", string(tenantID), userID, familyID),
		func(row pgx.Row) error { return scanUser(row, &r) })
	if apperr.CodeOf(err) == apperr.NotFound {
		return auth.User{}, apperr.New(apperr.Unauthenticated, "session is revoked or the user is inactive")
	}
	return toUser(r), err
}
