// Command complyd-seedhistory writes years of realistic screening history into a complyd
// database fast, through COPY (pgx CopyFrom), never through the API (issue 54;
// docs/performance-at-scale.md "Seeding history"):
//
//   - transactions with their verdict fields (outcome, risk level, score, actions) and the
//     triggered rules in engine_verdicts, spread over -days ending -end-ago before now, in time
//     order (as a bank writes them), across every named tenant;
//   - the per-account aggregates (account_activity_grains, account_versions), the externalId
//     keys (transaction_keys) and the customer risk queue that the transactions triggers of
//     migrations 0017, 0022 and 0043 keep. By default the triggers are off for the seeder's
//     session (session_replication_role = replica) and the aggregates are rebuilt set-based once
//     per transaction of -agg-rows rows, with the triggers' own statements over the rows just
//     written (aggregateSQL; TestFastPathMatchesTriggers holds the two equal); -triggers writes
//     through the triggers instead, one firing per COPY of -chunk rows (slow);
//   - the monthly partitions of the seeded span (ensure_monthly_partitions), so that the rows
//     land in them and not in the catch-all partitions;
//   - automatic cases for one in -case-every of the non-approved screenings, and an audit row
//     for each case;
//   - the dashboard's screening rollups (screening_rollups per UTC hour, outcome and risk level;
//     screening_rule_rollups per UTC day and triggered rule), counted while the rows are
//     generated and added in the transaction that writes them, as the screening commit adds them
//     (screenstore's rollupInsertSQL): without them the overview of a seeded database read empty.
//     The hours before the nightly fold's cutoff (dashboardstore.FoldCutoff) are on shard 0, as
//     the fold leaves them (-keep-shards: on four, as before the fold);
//
// Senders are the accounts the screening load generator uses (lpad(1000000000 + a, 10)), so a
// benchmark that follows screens accounts that have a history.
//
//	complyd-seedhistory -db postgres://postgres@127.0.0.1:5498/complyd -tenants bench,other -rows 10000000 -days 365
//
// It writes as the database owner (row-level security does not filter the owner when it is a
// superuser). Running it twice writes a second, distinct history (external ids carry -run).
package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

type options struct {
	db        string
	tenants   string
	rows      int64
	days      int
	accounts  int
	endAgo    time.Duration
	chunk     int
	caseEvery int
	run       string
	triggers  bool // write row by row through the transactions triggers (the slow reference path)
	// grainsCutoff: no grain bucket before it is left (screenstore.GrainsCutoff of now unless
	// -keep-grains): the database as the nightly prune leaves it. Zero: every bucket is kept.
	grainsCutoff time.Time
	// foldCutoff: the rollups of hours (days, for the rule rollups) before it are written on
	// shard 0 (dashboardstore.FoldCutoff of now unless -keep-shards): the database as the
	// nightly fold leaves it. Zero: every hour keeps its four shards.
	foldCutoff time.Time
	aggRows    int       // fast path: rows per transaction whose aggregates are rebuilt set-based at once
	rndSeed    uint64    // the generator's seed (0: from the clock)
	end        time.Time // the newest transaction's time (zero: now - endAgo)
	quiet      bool
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", os.Getenv("DATABASE_URL"), "database URL (default $DATABASE_URL)")
	flag.StringVar(&o.tenants, "tenants", "", "comma-separated tenant slugs (default: every tenant)")
	flag.Int64Var(&o.rows, "rows", 1_000_000, "transactions to write, over all tenants")
	flag.IntVar(&o.days, "days", 365, "days of history")
	flag.IntVar(&o.accounts, "accounts", 200_000, "sender accounts per tenant")
	flag.DurationVar(&o.endAgo, "end-ago", 10*time.Minute, "the newest seeded transaction is this long before now")
	flag.IntVar(&o.chunk, "chunk", 20_000, "rows per COPY statement (one statement, one firing of the statement triggers)")
	flag.IntVar(&o.caseEvery, "case-every", 20, "one automatic case for every this many non-approved screenings (0: none)")
	flag.StringVar(&o.run, "run", "h", "tag in the seeded external ids (a second run with another tag adds to the history)")
	flag.BoolVar(&o.triggers, "triggers", false, "keep the transactions triggers on for every COPY (slow; the reference the fast path is tested against)")
	flag.IntVar(&o.aggRows, "agg-rows", 500_000, "fast path: rows written per transaction, whose aggregates are then rebuilt set-based in it")
	flag.Uint64Var(&o.rndSeed, "seed", 0, "seed of the generator (0: from the clock)")
	keepGrains := flag.Bool("keep-grains", false, "keep the per-account grains older than the prefetch reads (by default they are left out, as the nightly prune leaves a database)")
	keepShards := flag.Bool("keep-shards", false, "keep every past hour's rollups on four shards (by default they are on one, as the nightly fold leaves a database)")
	flag.Parse()
	if !*keepGrains {
		o.grainsCutoff = screenstore.GrainsCutoff(time.Now())
	}
	if !*keepShards {
		o.foldCutoff = dashboardstore.FoldCutoff(time.Now())
	}
	if err := seed(context.Background(), o); err != nil {
		log.Fatal(err)
	}
}

