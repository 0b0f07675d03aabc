package postgres

import (
	"fmt"

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
// numbers there until applicationstore.SealKYCIdentifiers moves them (run by `complyd migrate`, `serve` and
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
