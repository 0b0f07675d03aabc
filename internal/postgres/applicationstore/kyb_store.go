package applicationstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// KYBStore implements kyb.Store, screening's KYBStore port (StoredKYB) and the
// KYB half of the re-screening subjects (KYBSubjects).
type KYBStore struct{ db *postgres.DB }

// NewKYBStore returns the KYB store over db.
func NewKYBStore(db *postgres.DB) *KYBStore { return &KYBStore{db: db} }

var _ kyb.Store = (*KYBStore)(nil)

const kybColumns = `id, tenant_id::text AS tenant_id, company_name, rc_number, tin, address, incorporation_date, business_activity,
	operating_country, status, risk_level, directors, beneficial_owners, cac_verified, directors_verified, owners_clean, company,
	profile_id, assigned_to::text AS assigned_to, notes, created_by::text AS created_by, created_at, updated_at, customer_id`

type kybRow struct {
	baseRow
	CompanyName       string     `db:"company_name"`
	RCNumber          string     `db:"rc_number"`
	TIN               string     `db:"tin"`
	Address           string     `db:"address"`
	IncorporationDate *time.Time `db:"incorporation_date"`
	BusinessActivity  string     `db:"business_activity"`
	OperatingCountry  string     `db:"operating_country"`
	Directors         []byte     `db:"directors"`
	Owners            []byte     `db:"beneficial_owners"`
	CACVerified       bool       `db:"cac_verified"`
	DirectorsVerified bool       `db:"directors_verified"`
	OwnersClean       bool       `db:"owners_clean"`
	Company           []byte     `db:"company"`
	ProfileID         *string    `db:"profile_id"`
}

func toKYB(r kybRow) (kyb.Application, error) {
	a := kyb.Application{Base: r.base(), CompanyName: r.CompanyName, RCNumber: r.RCNumber, TIN: r.TIN,
		Address: r.Address, IncorporationDate: r.IncorporationDate, BusinessActivity: r.BusinessActivity,
		OperatingCountry: r.OperatingCountry, CACVerified: r.CACVerified,
		DirectorsVerified: r.DirectorsVerified, OwnersClean: r.OwnersClean, ProfileID: postgres.Deref(r.ProfileID),
		Directors: []kyb.Director{}, Owners: []kyb.Owner{}}
	if err := json.Unmarshal(r.Directors, &a.Directors); err != nil {
		return a, fmt.Errorf("decode directors: %w", err)
	}
	if err := json.Unmarshal(r.Owners, &a.Owners); err != nil {
		return a, fmt.Errorf("decode beneficial owners: %w", err)
	}
	if len(r.Company) > 0 && string(r.Company) != "null" {
		a.Company = &identity.Company{}
		if err := json.Unmarshal(r.Company, a.Company); err != nil {
			return a, fmt.Errorf("decode company: %w", err)
		}
	}
	return a, nil
}