type tenant struct {
	id   [16]byte
	slug string
	n    int64 // transactions written so far
}

func seed(ctx context.Context, o options) error {
	if o.rows <= 0 || o.days <= 0 || o.accounts <= 0 || o.chunk <= 0 {
		return fmt.Errorf("-rows, -days, -accounts and -chunk must be positive")
	}
	conn, err := pgx.Connect(ctx, o.db)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, `set synchronous_commit = off`); err != nil {
		return err
	}
	q := `select id, slug from tenants order by created_at, id`
	args := []any{}
	if o.tenants != "" {
		q = `select id, slug from tenants where slug = any($1) order by created_at, id`
		args = append(args, strings.Split(o.tenants, ","))
	}
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	var ts []*tenant
	for rows.Next() {
		t := &tenant{}
		var id pgtype.UUID
		if err := rows.Scan(&id, &t.slug); err != nil {
			return err
		}
		t.id = id.Bytes
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(ts) == 0 {
		return fmt.Errorf("no tenant to seed (create one with complyd tenant create)")
	}
	end := o.end
	if end.IsZero() {
		end = time.Now().Add(-o.endAgo)
	}
	end = end.UTC()
	start := end.Add(-time.Duration(o.days) * 24 * time.Hour)
	span := end.Sub(start)
	// The seeded months get their partitions first, as a converted database has them (0043 made
	// one for every month that held rows): otherwise the rows land in the _default partitions.
	for _, parent := range []string{"transactions", "audit_events"} {
		if _, err := conn.Exec(ctx, `select ensure_monthly_partitions($1::regclass, $2::date, $3::date)`, parent,
			start.Format(time.DateOnly), end.AddDate(0, 0, 2).Format(time.DateOnly)); err != nil {
			return fmt.Errorf("partitions of %s: %w", parent, err)
		}
	}
	group := o.chunk // rows per transaction
	if !o.triggers {
		if o.aggRows <= 0 {
			return fmt.Errorf("-agg-rows must be positive")
		}
		group = o.aggRows
		// The fast path: the transactions triggers are off for this session (replica role), the
		// rows also go to a narrow temporary table, and the aggregates the triggers keep are
		// rebuilt from it set-based once per transaction (aggregateSQL: the triggers' own
		// statements over it), before the commit.
		if _, err := conn.Exec(ctx, `set session_replication_role = replica`); err != nil {
			return fmt.Errorf("triggers off (session_replication_role needs a superuser): %w", err)
		}
		if _, err := conn.Exec(ctx, seedNewSQL); err != nil {
			return fmt.Errorf("create seed_new: %w", err)
		}
	}
	rs := o.rndSeed
	if rs == 0 {
		rs = uint64(time.Now().UnixNano())
	}
	g := &generator{o: o, rnd: mrand.New(mrand.NewPCG(1, rs)), tenants: ts}
	t0 := time.Now()
	var written, cases, reported int64
	for written < o.rows {
		gn := min(int64(group), o.rows-written)
		var cs []caseRow
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			for done := int64(0); done < gn; {
				n := min(int64(o.chunk), gn-done)
				batch := make([][]any, 0, n)
				for i := range n {
					// the k-th row of the whole run sits at start + k/rows of the span: time order
					k := written + done + i
					at := start.Add(time.Duration(float64(span) * float64(k) / float64(o.rows)))
					r, c := g.row(at)
					batch = append(batch, r)
					if c != nil {
						cs = append(cs, *c)
					}
				}
				if _, err := tx.CopyFrom(ctx, pgx.Identifier{"transactions"}, txCopyColumns, pgx.CopyFromRows(batch)); err != nil {
					return fmt.Errorf("copy transactions: %w", err)
				}
				if !o.triggers {
					narrow := make([][]any, len(batch))
					for i, r := range batch {
						narrow[i] = []any{r[1], r[0], r[2], r[8], r[9], r[21], r[7], r[17], r[18], r[19]}
					}
					if _, err := tx.CopyFrom(ctx, pgx.Identifier{"seed_new"}, seedNewColumns, pgx.CopyFromRows(narrow)); err != nil {
						return fmt.Errorf("copy seed_new: %w", err)
					}
				}
				done += n
			}
			if !o.triggers {
				for i, q := range aggregateSQL {
					var args []any
					if i == grainsStatement {
						args = append(args, grainsFrom(o))
					}
					if _, err := tx.Exec(ctx, q, args...); err != nil {
						return fmt.Errorf("aggregates: %w", err)
					}
				}
				// the cases' own triggers (routing, the risk queue) stay on
				if _, err := tx.Exec(ctx, `set local session_replication_role = origin`); err != nil {
					return err
				}
			}
			if err := g.flushRollups(ctx, tx); err != nil {
				return err
			}
			return copyCases(ctx, tx, cs)
		})
		if err != nil {
			return err
		}
		written += gn
		cases += int64(len(cs))
		if !o.quiet && (written-reported >= int64(o.chunk)*50 || written == o.rows) {
			reported = written
			el := time.Since(t0)
			fmt.Printf("%d/%d transactions, %d cases, %s (%.0f rows/s)\n", written, o.rows, cases, el.Round(time.Second),
				float64(written)/el.Seconds())
		}
	}
	if !o.triggers {
		if _, err := conn.Exec(ctx, `drop table seed_new; set session_replication_role = origin`); err != nil {
			return err
		}
	}
	if o.triggers && !o.grainsCutoff.IsZero() {
		// The triggers wrote every bucket; the fast path never wrote those before the cutoff.
		if _, err := conn.Exec(ctx, `delete from account_activity_grains where bucket < $1`, o.grainsCutoff); err != nil {
			return fmt.Errorf("prune grains: %w", err)
		}
	}
	if _, err := conn.Exec(ctx, `analyze transactions; analyze transaction_keys; analyze account_activity_grains; analyze account_versions; analyze cases; analyze screening_rollups; analyze screening_rule_rollups`); err != nil {
		return err
	}
	if !o.quiet {
		fmt.Printf("seeded %d transactions and %d cases for %d tenant(s) over %d days in %s (%.0f rows/s, triggers %v)\n",
			written, cases, len(ts), o.days, time.Since(t0).Round(time.Second), float64(written)/time.Since(t0).Seconds(), o.triggers)
	}
	return nil
}

