package screenstore

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// legacyPrefetchSQL is prefetchSQL as it was before migration 0020: every aggregate computed
// over the account's raw 90 days (plus a constant version column, so scanPrefetch reads it).
// TestScreeningHistoryMatchesScan compares the engines' inputs it gives with prefetchSQL's.
const legacyPrefetchSQL = `select u.i, d.id::text, d.outcome, d.risk_level, d.aggregate_score::float8, d.total_latency_ms::int8,
	h.c24, h.s24, h.c60, h.n, h.mean, h.sd, h.devices, h.dev, h.ip, h.lat, h.lon, h.loc_at,
	(select max(l.transaction_timestamp) from transactions l
	  where l.tenant_id = $1 and l.sender_account_number = u.acct and l.transaction_timestamp <= u.ts),
	k.id, k.status, k.tier, 0::int8
from unnest($2::text[], $3::text[], $4::timestamptz[], $5::bytea[]) with ordinality as u(ext, acct, ts, bvn_hash, i)
left join lateral (select t.id, t.outcome, t.risk_level, t.aggregate_score, t.total_latency_ms from transactions t
	where t.tenant_id = $1 and t.external_id = u.ext) d on true
cross join lateral (select
	count(*) filter (where t.transaction_timestamp >= u.ts - interval '24 hours') as c24,
	coalesce(sum(t.amount_ngn) filter (where t.transaction_timestamp >= u.ts - interval '24 hours'), 0)::text as s24,
	count(*) filter (where t.transaction_timestamp >= u.ts - interval '60 minutes') as c60,
	count(*) as n,
	coalesce(avg(t.amount_ngn), 0)::text as mean,
	coalesce(stddev_pop(t.amount_ngn), 0)::text as sd,
	coalesce(array_agg(distinct t.device_id) filter (where t.device_id is not null), '{}') as devices,
	(array_agg(t.device_id order by t.transaction_timestamp desc) filter (where t.device_id is not null))[1] as dev,
	(array_agg(t.ip_address order by t.transaction_timestamp desc) filter (where t.ip_address is not null))[1] as ip,
	(array_agg(t.latitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lat,
	(array_agg(t.longitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lon,
	(array_agg(t.transaction_timestamp order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as loc_at
	from transactions t
	where t.tenant_id = $1 and t.sender_account_number = u.acct and t.transaction_timestamp <= u.ts
	  and t.transaction_timestamp >= u.ts - interval '90 days') h
left join lateral (select a.id, a.status, a.tier from kyc_applications a
	where a.tenant_id = $1 and a.bvn_hash = u.bvn_hash and a.bvn_hash is not null
	order by a.created_at desc, a.id desc limit 1) k on true`

// PrefetchHistoryForTest runs, for one tenant, the current prefetch statement (legacy false) or
// the legacy one on accounts accts at timestamps ts, and returns the prefetched history and
// profile of each.
func PrefetchHistoryForTest(db *postgres.DB, ctx context.Context, tenant tenancy.TenantID, accts []string, ts []time.Time, legacy bool) ([]screening.Prefetch, error) {
	q := prefetchSQL
	if legacy {
		q = legacyPrefetchSQL
	}
	reqs := make([]*prefetchReq, len(accts))
	ext := make([]string, len(accts))
	for i := range accts {
		ext[i] = "history-probe-none"
		reqs[i] = &prefetchReq{tx: &screening.Transaction{ExternalID: ext[i]}}
	}
	err := db.InTenant(ctx, tenant, func(tx pgx.Tx) error {
		args := prefetchArgs(string(tenant), ext, accts, ts, make([][]byte, len(accts)))
		if legacy {
			args = args[:5] // it computes the window bounds itself
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scanPrefetch(rows, reqs); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	out := make([]screening.Prefetch, len(reqs))
	for i, r := range reqs {
		out[i] = r.out
	}
	return out, err
}