// kybValues are a's columns (with insert also those written once).
func kybValues(a kyb.Application, insert bool) (map[string]any, error) {
	dirs, err := json.Marshal(orEmpty(a.Directors))
	if err != nil {
		return nil, err
	}
	owners, err := json.Marshal(orEmpty(a.Owners))
	if err != nil {
		return nil, err
	}
	var company []byte
	if a.Company != nil {
		if company, err = json.Marshal(a.Company); err != nil {
			return nil, err
		}
	}
	return setBaseValues(map[string]any{
		"company_name": a.CompanyName, "rc_number": a.RCNumber, "rc_key": identity.NormalizeRC(a.RCNumber), "tin": a.TIN,
		"address": a.Address, "incorporation_date": a.IncorporationDate, "business_activity": a.BusinessActivity,
		"operating_country": a.OperatingCountry,
		"directors":         string(dirs), "beneficial_owners": string(owners), "cac_verified": a.CACVerified,
		"directors_verified": a.DirectorsVerified, "owners_clean": a.OwnersClean, "company": postgres.NullIfEmpty(string(company)),
		"profile_id": postgres.NullIfEmpty(a.ProfileID),
	}, a.Base, insert), nil
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func getKYB(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (kyb.Application, error) {
	return selectApplication(ctx, tx, kybTable, kybColumns, tenantID, id, lock, toKYB)
}

// Create implements kyb.Store.
func (s *KYBStore) Create(ctx context.Context, a kyb.Application, ev audit.Event) error {
	vals, err := kybValues(a, true)
	if err != nil {
		return err
	}
	return insertApplication(ctx, s.db, kybTable, tenancy.TenantID(a.TenantID), vals, kyb.StatusChangedData("", a), ev)
}

// Get implements kyb.Store.
func (s *KYBStore) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (kyb.Application, error) {
	return readApplication(ctx, s.db, tenantID, func(tx pgx.Tx) (kyb.Application, error) {
		return getKYB(ctx, tx, tenantID, id, false)
	})
}

type kybCheckRow struct {
	ID             string    `db:"id"`
	ApplicationID  string    `db:"application_id"`
	CheckType      string    `db:"check_type"`
	Subject        string    `db:"subject"`
	Passed         bool      `db:"passed"`
	Confidence     float64   `db:"confidence"`
	Provider       string    `db:"provider"`
	ProviderSource string    `db:"provider_source"`
	Detail         []byte    `db:"detail"`
	Charged        string    `db:"charged"`
	CheckedAt      time.Time `db:"checked_at"`
}

// Detail implements kyb.Store.
func (s *KYBStore) Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (kyb.Detail, error) {
	var d kyb.Detail
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		a, err := getKYB(ctx, tx, tenantID, id, false)
		if err != nil {
			return err
		}
		d.Application = a
		rows, err := postgres.Collect[kybCheckRow](ctx, tx, postgres.Psql.Select("id", "application_id", "check_type", "subject", "passed", "confidence",
			"provider", "provider_source", "detail", "charged::text AS charged", "checked_at").From("kyb_checks").
			Where(sq.Eq{"tenant_id": string(tenantID), "application_id": id}).OrderBy("checked_at", "id"))
		if err != nil {
			return err
		}
		d.Checks = make([]kyb.Check, 0, len(rows))
		for _, r := range rows {
			c := kyb.Check{ID: r.ID, ApplicationID: r.ApplicationID, Type: r.CheckType, Subject: r.Subject, Passed: r.Passed,
				Confidence: r.Confidence, Provider: r.Provider, ProviderSource: r.ProviderSource, Charged: postgres.Dec(r.Charged), CheckedAt: r.CheckedAt}
			if len(r.Detail) > 0 {
				_ = json.Unmarshal(r.Detail, &c.Detail)
			}
			d.Checks = append(d.Checks, c)
		}
		d.Documents, d.Evidence, err = detailRecords(ctx, tx, kybTable, tenantID, id)
		return err
	})
	return d, err
}

// List implements kyb.Store.
func (s *KYBStore) List(ctx context.Context, tenantID tenancy.TenantID, f kyb.ListParams, p paging.Params) (res paging.Result[kyb.Application], err error) {
	err = s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		res, err = listApplications(ctx, tx, kybTable, kybColumns, tenantID, f, p, toKYB)
		return err
	})
	return res, err
}

func insertKYBCheck(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, c kyb.Check) error {
	var detail []byte
	if c.Detail != nil {
		var err error
		if detail, err = json.Marshal(c.Detail); err != nil {
			return fmt.Errorf("encode check detail: %w", err)
		}
	}
	_, err := tx.Exec(ctx, `insert into kyb_checks (id, tenant_id, application_id, check_type, subject, passed, confidence, provider,
		provider_source, detail, charged, checked_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12)`,
		c.ID, string(tenantID), c.ApplicationID, c.Type, c.Subject, c.Passed, c.Confidence, c.Provider, c.ProviderSource,
		detail, c.Charged.String(), c.CheckedAt)
	if err != nil {
		return fmt.Errorf("insert kyb check: %w", err)
	}
	return nil
}