// seed_new holds the fast path's rows of the current transaction: the columns the transactions
// triggers read (latitude and longitude stay NULL, as the seeder writes none).
const seedNewSQL = `create temporary table seed_new (tenant_id uuid, id uuid, external_id text, sender_account_number text,
	sender_bvn text, outcome text, amount_ngn numeric, device_id text, ip_address text, latitude float8, longitude float8,
	transaction_timestamp timestamptz) on commit delete rows`

var seedNewColumns = []string{"tenant_id", "id", "external_id", "sender_account_number", "sender_bvn", "outcome",
	"amount_ngn", "device_id", "ip_address", "transaction_timestamp"}

// aggregateSQL are the bodies of the transactions triggers with seed_new for their transition
// table new_rows: transaction_keys_add (0043), customer_risk_queue_alert (0017) and
// account_activity_apply (0022). TestFastPathMatchesTriggers seeds the same history both ways
// and compares every aggregate, so a change of a trigger that is not made here fails it.
var aggregateSQL = []string{
	`INSERT INTO transaction_keys (tenant_id, external_id, transaction_id, transaction_timestamp)
	SELECT n.tenant_id, n.external_id, n.id, n.transaction_timestamp FROM seed_new n
	WHERE NOT EXISTS (SELECT 1 FROM transaction_keys k WHERE k.tenant_id = n.tenant_id AND k.external_id = n.external_id
		AND k.transaction_id = n.id)`,
	`INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
	SELECT DISTINCT p.tenant_id, p.id, 'SCREENING_ALERT' FROM seed_new n
	JOIN customer_profiles p ON p.tenant_id = n.tenant_id AND p.bvn = n.sender_bvn AND p.bvn <> ''
	WHERE n.outcome <> 'APPROVE' AND n.sender_bvn IS NOT NULL
	ORDER BY 1, 2
	ON CONFLICT (tenant_id, customer_id) DO NOTHING`,
	`INSERT INTO account_activity_grains AS a (tenant_id, account, grain, bucket, n, sum_ngn, sum_sq_ngn, devices,
    last_device, last_device_at, last_ip, last_ip_at, last_lat, last_lon, last_loc_at, last_at)
  SELECT tenant_id, sender_account_number, g.grain, date_trunc(g.grain, transaction_timestamp, 'UTC') AS b, count(*),
    sum(amount_ngn), sum(amount_ngn * amount_ngn),
    coalesce(array_agg(DISTINCT device_id ORDER BY device_id) FILTER (WHERE device_id IS NOT NULL), '{}'),
    (array_agg(device_id ORDER BY transaction_timestamp DESC) FILTER (WHERE device_id IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE device_id IS NOT NULL),
    (array_agg(ip_address ORDER BY transaction_timestamp DESC) FILTER (WHERE ip_address IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE ip_address IS NOT NULL),
    (array_agg(latitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    (array_agg(longitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE latitude IS NOT NULL), max(transaction_timestamp)
  FROM seed_new CROSS JOIN (VALUES ('day'), ('hour'), ('minute')) AS g(grain) WHERE transaction_timestamp >= $1
  GROUP BY tenant_id, sender_account_number, g.grain, b ORDER BY tenant_id, sender_account_number, g.grain, b
  ON CONFLICT (tenant_id, account, grain, bucket) DO UPDATE SET n = a.n + excluded.n,
    sum_ngn = a.sum_ngn + excluded.sum_ngn, sum_sq_ngn = a.sum_sq_ngn + excluded.sum_sq_ngn,
    devices = CASE WHEN excluded.devices <@ a.devices THEN a.devices
      ELSE ARRAY(SELECT DISTINCT x FROM unnest(a.devices || excluded.devices) x ORDER BY x) END,
    last_device = CASE WHEN excluded.last_device_at >= coalesce(a.last_device_at, '-infinity') THEN excluded.last_device
      ELSE a.last_device END,
    last_device_at = greatest(a.last_device_at, excluded.last_device_at),
    last_ip = CASE WHEN excluded.last_ip_at >= coalesce(a.last_ip_at, '-infinity') THEN excluded.last_ip ELSE a.last_ip END,
    last_ip_at = greatest(a.last_ip_at, excluded.last_ip_at),
    last_lat = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lat ELSE a.last_lat END,
    last_lon = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lon ELSE a.last_lon END,
    last_loc_at = greatest(a.last_loc_at, excluded.last_loc_at), last_at = greatest(a.last_at, excluded.last_at)`,
	`INSERT INTO account_versions AS v (tenant_id, account, version, first_at, last_at)
  SELECT tenant_id, sender_account_number, count(*), min(transaction_timestamp), max(transaction_timestamp)
  FROM seed_new GROUP BY tenant_id, sender_account_number ORDER BY tenant_id, sender_account_number
  ON CONFLICT (tenant_id, account) DO UPDATE SET version = v.version + excluded.version,
    first_at = least(v.first_at, excluded.first_at), last_at = greatest(v.last_at, excluded.last_at)`,
}

