package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/tenancy"
)

// ProviderConfigStore implements kyc.ProviderStore. The BYOL API key is sealed with the DB's
// credentials key (COMPLYD_CREDENTIALS_KEY, docs/guide/identity-providers.md), bound to its tenant.
type ProviderConfigStore struct {
	db *DB
}

// NewProviderConfigStore returns the store.
func NewProviderConfigStore(db *DB) *ProviderConfigStore { return &ProviderConfigStore{db: db} }

var _ kyc.ProviderStore = (*ProviderConfigStore)(nil)

func (s *ProviderConfigStore) seal(tenantID tenancy.TenantID, plain string) []byte {
	return s.db.seal.seal(tenantID, plain)
}

func (s *ProviderConfigStore) open(tenantID tenancy.TenantID, sealed []byte) (string, error) {
	return s.db.seal.open(tenantID, sealed)
}

// ProviderSettings implements kyc.ProviderStore.
func (s *ProviderConfigStore) ProviderSettings(ctx context.Context, tenantID tenancy.TenantID) (kyc.ProviderSettings, error) {
	var out kyc.ProviderSettings
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select kyc_trust_mode, kyc_fallback_mode, provider_mode, document_review_four_eyes,
			approval_evidence_required from tenant_settings where tenant_id = $1`,
			string(tenantID)).Scan(&out.TrustMode, &out.FallbackMode, &out.ProviderMode, &out.DocumentReviewFourEyes,
			&out.ApprovalEvidenceRequired); err != nil {
			return mapErr(err, "tenant")
		}
		var cfg []byte
		var sealed []byte
		var updated time.Time
		err := tx.QueryRow(ctx, `select config, api_key_enc, updated_at from identity_provider_configs where tenant_id = $1`,
			string(tenantID)).Scan(&cfg, &sealed, &updated)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read provider config: %w", err)
		}
		var b identity.BYOLConfig
		if err := json.Unmarshal(cfg, &b); err != nil {
			return fmt.Errorf("decode provider config: %w", err)
		}
		if b.APIKey, err = s.open(tenantID, sealed); err != nil {
			return err
		}
		out.BYOL, out.UpdatedAt = &b, &updated
		return nil
	})
	return out, err
}

// SaveProviderSettings implements kyc.ProviderStore.
func (s *ProviderConfigStore) SaveProviderSettings(ctx context.Context, tenantID tenancy.TenantID, ps kyc.ProviderSettings, ev audit.Event) error {
	now := s.db.now()
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `update tenant_settings set kyc_fallback_mode = $2, provider_mode = $3, updated_at = $4 where tenant_id = $1`,
			string(tenantID), ps.FallbackMode, ps.ProviderMode, now); err != nil {
			return fmt.Errorf("update tenant settings: %w", err)
		}
		if ps.BYOL != nil {
			b := *ps.BYOL
			sealed := s.seal(tenantID, b.APIKey)
			b.APIKey = "" // never stored in clear
			cfg, err := json.Marshal(b)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `insert into identity_provider_configs (tenant_id, config, api_key_enc, updated_at) values ($1, $2, $3, $4)
				on conflict (tenant_id) do update set config = excluded.config, api_key_enc = excluded.api_key_enc, updated_at = excluded.updated_at`,
				string(tenantID), cfg, sealed, now); err != nil {
				return fmt.Errorf("save provider config: %w", err)
			}
		}
		return insertAudit(ctx, tx, ev, now)
	})
}