// Update implements kyb.Store.
func (s *KYBStore) Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*kyb.Application) (kyb.Change, error)) (kyb.Application, error) {
	lockRow := func(tx pgx.Tx) (kyb.Application, error) { return getKYB(ctx, tx, tenantID, id, true) }
	return updateApplication(ctx, s.db, tenantID, lockRow, fn, func(tx pgx.Tx, prev string, a *kyb.Application, ch kyb.Change) error {
		if err := settleChange(ctx, s.db, tx, ch.Change); err != nil {
			return err
		}
		vals, err := kybValues(*a, false)
		if err != nil {
			return err
		}
		if err := postgres.Exec(ctx, tx, postgres.Psql.Update("kyb_applications").SetMap(vals).Where(sq.Eq{"tenant_id": string(tenantID), "id": id})); err != nil {
			return err
		}
		for _, c := range ch.Checks {
			if err := insertKYBCheck(ctx, tx, tenantID, c); err != nil {
				return err
			}
		}
		if err := writeChange(ctx, s.db, tx, kybTable, tenantID, id, ch.Change); err != nil {
			return err
		}
		return finishChange(ctx, s.db, tx, kybTable, tenantID, prev, a.Status,
			func() map[string]any { return kyb.StatusChangedData(prev, *a) },
			func() (err error) { a.CustomerID, err = linkKYBCustomer(ctx, tx, tenantID, *a, s.db.Now()); return err },
			ch.Audit)
	})
}

// AddCheck implements kyb.Store: the paid check and its charge commit together.
func (s *KYBStore) AddCheck(ctx context.Context, tenantID tenancy.TenantID, c kyb.Check, h wallet.Hold, description string) error {
	return s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getKYB(ctx, tx, tenantID, c.ApplicationID, false); err != nil {
			return err
		}
		if _, err := s.db.SettleHold(ctx, tx, h, description); err != nil {
			return err
		}
		return insertKYBCheck(ctx, tx, tenantID, c)
	})
}

// Document implements kyb.Store.
func (s *KYBStore) Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error) {
	return applicationDocument(ctx, s.db, kybTable, tenantID, applicationID, docID)
}

// Documents implements kyb.Store.
func (s *KYBStore) Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error) {
	return applicationDocuments(ctx, s.db, kybTable, tenantID, applicationID, func(tx pgx.Tx) error {
		_, err := getKYB(ctx, tx, tenantID, applicationID, false)
		return err
	})
}

// StoredKYB implements screening.KYBStore: the tenant's most recently
// created application for the RC number (compared without spaces and "RC" prefix) → its status
// and its beneficial owners. No application → Found false (NONE → BLOCK, spec 3.4).
func (s *KYBStore) StoredKYB(ctx context.Context, tenantID tenancy.TenantID, rcNumber string) (screening.StoredKYB, error) {
	var out screening.StoredKYB
	key := identity.NormalizeRC(rcNumber)
	if key == "" {
		return out, nil
	}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var owners []byte
		err := tx.QueryRow(ctx, `select status, beneficial_owners from kyb_applications where tenant_id = $1 and rc_key = $2
			order by created_at desc, id desc limit 1`, string(tenantID), key).Scan(&out.Status, &owners)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("stored kyb: %w", err)
		}
		var os []struct {
			Name string `json:"name"`
			BVN  string `json:"bvn"`
			NIN  string `json:"nin"`
		}
		if err := json.Unmarshal(owners, &os); err != nil {
			return fmt.Errorf("stored kyb owners: %w", err)
		}
		for _, o := range os {
			if o.Name != "" {
				out.BeneficialOwners = append(out.BeneficialOwners, screening.KYBOwner{Name: o.Name, BVN: o.BVN, NIN: o.NIN})
			}
		}
		out.Found = true
		return nil
	})
	return out, err
}
