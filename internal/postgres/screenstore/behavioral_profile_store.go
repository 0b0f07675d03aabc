package screenstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// BehavioralProfileStore implements screening.BaselineStore over the screening prefetch's own
// query, so the API shows exactly the baseline the engines score with.
type BehavioralProfileStore struct{ db *postgres.DB }

// NewBehavioralProfileStore returns the store.
func NewBehavioralProfileStore(db *postgres.DB) *BehavioralProfileStore {
	return &BehavioralProfileStore{db: db}
}

// Baseline implements screening.BaselineStore: prefetchSQL for one screening of the account at
// asOf (an empty externalId, which is never stored, and no KYC lookup), plus the time the
// account's latest transaction was stored.
func (s *BehavioralProfileStore) Baseline(ctx context.Context, tenantID tenancy.TenantID, account string, asOf time.Time) (screening.Baseline, error) {
	out := screening.Baseline{AccountNumber: account, AsOf: asOf}
	req := &prefetchReq{tx: &screening.Transaction{TenantID: tenantID, SenderAccountNumber: account, Timestamp: asOf}}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select max(created_at) from transactions where tenant_id = $1 and sender_account_number = $2`,
			string(tenantID), account).Scan(&out.LastUpdatedAt); err != nil {
			return fmt.Errorf("read last update: %w", err)
		}
		if out.LastUpdatedAt == nil {
			return apperr.NotFoundf("no screened transaction from this account")
		}
		q := prefetchSQL
		if late(asOf, time.Now()) {
			q = prefetchLateSQL // grains_horizon.go
		}
		rows, err := tx.Query(ctx, q, prefetchArgs(string(tenantID), []string{""}, []string{account}, []time.Time{asOf}, [][]byte{nil})...)
		if err != nil {
			return fmt.Errorf("read baseline: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scanPrefetch(rows, []*prefetchReq{req}); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return screening.Baseline{}, err
	}
	out.History, out.Profile = req.out.History, req.out.Profile
	return out, nil
}
