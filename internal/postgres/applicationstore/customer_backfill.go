package applicationstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
)

// The backfill of the customers of applications approved before migration 0027 (customer_link.go
// links those approved since). It reads both application tables, so it lives apart from the
// link itself, which the KYC and KYB stores call.

// linkChunk bounds the applications LinkApprovedCustomers links in one transaction.
const linkChunk = 500

// LinkApprovedCustomers makes a customer of every approved application that is not linked to
// one yet (those approved before migration 0027) and returns how many it linked. SQL cannot do
// it (a KYC applicant's BVN is sealed, kyc_pii.go), so `complyd migrate`, `serve` and `dev` run
// it after the migrations. Tenant by tenant, in chunks of one transaction each (rows locked FOR
// UPDATE); idempotent, and a run with nothing left reads two empty partial indexes per tenant.
func LinkApprovedCustomers(ctx context.Context, db *postgres.DB) (int, error) {
	ks := NewKYCStore(db)
	tenants, err := db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, t := range tenants {
		for {
			n := 0
			err := db.InTenant(ctx, t, func(tx pgx.Tx) error {
				now := db.Now()
				rows, err := postgres.Collect[kycRow](ctx, tx, postgres.Psql.Select(kycColumns).From("kyc_applications a").
					Where("a.tenant_id = ? and a.status = 'APPROVED' and a.customer_id is null", string(t)).
					Limit(linkChunk).Suffix("FOR UPDATE OF a"))
				if err != nil {
					return err
				}
				for _, r := range rows {
					a, err := ks.toApplication(r)
					if err != nil {
						return err
					}
					if _, err := linkKYCCustomer(ctx, tx, t, a, now); err != nil {
						return err
					}
				}
				krows, err := postgres.Collect[kybRow](ctx, tx, postgres.Psql.Select(kybColumns).From("kyb_applications").
					Where("tenant_id = ? and status = 'APPROVED' and customer_id is null", string(t)).
					Limit(linkChunk).Suffix("FOR UPDATE"))
				if err != nil {
					return err
				}
				for _, r := range krows {
					a, err := toKYB(r)
					if err != nil {
						return err
					}
					if _, err := linkKYBCustomer(ctx, tx, t, a, now); err != nil {
						return err
					}
				}
				n = len(rows) + len(krows)
				return nil
			})
			if err != nil {
				return total, fmt.Errorf("link approved customers of tenant %s: %w", t, err)
			}
			total += n
			if n == 0 {
				break
			}
		}
	}
	return total, nil
}