// grainsStatement is aggregateSQL's grains upsert, whose $1 is the first transaction_timestamp
// whose buckets are written (grainsFrom): a bucket starts at or after a day boundary exactly
// when its transactions do.
const grainsStatement = 2

// grainsFrom is the grains upsert's bound: the cutoff, or -infinity to keep every bucket.
func grainsFrom(o options) any {
	if o.grainsCutoff.IsZero() {
		return pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true}
	}
	return o.grainsCutoff
}

// txCopyColumns are the columns the seeder writes; the others keep their defaults or NULL.
var txCopyColumns = []string{"id", "tenant_id", "external_id", "type", "channel", "amount", "currency", "amount_ngn",
	"sender_account_number", "sender_bvn", "sender_name", "sender_kyc_status", "sender_kyc_tier",
	"receiver_account_number", "receiver_name", "receiver_bank_code", "narration", "device_id", "ip_address",
	"transaction_timestamp", "verdict_id", "outcome", "risk_level", "aggregate_score", "actions", "engine_verdicts",
	"total_latency_ms", "processed_at", "created_at"}

type generator struct {
	o       options
	rnd     *mrand.Rand
	tenants []*tenant
	next    int
	// the rollups of the rows generated since the last flushRollups
	outcomes map[outcomeKey]int64
	hits     map[ruleKey]int64
}

