package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// BacktestStore streams a tenant's stored transactions for a rule backtest
// (screening.BacktestSource).
type BacktestStore struct {
	db       *DB
	settings *SettingsStore
}

// NewBacktestStore returns the store over db.
func NewBacktestStore(db *DB) *BacktestStore {
	return &BacktestStore{db: db, settings: NewSettingsStore(db)}
}

var _ screening.BacktestSource = (*BacktestStore)(nil)

// Config implements screening.BacktestSource.
func (s *BacktestStore) Config(ctx context.Context, tenant tenancy.TenantID) (tenancy.Config, error) {
	st, err := s.settings.Load(ctx, tenant)
	return st.Config, err
}

// backtestQuery reads the period newest first through transactions_list_idx. Each row carries
// the sender's history before it as enrichment computed it at screening time (24 h count and NGN
// sum, 60 min count, last activity), from two probes of transactions_sender_idx; history before
// the period counts too, so a transaction at the period's start sees its real past.
const backtestQuery = `select t.id::text, t.external_id, t.type, t.channel, t.amount::text, t.currency, t.amount_ngn::text, t.fx_missing,
	t.sender_account_number, t.sender_name, coalesce(t.sender_bank_code, ''), coalesce(t.sender_kyc_status, ''),
	coalesce(t.sender_kyc_tier, ''), coalesce(t.sender_kyb_status, ''), coalesce(t.receiver_account_number, ''),
	coalesce(t.receiver_name, ''), coalesce(t.receiver_bank_code, ''), coalesce(t.receiver_country, ''), coalesce(t.narration, ''),
	coalesce(t.device_id, ''), coalesce(t.ip_address, ''), t.transaction_timestamp, t.metadata, t.outcome,
	h.c24, h.s24::text, h.c60, l.last
from transactions t
cross join lateral (
	select count(*) as c24, coalesce(sum(p.amount_ngn), 0) as s24,
		count(*) filter (where p.transaction_timestamp >= t.transaction_timestamp - interval '60 minutes') as c60
	from transactions p
	where p.tenant_id = t.tenant_id and p.sender_account_number = t.sender_account_number
		and p.transaction_timestamp < t.transaction_timestamp and p.transaction_timestamp >= t.transaction_timestamp - interval '24 hours'
) h
cross join lateral (
	select max(p.transaction_timestamp) as last from transactions p
	where p.tenant_id = t.tenant_id and p.sender_account_number = t.sender_account_number and p.transaction_timestamp < t.transaction_timestamp
) l
where t.tenant_id = $1 and t.transaction_timestamp >= $2 and t.transaction_timestamp < $3
order by t.transaction_timestamp desc, t.id desc
limit $4`

// Stream implements screening.BacktestSource: one read-only transaction whose rows are read as
// they arrive (pgx streams a query's rows), so memory stays flat whatever the period holds.
func (s *BacktestStore) Stream(ctx context.Context, q screening.BacktestQuery, fn func(*screening.BacktestRow) error) error {
	return s.db.inTenantRead(ctx, q.TenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "set transaction read only"); err != nil {
			return fmt.Errorf("backtest read only: %w", err)
		}
		rows, err := tx.Query(ctx, backtestQuery, string(q.TenantID), q.From, q.To, q.Limit)
		if err != nil {
			return fmt.Errorf("backtest query: %w", err)
		}
		defer rows.Close()
		var r screening.BacktestRow
		for rows.Next() {
			var amount, amountNGN, sum24 string
			var md []byte
			var c24, c60 int64
			var last *time.Time
			r = screening.BacktestRow{}
			t := &r.Tx
			if err := rows.Scan(&r.TransactionID, &t.ExternalID, &t.Type, &t.Channel, &amount, &t.Currency, &amountNGN, &r.FXMissing,
				&t.SenderAccountNumber, &t.SenderName, &t.SenderBankCode, &t.SenderKYCStatus, &t.SenderKYCTier, &t.SenderKYBStatus,
				&t.ReceiverAccountNumber, &t.ReceiverName, &t.ReceiverBankCode, &t.ReceiverCountry, &t.Narration, &t.DeviceID,
				&t.IPAddress, &t.Timestamp, &md, &r.Outcome, &c24, &sum24, &c60, &last); err != nil {
				return fmt.Errorf("backtest scan: %w", err)
			}
			t.TenantID = q.TenantID
			t.Amount, _ = decimal.NewFromString(amount)
			r.AmountNGN, _ = decimal.NewFromString(amountNGN)
			if len(md) > 0 {
				if err := json.Unmarshal(md, &t.Metadata); err != nil {
					return fmt.Errorf("backtest metadata: %w", err)
				}
			}
			t.Normalize()
			r.History.Count24h, r.History.Count60m, r.History.LastActivityAt = int(c24), int(c60), last
			r.History.Sum24hNGN, _ = decimal.NewFromString(sum24)
			// The KYC the screening resolved is not stored; what the payload asserted is.
			r.KYC = screening.KYC{Status: "NONE", Tier: t.SenderKYCTier}
			if t.SenderKYCStatus != "" {
				r.KYC = screening.KYC{Status: t.SenderKYCStatus, Tier: t.SenderKYCTier, Source: screening.SourcePayload, Found: true}
			}
			if t.SenderKYBStatus != "" {
				r.KYB = screening.KYB{Required: true, Status: t.SenderKYBStatus, Source: screening.SourcePayload, Found: true}
			}
			if err := fn(&r); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}
