package applicationstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// KYCStore implements kyc.Store and kyc.Expirer (screening reads the stored KYC in its batched
// prefetch, ScreeningStore.Prefetch).
type KYCStore struct{ db *postgres.DB }

// NewKYCStore returns the KYC store over db.
func NewKYCStore(db *postgres.DB) *KYCStore { return &KYCStore{db: db} }

var (
	_ kyc.Store   = (*KYCStore)(nil)
	_ kyc.Expirer = (*KYCStore)(nil)
)

// The document facts are computed, so a tier never depends on a stale flag. Only VERIFIED
// documents count: an upload is a label until an officer verifies it (issue 19 point 4).
const kycColumns = `a.id, a.tenant_id::text AS tenant_id, a.entity_type, a.first_name, a.last_name, a.bvn, a.nin,
	a.bvn_sealed, a.nin_sealed, a.phone, a.email,
	a.address, a.date_of_birth, a.tier, a.status, a.bvn_verified, a.nin_verified, a.liveness_passed, a.risk_level,
	a.assigned_to::text AS assigned_to, a.notes, a.created_by::text AS created_by, a.created_at, a.updated_at, a.customer_id,
	exists (select 1 from documents d where d.tenant_id = a.tenant_id and d.owner_kind = 'KYC' and d.application_id = a.id
		and d.verification_status = 'VERIFIED'
		and d.document_type in ('PASSPORT', 'DRIVERS_LICENSE', 'VOTERS_CARD', 'NATIONAL_ID')) AS has_id_document,
	exists (select 1 from documents d where d.tenant_id = a.tenant_id and d.owner_kind = 'KYC' and d.application_id = a.id
		and d.verification_status = 'VERIFIED'
		and d.document_type in ('PROOF_OF_ADDRESS', 'UTILITY_BILL')) AS has_proof_of_address`

type kycRow struct {
	baseRow
	EntityType        string     `db:"entity_type"`
	FirstName         string     `db:"first_name"`
	LastName          string     `db:"last_name"`
	BVN               string     `db:"bvn"` // legacy plaintext (internal/postgres kyc_pii.go)
	NIN               string     `db:"nin"`
	BVNSealed         []byte     `db:"bvn_sealed"`
	NINSealed         []byte     `db:"nin_sealed"`
	Phone             string     `db:"phone"`
	Email             string     `db:"email"`
	Address           string     `db:"address"`
	DateOfBirth       *time.Time `db:"date_of_birth"`
	Tier              string     `db:"tier"`
	BVNVerified       bool       `db:"bvn_verified"`
	NINVerified       bool       `db:"nin_verified"`
	LivenessPassed    bool       `db:"liveness_passed"`
	HasIDDocument     bool       `db:"has_id_document"`
	HasProofOfAddress bool       `db:"has_proof_of_address"`
}

// toApplication converts r, opening its sealed BVN and NIN (internal/postgres kyc_pii.go).
func (s *KYCStore) toApplication(r kycRow) (kyc.Application, error) {
	bvn, err := s.db.OpenKYCIdentifier(r.TenantID, r.ID, "bvn", r.BVNSealed, r.BVN)
	if err != nil {
		return kyc.Application{}, err
	}
	nin, err := s.db.OpenKYCIdentifier(r.TenantID, r.ID, "nin", r.NINSealed, r.NIN)
	if err != nil {
		return kyc.Application{}, err
	}
	return kyc.Application{Base: r.base(), EntityType: r.EntityType, FirstName: r.FirstName, LastName: r.LastName,
		BVN: bvn, NIN: nin, Phone: r.Phone, Email: r.Email, Address: r.Address, DateOfBirth: r.DateOfBirth, Tier: r.Tier,
		BVNVerified: r.BVNVerified, NINVerified: r.NINVerified, LivenessPassed: r.LivenessPassed,
		HasIDDocument: r.HasIDDocument, HasProofOfAddress: r.HasProofOfAddress}, nil
}

