-- scripts/seed/transactions.sql: seed a tenant with random screened transactions, for benchmarks
-- at scale (docs/guide/network.md "Benchmark", issue 16). Generic: any tenant, any count.
--
--   psql "$DATABASE_URL" -v tenant=<uuid> -v count=10000000 [-v accounts=500000] [-v days=365] \
--        [-v prefix=seed] -f scripts/seed/transactions.sql
--
-- The database must be migrated (`complyd migrate`). The tenant row is created when missing
-- (slug seed-<first 8 hex digits>). Rows are inserted in chunks of one million so a long seed
-- shows progress and its WAL is checkpointed as it goes; indexes are maintained as rows arrive
-- (dropping and rebuilding them would be faster, but this script must not touch the schema that
-- other sessions share). External ids are <prefix>-<n>, so a second run with another prefix adds
-- rows instead of failing on the unique key.
--
-- Shape: `accounts` accounts (10-digit numbers 1000000000 + i) send to uniformly random accounts;
-- each account has one BVN (2 + 10 digits of i), a device shared by about two accounts and an
-- IP address shared by about eight; amounts are log-uniform between 1,000 and 10,000,000 NGN;
-- timestamps uniform over the last `days` days; 97% APPROVE, 2% REVIEW, 1% ESCALATE.
\set ON_ERROR_STOP on
\if :{?accounts}
\else
  \set accounts 500000
\endif
\if :{?days}
\else
  \set days 365
\endif
\if :{?prefix}
\else
  \set prefix seed
\endif

INSERT INTO tenants (id, name, slug) VALUES (:'tenant', 'Seeded tenant', 'seed-' || left(:'tenant', 8))
ON CONFLICT (id) DO NOTHING;


-- One INSERT per chunk, each its own transaction (psql autocommit, \gexec):
SELECT format($q$
INSERT INTO transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_bvn, sender_name, sender_bank_code, sender_kyc_status, sender_kyc_tier,
  receiver_account_number, receiver_name, receiver_bank_code, receiver_country, narration, device_id, ip_address,
  transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts,
  total_latency_ms, processed_at, created_at)
SELECT gen_random_uuid(), %L::uuid, %L || '-' || g, (ARRAY['TRANSFER','TRANSFER','TRANSFER','WITHDRAWAL','DEPOSIT','PAYMENT'])[1 + (g %% 6)],
  (ARRAY['MOBILE','MOBILE','WEB','USSD','POS','ATM','BRANCH'])[1 + (g %% 7)], amt, 'NGN', amt,
  s::text, '2' || lpad((s - 1000000000)::text, 10, '0'), 'Sender ' || s, '058', 'VERIFIED', (ARRAY['TIER_1','TIER_2','TIER_3'])[1 + (s %% 3)],
  r::text, 'Receiver ' || r, '044', CASE WHEN g %% 50 = 0 THEN 'GH' ELSE 'NG' END, 'seeded transfer',
  'dev-' || (s / 2), '10.' || ((s / 8) / 65536 %% 256) || '.' || ((s / 8) / 256 %% 256) || '.' || ((s / 8) %% 256),
  ts, 'vrd_' || g, o, CASE o WHEN 'APPROVE' THEN 'LOW' WHEN 'REVIEW' THEN 'MEDIUM' ELSE 'HIGH' END,
  CASE o WHEN 'APPROVE' THEN 10 WHEN 'REVIEW' THEN 40 ELSE 60 END, ARRAY[]::text[], '[]'::jsonb, 50, ts, ts
FROM (
  SELECT g,
    1000000000 + (hashint4(g::int) & 2147483647) %% %s AS s,
    1000000000 + (hashint4((g # 1431655765)::int) & 2147483647) %% %s AS r,
    round(exp(ln(1000) + random() * ln(10000)))::numeric AS amt,
    now() - random() * interval '%s days' AS ts,
    CASE WHEN g %% 100 = 0 THEN 'ESCALATE' WHEN g %% 100 < 3 THEN 'REVIEW' ELSE 'APPROVE' END AS o
  FROM generate_series(%s::bigint, %s::bigint) g
) x
$q$, :'tenant', :'prefix', :accounts, :accounts, :days, lo, least(lo + 999999, :count))
FROM generate_series(1, :count, 1000000) lo
\gexec

ANALYZE transactions;
SELECT count(*) AS seeded FROM transactions WHERE tenant_id = :'tenant';
