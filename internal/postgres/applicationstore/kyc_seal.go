package applicationstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// The sealing of the BVNs and NINs that rows written before migration 0011 hold in clear
// (internal/postgres kyc_pii.go has the scheme: sealed and hashed columns, bound to the row).

// SealKYCIdentifiers seals the BVNs and NINs that KYC applications written before migration 0011
// still hold in clear, and empties the plaintext columns; it returns how many applications it
// sealed. SQL cannot do it (the key is not in the database), so `complyd migrate`, `serve` and
// `dev` run it after the migrations. It works tenant by tenant, in chunks of one transaction
// each (rows locked FOR UPDATE, so a concurrent edit waits), and is idempotent: a run with nothing left
// reads one empty partial index per tenant (kyc_applications_plaintext_idx).
func SealKYCIdentifiers(ctx context.Context, db *postgres.DB) (int, error) {
	tenants, err := db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, t := range tenants {
		n, err := SealTenantKYCIdentifiers(ctx, db, t)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// sealChunk bounds the applications SealTenantKYCIdentifiers seals in one transaction.
const sealChunk = 1000

// SealTenantKYCIdentifiers is SealKYCIdentifiers for one tenant: chunks of applications, each
// locked, sealed and written in one transaction and one UPDATE, until none is left in clear.
func SealTenantKYCIdentifiers(ctx context.Context, db *postgres.DB, tenantID tenancy.TenantID) (int, error) {
	t := string(tenantID)
	total := 0
	for {
		n := 0
		err := db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `select id, bvn, nin from kyc_applications
				where tenant_id = $1 and (bvn <> '' or nin <> '') limit $2 for update`, t, sealChunk)
			if err != nil {
				return err
			}
			type plain struct{ ID, BVN, NIN string }
			apps, err := pgx.CollectRows(rows, pgx.RowToStructByPos[plain])
			if err != nil || len(apps) == 0 {
				return err
			}
			ids := make([]string, len(apps))
			bs, bh, ns, nh := make([][]byte, len(apps)), make([][]byte, len(apps)), make([][]byte, len(apps)), make([][]byte, len(apps))
			for i, p := range apps {
				vals := map[string]any{}
				db.SealKYCColumns(vals, kyc.Application{Base: application.Base{ID: p.ID, TenantID: t}, BVN: p.BVN, NIN: p.NIN})
				ids[i] = p.ID
				bs[i], bh[i] = vals["bvn_sealed"].([]byte), vals["bvn_hash"].([]byte)
				ns[i], nh[i] = vals["nin_sealed"].([]byte), vals["nin_hash"].([]byte)
			}
			if _, err := tx.Exec(ctx, `update kyc_applications a set bvn = '', nin = '', bvn_sealed = u.bs, bvn_hash = u.bh,
				nin_sealed = u.ns, nin_hash = u.nh
				from unnest($2::text[], $3::bytea[], $4::bytea[], $5::bytea[], $6::bytea[]) as u(id, bs, bh, ns, nh)
				where a.tenant_id = $1 and a.id = u.id`, t, ids, bs, bh, ns, nh); err != nil {
				return fmt.Errorf("seal KYC applications: %w", err)
			}
			n = len(apps)
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("seal KYC identifiers of tenant %s: %w", t, err)
		}
		total += n
		if n < sealChunk {
			return total, nil
		}
	}
}