// outcomeKey is one screening_rollups row; ruleKey one screening_rule_rollups row (rule is the
// index into ruleNames).
type outcomeKey struct {
	tenant        [16]byte
	hour          time.Time
	shard         int16
	outcome, risk string
}

type ruleKey struct {
	tenant [16]byte
	day    time.Time
	shard  int16
	rule   int
}

type caseRow struct {
	tenant   [16]byte
	id, num  string
	txID     string
	priority string
	typ      string
	at       time.Time
	resolved bool
}

// outcomes: 85% APPROVE, 8% REVIEW, 4% ESCALATE, 3% BLOCK (the distribution of the dashboard
// seed, scripts/seed/dashboard-10m.sql).
var outcomes = []struct {
	pct                 int
	outcome, risk, prio string
	score               int64
}{{85, "APPROVE", "LOW", "", 1000}, {8, "REVIEW", "MEDIUM", "MEDIUM", 4500}, {4, "ESCALATE", "HIGH", "HIGH", 6500}, {3, "BLOCK", "CRITICAL", "CRITICAL", 9500}}

var ruleNames = []string{"Large cash transaction", "Structuring", "Rapid movement of funds", "High-risk jurisdiction",
	"Velocity", "Dormant account reactivation", "Round amounts", "New device", "Unusual hour"}

