// Command complyd-seedhistory writes years of realistic screening history into a complyd
// database fast, through COPY (pgx CopyFrom), never through the API (issue 54;
// docs/performance-at-scale.md "Seeding history"):
//
//   - transactions with their verdict fields (outcome, risk level, score, actions) and the
//     triggered rules in engine_verdicts, spread over -days ending -end-ago before now, in time
//     order (as a bank writes them), across every named tenant;
//   - the per-account aggregates (account_activity_grains, account_versions) and the customer
//     risk queue kept by the transactions triggers of migrations 0017 and 0022 as each COPY
//     statement goes in, so they are consistent with the rows by construction;
//   - automatic cases for one in -case-every of the non-approved screenings, and an audit row
//     for each case.
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
	flag.Parse()
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
	end := time.Now().Add(-o.endAgo).UTC()
	start := end.Add(-time.Duration(o.days) * 24 * time.Hour)
	span := end.Sub(start)
	g := &generator{o: o, rnd: mrand.New(mrand.NewPCG(1, uint64(time.Now().UnixNano()))), tenants: ts}
	t0 := time.Now()
	var written, cases int64
	for written < o.rows {
		n := min(int64(o.chunk), o.rows-written)
		batch := make([][]any, 0, n)
		var cs []caseRow
		for i := range n {
			// the k-th row of the whole run sits at start + k/rows of the span: time order
			at := start.Add(time.Duration(float64(span) * float64(written+i) / float64(o.rows)))
			r, c := g.row(at)
			batch = append(batch, r)
			if c != nil {
				cs = append(cs, *c)
			}
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"transactions"}, txCopyColumns, pgx.CopyFromRows(batch)); err != nil {
			return fmt.Errorf("copy transactions: %w", err)
		}
		if err := copyCases(ctx, conn, cs); err != nil {
			return err
		}
		written += n
		cases += int64(len(cs))
		if written%(int64(o.chunk)*50) == 0 || written == o.rows {
			el := time.Since(t0)
			fmt.Printf("%d/%d transactions, %d cases, %s (%.0f rows/s)\n", written, o.rows, cases, el.Round(time.Second),
				float64(written)/el.Seconds())
		}
	}
	if _, err := conn.Exec(ctx, `analyze transactions; analyze account_activity_grains; analyze account_versions; analyze cases`); err != nil {
		return err
	}
	fmt.Printf("seeded %d transactions and %d cases for %d tenant(s) over %d days in %s\n", written, cases, len(ts), o.days,
		time.Since(t0).Round(time.Second))
	return nil
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
}

type caseRow struct {
	tenant   [16]byte
	id, num  string
	txID     string
	priority string
	typ      string
	at       time.Time
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
	if o.outcome != "APPROVE" {
		k := r.IntN(len(ruleNames))
		ev, _ := json.Marshal([]map[string]any{{"category": "Regulatory Compliance", "score": o.score / 100, "outcome": o.outcome,
			"latencyMs": 1, "rules": []map[string]any{{"id": fmt.Sprintf("AML-%03d", k+1), "name": ruleNames[k],
				"riskScore": o.score / 100, "outcome": o.outcome}}}, {"category": "Sanctions", "score": 0, "latencyMs": 1}})
		engines = string(ev)
		actions = append(actions, "CREATE_CASE")
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	acct := fmt.Sprintf("%010d", 1_000_000_000+a)
	ts := at.Add(-time.Duration(r.IntN(1000)) * time.Millisecond)
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
			typ: "AML_ALERT", at: ts}
	}
	return row, c
}

func uuidString(b [16]byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// copyCases writes the batch's cases (half still open, the rest resolved a day later) and an
// audit row for each, as the screening commit's automatic case would leave them.
func copyCases(ctx context.Context, conn *pgx.Conn, cs []caseRow) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([][]any, len(cs))
	audit := make([][]any, len(cs))
	for i, c := range cs {
		status, resolved := "OPEN", (*time.Time)(nil)
		if i%2 == 1 {
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