func (s *KYCStore) getApplication(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (kyc.Application, error) {
	return selectApplication(ctx, tx, kycTable, kycColumns, tenantID, id, lock, s.toApplication)
}

// applicationValues are a's columns (with insert also those written once), its BVN and NIN
// sealed and hashed (internal/postgres kyc_pii.go).
func (s *KYCStore) applicationValues(a kyc.Application, insert bool) map[string]any {
	vals := setBaseValues(map[string]any{
		"entity_type": a.EntityType, "first_name": a.FirstName, "last_name": a.LastName,
		"phone": a.Phone, "email": a.Email, "address": a.Address, "date_of_birth": a.DateOfBirth, "tier": a.Tier,
		"bvn_verified": a.BVNVerified, "nin_verified": a.NINVerified, "liveness_passed": a.LivenessPassed,
	}, a.Base, insert)
	s.db.SealKYCColumns(vals, a)
	return vals
}

// Create implements kyc.Store.
func (s *KYCStore) Create(ctx context.Context, a kyc.Application, ev audit.Event) error {
	return insertApplication(ctx, s.db, kycTable, tenancy.TenantID(a.TenantID), s.applicationValues(a, true), kyc.StatusChangedData("", a), ev)
}

// Get implements kyc.Store.
func (s *KYCStore) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (kyc.Application, error) {
	return readApplication(ctx, s.db, tenantID, func(tx pgx.Tx) (kyc.Application, error) {
		return s.getApplication(ctx, tx, tenantID, id, false)
	})
}

type resultRow struct {
	ID             string    `db:"id"`
	ApplicationID  string    `db:"application_id"`
	IdentityType   string    `db:"identity_type"`
	Provider       string    `db:"provider"`
	ProviderSource string    `db:"provider_source"`
	IsMatch        bool      `db:"is_match"`
	Confidence     float64   `db:"confidence"`
	Raw            []byte    `db:"raw_response"`
	ErrorMessage   *string   `db:"error_message"`
	Charged        string    `db:"charged"`
	VerifiedAt     time.Time `db:"verified_at"`
}

// Detail implements kyc.Store.
func (s *KYCStore) Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (kyc.Detail, error) {
	var d kyc.Detail
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		a, err := s.getApplication(ctx, tx, tenantID, id, false)
		if err != nil {
			return err
		}
		d.Application = a
		rows, err := postgres.Collect[resultRow](ctx, tx, postgres.Psql.Select("id", "application_id", "identity_type", "provider", "provider_source",
			"is_match", "confidence", "raw_response", "error_message", "charged::text AS charged", "verified_at").
			From("kyc_verification_results").Where(sq.Eq{"tenant_id": string(tenantID), "application_id": id}).OrderBy("verified_at", "id"))
		if err != nil {
			return err
		}
		d.Results = make([]kyc.Result, 0, len(rows))
		for _, r := range rows {
			d.Results = append(d.Results, kyc.Result{ID: r.ID, ApplicationID: r.ApplicationID, IdentityType: identity.VerificationType(r.IdentityType),
				Provider: r.Provider, ProviderSource: r.ProviderSource, IsMatch: r.IsMatch, Confidence: r.Confidence, Raw: r.Raw,
				ErrorMessage: postgres.Deref(r.ErrorMessage), Charged: postgres.Dec(r.Charged), VerifiedAt: r.VerifiedAt})
		}
		d.Documents, d.Evidence, err = detailRecords(ctx, tx, kycTable, tenantID, id)
		return err
	})
	return d, err
}

// List implements kyc.Store.
func (s *KYCStore) List(ctx context.Context, tenantID tenancy.TenantID, f kyc.ListParams, p paging.Params) (res paging.Result[kyc.Application], err error) {
	err = s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		res, err = listApplications(ctx, tx, kycTable, kycColumns, tenantID, f, p, s.toApplication)
		return err
	})
	return res, err
}

// Update implements kyc.Store.
func (s *KYCStore) Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*kyc.Application) (kyc.Change, error)) (kyc.Application, error) {
	lockRow := func(tx pgx.Tx) (kyc.Application, error) { return s.getApplication(ctx, tx, tenantID, id, true) }
	return updateApplication(ctx, s.db, tenantID, lockRow, fn, func(tx pgx.Tx, prev string, a *kyc.Application, ch kyc.Change) (err error) {
		*a, err = s.write(ctx, tx, tenantID, id, prev, *a, ch)
		return err
	})
}

// ReviewDocument implements kyc.Store.
func (s *KYCStore) ReviewDocument(ctx context.Context, tenantID tenancy.TenantID, id, docID string,
	fn func(*kyc.Application, *document.Document, bool) (kyc.Change, error)) (kyc.Application, document.Document, error) {
	var a kyc.Application
	var d document.Document
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if a, err = s.getApplication(ctx, tx, tenantID, id, true); err != nil {
			return err
		}
		r, err := postgres.One[documentRow](ctx, tx, postgres.Psql.Select(documentColumns).From("documents").
			Where(sq.Eq{"tenant_id": string(tenantID), "owner_kind": "KYC", "application_id": id, "id": docID}).Suffix("FOR UPDATE"), "document")
		if err != nil {
			return err
		}
		d = toDocument(r)
		var fourEyes bool
		if err := tx.QueryRow(ctx, `select document_review_four_eyes from tenant_settings where tenant_id = $1`, string(tenantID)).
			Scan(&fourEyes); err != nil {
			return postgres.MapErr(err, "tenant")
		}
		prev := a.Status
		ch, err := fn(&a, &d, fourEyes)
		if err != nil {
			return err
		}
		if err := updateDocumentReview(ctx, tx, d); err != nil {
			return err
		}
		a, err = s.write(ctx, tx, tenantID, id, prev, a, ch)
		return err
	})
	return a, d, err
}