func (g *generator) row(at time.Time) ([]any, *caseRow) {
	t := g.tenants[g.next]
	g.next = (g.next + 1) % len(g.tenants)
	t.n++
	r := g.rnd
	a := r.IntN(g.o.accounts)
	kobo := int64(500_000 + r.IntN(4_500_000)) // ₦5,000 to ₦50,000
	if r.IntN(50) == 0 {
		kobo *= 100 // one in fifty is large
	}
	amount := pgtype.Numeric{Int: big.NewInt(kobo), Exp: -2, Valid: true}
	p := r.IntN(100)
	o := outcomes[len(outcomes)-1]
	for acc, i := 0, 0; i < len(outcomes); i++ {
		if acc += outcomes[i].pct; p < acc {
			o = outcomes[i]
			break
		}
	}
	engines := `[{"category":"Regulatory Compliance","score":0,"latencyMs":1},{"category":"Sanctions","score":0,"latencyMs":1}]`
	actions := []string{"GENERATE_FTR"}
	rule := -1
	if o.outcome != "APPROVE" {
		k := r.IntN(len(ruleNames))
		rule = k
		ev, _ := json.Marshal([]map[string]any{{"category": "Regulatory Compliance", "score": o.score / 100, "outcome": o.outcome,
			"latencyMs": 1, "rules": []map[string]any{{"id": fmt.Sprintf("AML-%03d", k+1), "name": ruleNames[k],
				"riskScore": o.score / 100, "outcome": o.outcome}}}, {"category": "Sanctions", "score": 0, "latencyMs": 1}})
		engines = string(ev)
		actions = append(actions, "CREATE_CASE")
	}
	var id [16]byte // from the generator, so that a -seed repeats the history exactly
	binary.BigEndian.PutUint64(id[:8], r.Uint64())
	binary.BigEndian.PutUint64(id[8:], r.Uint64())
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	acct := fmt.Sprintf("%010d", 1_000_000_000+a)
	ts := at.Add(-time.Duration(r.IntN(1000)) * time.Millisecond)
	g.count(t, ts, o.outcome, o.risk, rule)
	row := []any{id, t.id, fmt.Sprintf("%s-%s-%d", g.o.run, t.slug, t.n), "TRANSFER", "MOBILE_APP", amount, "NGN", amount,
		acct, fmt.Sprintf("%011d", 20_000_000_000+int64(a)), fmt.Sprintf("Customer %d Adeyemi", a), "APPROVED", "TIER_3",
		fmt.Sprintf("%010d", 2_000_000_000+r.IntN(1_000_000)), "Receiver Okafor", "058", "transfer",
		fmt.Sprintf("dev-%d", a), fmt.Sprintf("10.%d.%d.%d", a%250, (a/250)%250, a%200+1),
		ts, "vrd_h" + fmt.Sprint(t.n), o.outcome, o.risk, pgtype.Numeric{Int: big.NewInt(o.score), Exp: -2, Valid: true},
		actions, engines, int32(2 + r.IntN(6)), ts, ts}
	var c *caseRow
	if o.outcome != "APPROVE" && g.o.caseEvery > 0 && r.IntN(g.o.caseEvery) == 0 {
		c = &caseRow{tenant: t.id, id: fmt.Sprintf("case_%s_%x", g.o.run, id[:8]),
			num: fmt.Sprintf("CASE-%s-%x", strings.ToUpper(g.o.run), id[:6]), txID: uuidString(id), priority: o.prio,
			typ: "AML_ALERT", at: ts, resolved: r.IntN(2) == 1}
	}
	return row, c
}

// count adds a generated row to the rollups; the shard (the service picks one of four at random
// per statement) follows the tenant's row number, so the generator's sequence is unchanged, and
// is 0 for a bucket before the fold's cutoff (the nightly fold leaves one shard).
func (g *generator) count(t *tenant, ts time.Time, outcome, risk string, rule int) {
	if g.outcomes == nil {
		g.outcomes, g.hits = map[outcomeKey]int64{}, map[ruleKey]int64{}
	}
	shardOf := func(bucket time.Time) int16 {
		if bucket.Before(g.o.foldCutoff) {
			return 0
		}
		return int16(t.n % screenstore.RollupShards)
	}
	hour, day := ts.UTC().Truncate(time.Hour), ts.UTC().Truncate(24*time.Hour)
	g.outcomes[outcomeKey{t.id, hour, shardOf(hour), outcome, risk}]++
	if rule >= 0 {
		g.hits[ruleKey{t.id, day, shardOf(day), rule}]++
	}
}

