package main

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// seededDB is a fresh database with two tenants and, in each, customer profiles for the BVNs of
// the first senders (so that the risk queue gets screening alerts and cases).
func seededDB(ctx context.Context, t *testing.T) string {
	t.Helper()
	db, url := pgtest.Fresh(t)
	admin := pgtest.AdminOf(ctx, t, url)
	for range 2 {
		tn := pgtest.Tenant(ctx, t, db)
		for a := range 6 {
			if _, err := admin.Exec(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn,
				data, source, last_lookup_at, created_at, updated_at) values ($1, $2, 'INDIVIDUAL', $3, 'Customer', $4, '{}', 'test', now(), now(), now())`,
				fmt.Sprintf("cp_%s_%d", tn.Slug, a), string(tn.ID), fmt.Sprintf("BVN:%d", a), fmt.Sprintf("%011d", 20_000_000_000+a)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return url
}

// aggregates is every table the transactions triggers keep, and what the seeder writes beside
// them, with the tenant replaced by its creation order (the two databases' tenants have their
// own ids and slugs) and the slug dropped from the external ids.
func aggregates(ctx context.Context, t *testing.T, url string) map[string][]string {
	t.Helper()
	conn := pgtest.AdminOf(ctx, t, url)
	tn := `with tn as (select id, row_number() over (order by created_at, id) as k from tenants) `
	queries := map[string]string{
		"grains": tn + `select tn.k, g.account, g.grain, g.bucket, g.n, g.sum_ngn::text, g.sum_sq_ngn::text, g.devices, g.last_device,
			g.last_device_at, g.last_ip, g.last_ip_at, g.last_lat, g.last_lon, g.last_loc_at, g.last_at
			from account_activity_grains g join tn on tn.id = g.tenant_id order by 1, 2, 3, 4`,
		"versions": tn + `select tn.k, v.account, v.version, v.first_at, v.last_at from account_versions v join tn on tn.id = v.tenant_id
			order by 1, 2`,
		"keys": tn + `select tn.k, k.transaction_id, k.transaction_timestamp, regexp_replace(k.external_id, '-t-[0-9a-f]+-', '-'),
			t.id is not null from transaction_keys k join tn on tn.id = k.tenant_id
			left join transactions t on t.id = k.transaction_id and t.transaction_timestamp = k.transaction_timestamp
			and t.tenant_id = k.tenant_id and t.external_id = k.external_id order by 1, 2`,
		"queue": tn + `select tn.k, regexp_replace(q.customer_id, '_t-[0-9a-f]+_', '_'), q.reason from customer_risk_queue q
			join tn on tn.id = q.tenant_id order by 1, 2`,
		"transactions": tn + `select tn.k, t.tableoid::regclass::text, t.id, t.transaction_timestamp, t.sender_account_number,
			t.amount_ngn::text, t.outcome from transactions t join tn on tn.id = t.tenant_id order by 3`,
		"cases": tn + `select tn.k, c.id, c.status, c.priority, c.due_at, c.related_transaction_id from cases c
			join tn on tn.id = c.tenant_id order by 2`,
		"rollups": tn + `select tn.k, r.bucket, r.outcome, r.risk_level, r.shard, r.screenings from screening_rollups r
			join tn on tn.id = r.tenant_id order by 1, 2, 3, 4, 5`,
		"rule-rollups": tn + `select tn.k, r.bucket, r.rule_id, r.rule_name, r.shard, r.hits from screening_rule_rollups r
			join tn on tn.id = r.tenant_id order by 1, 2, 3, 5`,
	}
	out := map[string][]string{}
	for name, q := range queries {
		rows, err := conn.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			out[name] = append(out[name], fmt.Sprint(v...))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// TestFastPathMatchesTriggers seeds the same history (the same generator seed, twice, the
// second run adding to the first as the benchmark's sizes do) into two databases, once with
// the transactions triggers on for every small COPY and once through the fast path (triggers
// off, aggregates rebuilt set-based per transaction), and requires every aggregate to be
// identical: the fast path cannot drift from the triggers unnoticed.
func TestFastPathMatchesTriggers(t *testing.T) {
	ctx := context.Background()
	end := time.Now().Add(-time.Hour).UTC().Truncate(time.Microsecond)
	// 3,000 rows over 40 days across a month boundary, 30 accounts per tenant: many rows per
	// account, day and hour, so the upserts meet existing buckets within and across batches.
	// The grains before the 20th day are left out (the fast path) or deleted (the triggers), as
	// the nightly prune leaves a database (screenstore.GrainsCutoff, here nearer than 120 days).
	cutoff := end.Truncate(24*time.Hour).AddDate(0, 0, -20)
	base := options{rows: 3000, days: 40, accounts: 30, caseEvery: 3, end: end, quiet: true, grainsCutoff: cutoff}
	slow, fast := seededDB(ctx, t), seededDB(ctx, t)
	for i, run := range []string{"a", "b"} {
		o := base
		o.run, o.rndSeed = run, uint64(7+i)
		o.db, o.triggers, o.chunk = slow, true, 70
		if err := seed(ctx, o); err != nil {
			t.Fatalf("triggers, run %s: %v", run, err)
		}
		o.db, o.triggers, o.chunk, o.aggRows = fast, false, 200, 900
		if err := seed(ctx, o); err != nil {
			t.Fatalf("fast path, run %s: %v", run, err)
		}
	}
	want, got := aggregates(ctx, t, slow), aggregates(ctx, t, fast)
	for _, name := range []string{"transactions", "grains", "versions", "keys", "queue", "cases", "rollups", "rule-rollups"} {
		if len(want[name]) == 0 {
			t.Errorf("%s: nothing seeded through the triggers", name)
		}
		if !reflect.DeepEqual(want[name], got[name]) {
			n := 0
			for i := range min(len(want[name]), len(got[name])) {
				if want[name][i] != got[name][i] {
					if n < 3 {
						t.Errorf("%s row %d:\n triggers %s\n fast     %s", name, i, want[name][i], got[name][i])
					}
					n++
				}
			}
			t.Errorf("%s: %d rows through the triggers, %d through the fast path, %d differ", name, len(want[name]), len(got[name]), n)
		}
	}
	for _, db := range []string{slow, fast} {
		var old int
		if err := pgtest.AdminOf(ctx, t, db).QueryRow(ctx, `select count(*) from account_activity_grains where bucket < $1`, cutoff).Scan(&old); err != nil {
			t.Fatal(err)
		}
		if old != 0 {
			t.Errorf("%d grain buckets before the cutoff %s", old, cutoff)
		}
	}
	// The rollups count exactly the seeded rows, as the screening commit's would (the dashboard's
	// overview of a seeded database read zero before the seeder wrote them).
	for _, db := range []string{slow, fast} {
		var missing, extra int
		if err := pgtest.AdminOf(ctx, t, db).QueryRow(ctx, `with tx as (
				select tenant_id, date_trunc('hour', transaction_timestamp, 'UTC') b, outcome, risk_level, count(*) n
				from transactions group by 1, 2, 3, 4),
			ru as (select tenant_id, bucket b, outcome, risk_level, sum(screenings)::bigint n from screening_rollups group by 1, 2, 3, 4),
			rtx as (select t.tenant_id, date_trunc('day', t.transaction_timestamp, 'UTC') b, r->>'id' id, count(*) n
				from transactions t, jsonb_array_elements(t.engine_verdicts) v, jsonb_array_elements(coalesce(v->'rules', '[]')) r
				group by 1, 2, 3),
			rru as (select tenant_id, bucket b, rule_id id, sum(hits)::bigint n from screening_rule_rollups group by 1, 2, 3)
			select (select count(*) from (select * from tx except select * from ru) a) + (select count(*) from (select * from rtx except select * from rru) a),
				(select count(*) from (select * from ru except select * from tx) a) + (select count(*) from (select * from rru except select * from rtx) a)`).
			Scan(&missing, &extra); err != nil {
			t.Fatal(err)
		}
		if missing != 0 || extra != 0 {
			t.Errorf("rollups: %d counts of the transactions missing or different, %d not in the transactions", missing, extra)
		}
	}
	if len(want["transactions"]) != 6000 {
		t.Errorf("transactions: %d, want 6000", len(want["transactions"]))
	}
	// every seeded row is in a monthly partition, none in the catch-alls (0050)
	conn := pgtest.AdminOf(ctx, t, fast)
	var inDefault int
	if err := conn.QueryRow(ctx, `select count(*) from transactions where tableoid::regclass::text in ('transactions_before', 'transactions_after')`).Scan(&inDefault); err != nil {
		t.Fatal(err)
	}
	var parts int
	if err := conn.QueryRow(ctx, `select count(distinct tableoid) from transactions`).Scan(&parts); err != nil {
		t.Fatal(err)
	}
	if inDefault != 0 || parts < 2 {
		t.Errorf("%d rows in the catch-all partitions, rows in %d partitions (want 0 and at least 2)", inDefault, parts)
	}
}