// write stores an updated application and its change in tx (Update, ReviewDocument) and
// re-reads the application so its document facts reflect the change.
func (s *KYCStore) write(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id, prev string, a kyc.Application, ch kyc.Change) (kyc.Application, error) {
	if err := settleChange(ctx, s.db, tx, ch.Change); err != nil {
		return a, err
	}
	if err := postgres.Exec(ctx, tx, postgres.Psql.Update("kyc_applications").SetMap(s.applicationValues(a, false)).
		Where(sq.Eq{"tenant_id": string(tenantID), "id": id})); err != nil {
		return a, err
	}
	for _, r := range ch.Results {
		raw := r.Raw
		if len(raw) == 0 || !json.Valid(raw) {
			raw = nil
		}
		if _, err := tx.Exec(ctx, `insert into kyc_verification_results (id, tenant_id, application_id, identity_type, provider,
			provider_source, is_match, confidence, raw_response, error_message, charged, verified_at)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12)`,
			r.ID, string(tenantID), id, string(r.IdentityType), r.Provider, r.ProviderSource, r.IsMatch, r.Confidence,
			raw, postgres.NullIfEmpty(r.ErrorMessage), r.Charged.String(), r.VerifiedAt); err != nil {
			return a, fmt.Errorf("insert verification result: %w", err)
		}
	}
	if err := writeChange(ctx, s.db, tx, kycTable, tenantID, id, ch.Change); err != nil {
		return a, err
	}
	if err := finishChange(ctx, s.db, tx, kycTable, tenantID, prev, a.Status,
		func() map[string]any { return kyc.StatusChangedData(prev, a) },
		func() error { _, err := linkKYCCustomer(ctx, tx, tenantID, a, s.db.Now()); return err },
		ch.Audit); err != nil {
		return a, err
	}
	// Re-read so the document facts reflect this change.
	return s.getApplication(ctx, tx, tenantID, id, false)
}

// ExpiryDays implements kyc.Store.
func (s *KYCStore) ExpiryDays(ctx context.Context, tenantID tenancy.TenantID) (int, error) {
	n := kyc.DefaultExpiryDays
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		return postgres.MapErr(tx.QueryRow(ctx, `select expiry_days from tenant_settings where tenant_id = $1`, string(tenantID)).Scan(&n), "tenant")
	})
	return n, err
}

// ExpireApplications implements kyc.Expirer: tenant by tenant (each in its own transaction, so
// RLS applies), the applications created more than expiry_days before now and still
// non-terminal become EXPIRED, each audited with kyc.status_changed queued.
func (s *KYCStore) ExpireApplications(ctx context.Context, now time.Time) (int, error) {
	tenants, err := s.db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, tenantID := range tenants {
		err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
			days := kyc.DefaultExpiryDays
			if err := tx.QueryRow(ctx, `select expiry_days from tenant_settings where tenant_id = $1`, string(tenantID)).Scan(&days); err != nil && err != pgx.ErrNoRows {
				return err
			}
			cutoff := now.Add(-time.Duration(days) * 24 * time.Hour)
			apps, err := postgres.Collect[kycRow](ctx, tx, postgres.Psql.Select(kycColumns).From("kyc_applications a").
				Where(sq.And{sq.Eq{"a.tenant_id": string(tenantID)}, sq.NotEq{"a.status": []string{kyc.StatusApproved, kyc.StatusRejected, kyc.StatusExpired}},
					sq.Lt{"a.created_at": cutoff}}).OrderBy("a.created_at").Suffix("FOR UPDATE OF a SKIP LOCKED"))
			if err != nil {
				return err
			}
			for _, r := range apps {
				a, err := s.toApplication(r)
				if err != nil {
					return err
				}
				prev := a.Status
				a.Status, a.UpdatedAt = kyc.StatusExpired, now
				if err := postgres.Exec(ctx, tx, postgres.Psql.Update("kyc_applications").Set("status", a.Status).Set("updated_at", now).
					Where(sq.Eq{"tenant_id": string(tenantID), "id": a.ID})); err != nil {
					return err
				}
				if err := s.db.QueueWebhook(ctx, tx, tenantID, webhook.EventKYCStatusChanged, kyc.StatusChangedData(prev, a)); err != nil {
					return err
				}
				if err := postgres.InsertAudit(ctx, tx, kyc.ExpireAudit(tenantID, a, prev), now); err != nil {
					return err
				}
				total++
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("expire applications of %s: %w", tenantID, err)
		}
	}
	return total, nil
}

// Document returns one document of a KYC application. Errors: NOT_FOUND.
func (s *KYCStore) Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error) {
	return applicationDocument(ctx, s.db, kycTable, tenantID, applicationID, docID)
}

// Documents lists a KYC application's documents, oldest first. Errors: NOT_FOUND for an unknown
// application.
func (s *KYCStore) Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error) {
	return applicationDocuments(ctx, s.db, kycTable, tenantID, applicationID, func(tx pgx.Tx) error {
		_, err := s.getApplication(ctx, tx, tenantID, applicationID, false)
		return err
	})
}
