package customerstore

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Find implements customers.Store: the customer of an application is the one its approval
// made (customer_id, customer_link.go); of a transaction, the profile of its sender's BVN (how
// the overview links accounts, customer_store.go); of a case, its application's, else its
// transaction's. Each is one or two index probes. An object that exists but has no customer
// answers an empty item (a normal answer: most transactions' senders are nobody's customer
// here); only an object that does not exist in the tenant is NOT_FOUND.
func (s *CustomerStore) Find(ctx context.Context, tenantID tenancy.TenantID, f customers.FindParams) (customers.ListItem, error) {
	var it customers.ListItem
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		t := string(tenantID)
		exists := false
		byApp := func(id string) (*string, error) {
			var cid *string
			err := tx.QueryRow(ctx, `select customer_id from kyc_applications where tenant_id = $1 and id = $2
				union all select customer_id from kyb_applications where tenant_id = $1 and id = $2 limit 1`, t, id).Scan(&cid)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil, nil
			}
			exists = exists || err == nil
			return cid, err
		}
		byTx := func(id string) (*string, error) {
			if !postgres.IsUUID(id) {
				return nil, nil
			}
			var cid *string
			var found bool
			err := tx.QueryRow(ctx, `select true, (select p.id from customer_profiles p
				where p.tenant_id = t.tenant_id and p.bvn = t.sender_bvn and p.bvn <> '' order by p.created_at limit 1)
				from transactions t where t.tenant_id = $1 and t.id = $2::uuid`, t, id).Scan(&found, &cid)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil, nil
			}
			exists = exists || err == nil
			return cid, err
		}
		var cid *string
		var err error
		switch {
		case f.ApplicationID != "":
			cid, err = byApp(f.ApplicationID)
		case f.TransactionID != "":
			cid, err = byTx(f.TransactionID)
		case f.CaseID != "":
			var appID, txID *string
			err = tx.QueryRow(ctx, `select related_kyc_application_id, related_transaction_id from cases where tenant_id = $1 and id = $2`,
				t, f.CaseID).Scan(&appID, &txID)
			if errors.Is(err, pgx.ErrNoRows) {
				err = nil
				break
			}
			if err != nil {
				break
			}
			exists = true
			if appID != nil {
				cid, err = byApp(*appID)
			}
			if err == nil && cid == nil && txID != nil {
				cid, err = byTx(*txID)
			}
		}
		if err != nil {
			return err
		}
		if cid == nil && exists {
			return nil
		}
		if cid == nil {
			return postgres.MapErr(pgx.ErrNoRows, "customer")
		}
		return tx.QueryRow(ctx, `select id, profile_type, display_name, updated_at from customer_profiles where tenant_id = $1 and id = $2`,
			t, *cid).Scan(&it.ID, &it.Type, &it.Name, &it.UpdatedAt)
	})
	return it, err
}
