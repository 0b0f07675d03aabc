package applicationstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// What a KYC or KYB approval rests on (internal/evidence; docs/guide/kyc.md "Evidence and
// overrides"): the application's open cases, the overrides recorded on it and the tenant's
// approval_evidence_required, shared by KYCStore and KYBStore.

// Application kinds of approval_overrides.
const (
	evidenceKindKYC = "KYC"
	evidenceKindKYB = "KYB"
)

// openApplicationCases returns the application's cases not resolved or closed, oldest first.
// KYC and KYB review cases both name their application in related_kyc_application_id.
func openApplicationCases(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, applicationID string) ([]evidence.Case, error) {
	rows, err := tx.Query(ctx, `select id, case_number, type, status, priority, title from cases
		where tenant_id = $1 and related_kyc_application_id = $2
			and status not in ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED')
		order by created_at, id`, string(tenantID), applicationID)
	if err != nil {
		return nil, fmt.Errorf("read open cases: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[evidence.Case])
	if err != nil {
		return nil, fmt.Errorf("read open cases: %w", err)
	}
	return out, nil
}

// evidenceRequired reads the tenant's approval_evidence_required.
func evidenceRequired(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID) (bool, error) {
	var on bool
	err := tx.QueryRow(ctx, `select approval_evidence_required from tenant_settings where tenant_id = $1`, string(tenantID)).Scan(&on)
	return on, postgres.MapErr(err, "tenant")
}

// insertOverride records an approval's override in the approval's transaction.
func insertOverride(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, kind, applicationID string, o evidence.Override) error {
	checks, err := json.Marshal(o.Checks)
	if err != nil {
		return fmt.Errorf("encode override checks: %w", err)
	}
	cases, err := json.Marshal(o.OpenCases)
	if err != nil {
		return fmt.Errorf("encode override cases: %w", err)
	}
	if _, err := tx.Exec(ctx, `insert into approval_overrides (id, tenant_id, application_kind, application_id, checks, open_cases,
			notes, actor_id, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		o.ID, string(tenantID), kind, applicationID, checks, cases, o.Notes, postgres.NullIfEmpty(o.ActorID), o.CreatedAt); err != nil {
		return fmt.Errorf("insert approval override: %w", err)
	}
	return nil
}

type overrideRow struct {
	ID        string    `db:"id"`
	Checks    []byte    `db:"checks"`
	OpenCases []byte    `db:"open_cases"`
	Notes     string    `db:"notes"`
	ActorID   *string   `db:"actor_id"`
	ActorName *string   `db:"actor_name"`
	CreatedAt time.Time `db:"created_at"`
}

// applicationOverrides returns the overrides recorded on the application, oldest first, with
// the approving user's name.
func applicationOverrides(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, kind, applicationID string) ([]evidence.Override, error) {
	rows, err := tx.Query(ctx, `select o.id, o.checks, o.open_cases, o.notes, o.actor_id::text as actor_id,
			nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as actor_name, o.created_at
		from approval_overrides o left join users u on u.tenant_id = o.tenant_id and u.id = o.actor_id
		where o.tenant_id = $1 and o.application_kind = $2 and o.application_id = $3 order by o.created_at, o.id`,
		string(tenantID), kind, applicationID)
	if err != nil {
		return nil, fmt.Errorf("read approval overrides: %w", err)
	}
	rs, err := pgx.CollectRows(rows, pgx.RowToStructByName[overrideRow])
	if err != nil {
		return nil, fmt.Errorf("read approval overrides: %w", err)
	}
	out := make([]evidence.Override, 0, len(rs))
	for _, r := range rs {
		o := evidence.Override{ID: r.ID, Notes: r.Notes, ActorID: postgres.Deref(r.ActorID), ActorName: postgres.Deref(r.ActorName), CreatedAt: r.CreatedAt}
		if err := json.Unmarshal(r.Checks, &o.Checks); err != nil {
			return nil, fmt.Errorf("decode override %s: %w", r.ID, err)
		}
		if err := json.Unmarshal(r.OpenCases, &o.OpenCases); err != nil {
			return nil, fmt.Errorf("decode override %s: %w", r.ID, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// applicationEvidence fills what the store knows of an application's evidence: its open cases,
// its overrides and the tenant's setting (the checks are the domain's, from the facts).
func applicationEvidence(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, kind, applicationID string) (evidence.Record, error) {
	var r evidence.Record
	var err error
	r.Checks = []evidence.Check{}
	if r.OpenCases, err = openApplicationCases(ctx, tx, tenantID, applicationID); err != nil {
		return r, err
	}
	if r.Overrides, err = applicationOverrides(ctx, tx, tenantID, kind, applicationID); err != nil {
		return r, err
	}
	r.Required, err = evidenceRequired(ctx, tx, tenantID)
	return r, err
}
