package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/tenancy"
)

// BVNs and NINs of KYC applicants are personal data the service must read back (the API returns
// them, docs/reference/specification.md 2.5; re-screening keys false positives by them) and must find by
// equality (screening's stored-KYC lookup by the sender's BVN). So each is stored twice, never in
// clear (docs/guide/kyc.md, NDPA 2023):
//
//   - <col>_sealed: AES-256-GCM under the credentials key (sealer.go), bound to the tenant, the
//     column and the application id;
//   - <col>_hash: the keyed lookup hash (sealer.lookupHash), indexed, which equality queries use
//     without opening any row.
//
// The old text columns bvn and nin stay empty; rows written before migration 0011 hold their
// numbers there until SealKYCIdentifiers moves them (run by `complyd migrate`, `serve` and
// `dev` before anything else). Until then such a row is still read correctly, but is not found
// by a hash lookup.

// kycAD is the additional data that binds a sealed identifier to its tenant, column and row.
func kycAD(tenantID, id, column string) []byte {
	return []byte(tenantID + "\x00kyc_applications." + column + "\x00" + id)
}

// sealKYCIdentifiers sets the sealed and hashed columns of a's BVN and NIN in vals, and empties
// the plaintext columns.
func (db *DB) sealKYCIdentifiers(vals map[string]any, a kyc.Application) {
	t := tenancy.TenantID(a.TenantID)
	vals["bvn"], vals["nin"] = "", ""
	vals["bvn_sealed"] = db.seal.sealBound(kycAD(a.TenantID, a.ID, "bvn"), a.BVN)
	vals["bvn_hash"] = db.seal.lookupHash("bvn", t, a.BVN)
	vals["nin_sealed"] = db.seal.sealBound(kycAD(a.TenantID, a.ID, "nin"), a.NIN)
	vals["nin_hash"] = db.seal.lookupHash("nin", t, a.NIN)
}

// openKYCIdentifier returns the identifier of column: the sealed value, else the legacy
// plaintext of a row not yet sealed.
func (db *DB) openKYCIdentifier(tenantID, id, column string, sealed []byte, legacy string) (string, error) {
	if len(sealed) == 0 {
		return legacy, nil
	}
	v, err := db.seal.openBound(kycAD(tenantID, id, column), sealed)
	if err != nil {
		return "", fmt.Errorf("KYC application %s %s: %w", id, column, err)
	}
	return v, nil
}

// kycBVNHash is the lookup hash of a sender's BVN for screening's stored-KYC lookup.
func (db *DB) kycBVNHash(tenantID tenancy.TenantID, bvn string) []byte {
	return db.seal.lookupHash("bvn", tenantID, bvn)
}

// SealKYCIdentifiers seals the BVNs and NINs that KYC applications written before migration 0011
// still hold in clear, and empties the plaintext columns; it returns how many applications it
// sealed. SQL cannot do it (the key is not in the database), so `complyd migrate`, `serve` and
// `dev` run it after the migrations. It works tenant by tenant, in chunks of one transaction
// each (rows locked FOR UPDATE, so a concurrent edit waits), and is idempotent: a run with nothing left
// reads one empty partial index per tenant (kyc_applications_plaintext_idx).
func (db *DB) SealKYCIdentifiers(ctx context.Context) (int, error) {
	tenants, err := db.tenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, t := range tenants {
		n, err := db.SealTenantKYCIdentifiers(ctx, t)
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
func (db *DB) SealTenantKYCIdentifiers(ctx context.Context, tenantID tenancy.TenantID) (int, error) {
	t := string(tenantID)
	total := 0
	for {
		n := 0
		err := db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
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
				db.sealKYCIdentifiers(vals, kyc.Application{Base: application.Base{ID: p.ID, TenantID: t}, BVN: p.BVN, NIN: p.NIN})
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
