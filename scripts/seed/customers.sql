-- scripts/seed/customers.sql: saved customer profiles for the accounts of scripts/seed/transactions.sql
-- (profile i has the BVN of account 1000000000 + i, so it is linked to that account's
-- transactions), for the customer benchmarks (docs/guide/customers.md "Benchmark").
--
--   psql "$DATABASE_URL" -v tenant=<uuid> -v count=100000 -f scripts/seed/customers.sql
\set ON_ERROR_STOP on
INSERT INTO customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, data, source, last_lookup_at, created_at, updated_at)
SELECT 'cus_seed_' || i, :'tenant', 'INDIVIDUAL', 'BVN:2' || lpad(i::text, 10, '0'),
  (ARRAY['Adebayo','Chioma','Emeka','Fatima','Ibrahim','Ngozi','Oluwaseun','Yusuf'])[1 + i % 8] || ' ' ||
  (ARRAY['Okafor','Bello','Adeyemi','Eze','Musa','Okonkwo','Balogun','Abubakar'])[1 + (i / 8) % 8] || ' ' || i,
  '2' || lpad(i::text, 10, '0'), '{}', 'BVN', now(), now() - (i % 1000) * interval '1 minute', now() - (i % 1000) * interval '1 minute'
FROM generate_series(0, :count - 1) i
ON CONFLICT (tenant_id, profile_key) DO NOTHING;
ANALYZE customer_profiles;