// flushRollups adds the counted rollups to their tables in tx (the upserts of the screening
// commit, from arrays) and forgets them.
func (g *generator) flushRollups(ctx context.Context, tx pgx.Tx) error {
	if len(g.outcomes) > 0 {
		var tenants []pgtype.UUID
		var hours []time.Time
		var shards []int16
		var outs, risks []string
		var ns []int64
		for k, n := range g.outcomes {
			tenants, hours, shards = append(tenants, pgtype.UUID{Bytes: k.tenant, Valid: true}), append(hours, k.hour), append(shards, k.shard)
			outs, risks, ns = append(outs, k.outcome), append(risks, k.risk), append(ns, n)
		}
		if _, err := tx.Exec(ctx, `insert into screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
			select * from unnest($1::uuid[], $2::timestamptz[], $3::int2[], $4::text[], $5::text[], $6::bigint[]) order by 1, 2, 4, 5, 3
			on conflict (tenant_id, bucket, outcome, risk_level, shard)
			do update set screenings = screening_rollups.screenings + excluded.screenings`,
			tenants, hours, shards, outs, risks, ns); err != nil {
			return fmt.Errorf("screening rollups: %w", err)
		}
	}
	if len(g.hits) > 0 {
		var tenants []pgtype.UUID
		var days []time.Time
		var shards []int16
		var ids, names []string
		var ns []int64
		for k, n := range g.hits {
			tenants, days, shards = append(tenants, pgtype.UUID{Bytes: k.tenant, Valid: true}), append(days, k.day), append(shards, k.shard)
			ids, names, ns = append(ids, fmt.Sprintf("AML-%03d", k.rule+1)), append(names, ruleNames[k.rule]), append(ns, n)
		}
		if _, err := tx.Exec(ctx, `insert into screening_rule_rollups (tenant_id, bucket, shard, rule_id, rule_name, hits)
			select * from unnest($1::uuid[], $2::timestamptz[], $3::int2[], $4::text[], $5::text[], $6::bigint[]) order by 1, 2, 4, 3
			on conflict (tenant_id, bucket, rule_id, shard)
			do update set hits = screening_rule_rollups.hits + excluded.hits, rule_name = excluded.rule_name`,
			tenants, days, shards, ids, names, ns); err != nil {
			return fmt.Errorf("rule rollups: %w", err)
		}
	}
	g.outcomes, g.hits = nil, nil
	return nil
}

func uuidString(b [16]byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// copyCases writes the batch's cases (half still open, the rest resolved a day later) and an
// audit row for each, as the screening commit's automatic case would leave them.
func copyCases(ctx context.Context, conn pgx.Tx, cs []caseRow) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([][]any, len(cs))
	audit := make([][]any, len(cs))
	for i, c := range cs {
		status, resolved := "OPEN", (*time.Time)(nil)
		if c.resolved {
			r := c.at.Add(24 * time.Hour)
			status, resolved = "RESOLVED_FALSE_POSITIVE", &r
		}
		rows[i] = []any{c.id, c.tenant, c.num, c.typ, c.priority, "Automatic case", "seeded history", status, c.txID,
			resolved, c.at, c.at}
		var aid [16]byte
		_, _ = rand.Read(aid[:])
		aid[6] = aid[6]&0x0f | 0x40
		aid[8] = aid[8]&0x3f | 0x80
		after, _ := json.Marshal(map[string]any{"status": "OPEN", "caseNumber": c.num, "relatedTransactionId": c.txID})
		audit[i] = []any{aid, c.tenant, "SYSTEM", "case.created", "case", c.id, string(after), c.at}
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"cases"}, []string{"id", "tenant_id", "case_number", "type", "priority",
		"title", "description", "status", "related_transaction_id", "resolved_at", "created_at", "updated_at"},
		pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copy cases: %w", err)
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"audit_events"}, []string{"id", "tenant_id", "actor_type", "action",
		"resource_type", "resource_id", "after", "created_at"}, pgx.CopyFromRows(audit)); err != nil {
		return fmt.Errorf("copy audit events: %w", err)
	}
	return nil
}
