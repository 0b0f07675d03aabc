package screenstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// commit stores one batch on conn. A batch of one tenant's screenings that cause no side
// effect (the common case: APPROVE, every engine answered) is one statement: the multi-row
// insert, in its own implicit transaction, after the session's tenant when it changes. Any
// other batch is one database transaction: per tenant (in tenant id order, and records in
// externalId order, so concurrent batches lock in the same order), the insert, then what the
// inserted records cause (sideEffects: automatic cases with their timeline, audit, case.created
// webhook, officers' email and notification; transaction.screened webhooks; retro-screening
// jobs); one COMMIT. Duplicates (stored before, or earlier in the batch) get
// DUPLICATE_EXTERNAL_ID with the original verdict and cause no side effect.
func (s *ScreeningStore) commit(ctx context.Context, conn *tenantConn, batch []*saveReq) (err error) {
	c, err := conn.get(ctx)
	if err != nil {
		return err
	}
	defer func() { conn.settled(err) }()
	byTenant := map[tenancy.TenantID][]*saveReq{}
	effects := false
	for _, r := range batch {
		byTenant[r.rec.Tx.TenantID] = append(byTenant[r.rec.Tx.TenantID], r)
		effects = effects || needsEffects(r.rec)
	}
	now := s.db.Now().UTC()
	if len(byTenant) == 1 && !effects {
		tenant := batch[0].rec.Tx.TenantID
		return s.commitTenant(ctx, c, tenant, batch, now, func(b *pgx.Batch) { conn.setTenant(b, tenant) }, nil)
	}
	tenants := make([]tenancy.TenantID, 0, len(byTenant))
	for t := range byTenant {
		tenants = append(tenants, t)
	}
	sort.Slice(tenants, func(i, j int) bool { return tenants[i] < tenants[j] })
	// One transaction in three round trips: BEGIN with the first tenant's insert and, per tenant,
	// the reads and report drafts its effects need queued with its insert; the River jobs; the
	// effects' writes with COMMIT.
	tx := connTx{c: c}
	begun := false
	defer func() {
		if err != nil && begun && !c.IsClosed() {
			_, _ = c.Exec(context.WithoutCancel(ctx), "rollback")
		}
	}()
	w := postgres.NewPipelined(tx)
	for _, t := range tenants {
		setLocal := func(b *pgx.Batch) {
			if !begun {
				b.Queue("begin")
				begun = true
			}
			b.Queue("select set_config('app.tenant_id', $1, true)", string(t))
		}
		reads := &effectReads{}
		queueReads := func(b *pgx.Batch) error { return s.queueEffectReads(b, t, byTenant[t], reads) }
		if err := s.commitTenant(ctx, tx, t, byTenant[t], now, setLocal, queueReads); err != nil {
			return err
		}
		if err := s.sideEffects(ctx, w, t, byTenant[t], reads); err != nil {
			return err
		}
	}
	if _, err := w.Exec(ctx, "commit"); err != nil {
		return err
	}
	return w.Flush(ctx, s.db)
}

// needsEffects reports whether storing rec causes more than its row: a case, a webhook or a
// retro-screening job.
func needsEffects(rec *screening.Record) bool {
	return rec.Case != nil || rec.Result.Outcome != rules.Approve || rec.Result.RetroScreening || needsReport(rec)
}

// batchQuerier is what commitTenant runs on: a transaction, or a held connection.
type batchQuerier interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// commitTenant inserts one tenant's records on q (setTenant queues the tenant's setting ahead
// of the insert, and then, when set, queues more statements for the same round trip) and
// settles the duplicates; a record left without error is stored, and sideEffects then queues
// what it causes.
func (s *ScreeningStore) commitTenant(ctx context.Context, q batchQuerier, tenant tenancy.TenantID, reqs []*saveReq, now time.Time,
	setTenant func(*pgx.Batch), then func(*pgx.Batch) error) error {
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].rec.Tx.ExternalID < reqs[j].rec.Tx.ExternalID })
	// The first record of an externalId is inserted; later ones in the batch are its duplicates.
	var unique []*saveReq
	dupOf := map[*saveReq]*saveReq{}
	for i, r := range reqs {
		if i > 0 && reqs[i-1].rec.Tx.ExternalID == r.rec.Tx.ExternalID {
			first := reqs[i-1]
			if d, ok := dupOf[first]; ok {
				first = d
			}
			dupOf[r] = first
			continue
		}
		unique = append(unique, r)
	}
	recs := make([]*screening.Record, len(unique))
	for i, r := range unique {
		recs[i] = r.rec
	}
	args, err := insertArgs(tenant, recs, now)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	setTenant(b)
	b.Queue(lockAccountsSQL, accountLockKeys(tenant, recs))
	inserted := map[string]bool{}
	// The insert adds the batch's counts to the dashboard's rollups (screening_rollup.go).
	b.Queue(rollupInsertSQL, rollupArgs(args, recs)...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var ext string
			if err := rows.Scan(&ext); err != nil {
				return err
			}
			inserted[ext] = true
		}
		return rows.Err()
	})
	if then != nil {
		if err := then(b); err != nil {
			return err
		}
	}
	if err := q.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("insert transactions: %w", err)
	}
	var missing []string
	for _, r := range unique {
		if !inserted[r.rec.Tx.ExternalID] {
			missing = append(missing, r.rec.Tx.ExternalID)
		}
	}
	originals := map[string]screening.Summary{}
	if len(missing) > 0 {
		// Through the key to the one partition its timestamp names (migration 0043).
		rows, err := q.Query(ctx, `select t.id::text, t.external_id, t.outcome, t.risk_level, t.aggregate_score::float8, t.total_latency_ms
			from transaction_keys k join transactions t on t.id = k.transaction_id and t.transaction_timestamp = k.transaction_timestamp
			where k.tenant_id = $1 and k.external_id = any($2) and t.tenant_id = $1`, string(tenant), missing)
		if err != nil {
			return fmt.Errorf("read originals: %w", err)
		}
		for rows.Next() {
			var sum screening.Summary
			var outcome string
			if err := rows.Scan(&sum.TransactionID, &sum.ExternalID, &outcome, &sum.RiskLevel, &sum.AggregateScore, &sum.TotalLatencyMs); err != nil {
				rows.Close()
				return err
			}
			sum.Outcome = rules.Outcome(outcome)
			originals[sum.ExternalID] = sum
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	for _, r := range unique {
		ext := r.rec.Tx.ExternalID
		if !inserted[ext] {
			sum, ok := originals[ext]
			if !ok {
				r.err = screening.ErrHistoryChanged // screened again by the caller
				continue
			}
			r.err = screening.DuplicateError(sum)
		}
	}
	for r, first := range dupOf {
		if first.err != nil {
			r.err = first.err
			continue
		}
		res := first.rec.Result
		r.err = screening.DuplicateError(screening.Summary{TransactionID: first.rec.ID, ExternalID: first.rec.Tx.ExternalID,
			Outcome: res.Outcome, RiskLevel: res.RiskLevel, AggregateScore: res.Score, TotalLatencyMs: res.TotalLatencyMs})
	}
	return nil
}

// effectReads is what one tenant's side effects read, queued in its insert's own round trip
// (queueEffectReads) rather than in one of their own after it.
type effectReads struct {
	actor cases.Actor
	// taken case numbers, the last of them last: one for every screening of the batch that
	// would open a case, taken before the insert shows which of them are duplicates.
	// sideEffects numbers the stored ones from the first taken and gives the rest back, under
	// the counter row's lock (held since the take, until commit), so numbers stay gap-free.
	taken, last int
	officers    []postgres.UserRow
	url         string
	drafts      *draftPlan // the report drafts queued with the insert (report_drafts.go)
}

// queueEffectReads queues on b, after reqs' insert, what their side effects read: the case
// numbers (see effectReads), the compliance officers and the webhook URL; and the upserts of
// their report drafts (queueDrafts), for which it assigns the ids of the cases they would open.
// Nothing when none of reqs needs an effect.
func (s *ScreeningStore) queueEffectReads(b *pgx.Batch, tenant tenancy.TenantID, reqs []*saveReq, e *effectReads) error {
	effects := false
	for _, r := range reqs {
		effects = effects || needsEffects(r.rec)
		if r.rec.Case != nil {
			e.taken++
			r.newCaseID = cases.NewID(cases.PrefixCase)
		}
	}
	if !effects {
		return nil
	}
	e.actor = cases.Actor{At: s.db.Now().UTC()}
	if e.taken > 0 {
		b.Queue(postgres.TakeCaseNumbersSQL, string(tenant), e.actor.At.Year(), e.taken).QueryRow(func(row pgx.Row) error {
			return row.Scan(&e.last)
		})
		q, args, err := postgres.ComplianceOfficersQuery(tenant).ToSql()
		if err != nil {
			return fmt.Errorf("build sql: %w", err)
		}
		b.Queue(q, args...).Query(func(rows pgx.Rows) error {
			var err error
			e.officers, err = pgx.CollectRows(rows, pgx.RowToStructByName[postgres.UserRow])
			return err
		})
	}
	b.Queue(postgres.WebhookURLSQL, string(tenant)).QueryRow(func(row pgx.Row) error {
		if err := row.Scan(&e.url); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		return nil
	})
	// After the case numbers, as when the drafts had a round trip of their own: every
	// committer that takes both locks takes them in one order.
	var err error
	e.drafts, err = s.queueDrafts(b, tenant, reqs, e.actor.At)
	return err
}

// giveBackCaseNumbersSQL returns case numbers taken and not used to the (tenant, year) counter;
// only the transaction that took them, still holding the row's lock, runs it.
const giveBackCaseNumbersSQL = `update case_counters set last_value = last_value - $3 where tenant_id = $1 and year = $2`

// sideEffects queues on w what the newly stored screenings of reqs cause (those commitTenant
// left without error): their automatic cases (numbered from the numbers e took, each case with
// its timeline, audit, case.created webhook, officers' email and dashboard notification), their
// transaction.screened webhooks, the effects of the report drafts e queued, and their
// retro-screening jobs, with e's reads.
func (s *ScreeningStore) sideEffects(ctx context.Context, w *postgres.Pipelined, tenant tenancy.TenantID, reqs []*saveReq, e *effectReads) error {
	var stored, withCase []*saveReq
	var params []cases.NewParams
	for _, r := range reqs {
		if r.err != nil || !needsEffects(r.rec) { // a duplicate, or nothing to do
			continue
		}
		stored = append(stored, r)
		if c := r.rec.Case; c != nil {
			id := r.rec.ID
			withCase = append(withCase, r)
			params = append(params, cases.NewParams{ID: r.newCaseID, Type: c.Type, Priority: c.Priority, Title: c.Title,
				Description: c.Description, RelatedTransactionID: &id, Tags: []string{"screening"}})
		}
	}
	if len(stored) == 0 && e.taken == 0 {
		return nil
	}
	w.Urls()[tenant], w.Officers()[tenant] = e.url, e.officers
	// The queued writes run after the reads of every tenant of the batch: each tenant's are
	// preceded by its own setting.
	if _, err := w.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
		return err
	}
	if unused := e.taken - len(params); unused > 0 {
		if _, err := w.Exec(ctx, giveBackCaseNumbersSQL, string(tenant), e.actor.At.Year(), unused); err != nil {
			return err
		}
	}
	if len(params) > 0 {
		if err := postgres.PrepareAutomaticCases(tenant, params); err != nil {
			return fmt.Errorf("automatic case: %w", err)
		}
		w.SetRowsHint(len(params))
		cs, err := s.db.WriteCases(ctx, w, tenant, params, e.actor, e.last-e.taken+len(params))
		if err != nil {
			return fmt.Errorf("automatic case: %w", err)
		}
		for i, r := range withCase {
			r.caseID = cs[i].ID
		}
	}
	if err := s.draftEffects(ctx, w, tenant, e.drafts); err != nil { // report_drafts.go
		return err
	}
	for _, r := range stored {
		rec := r.rec
		res := rec.Result
		if res.Outcome != rules.Approve {
			if err := s.db.QueueWebhook(ctx, w, tenant, webhook.EventTransactionScreened, screenedEvent(rec, r.caseID)); err != nil {
				return err
			}
		}
		if res.RetroScreening {
			args := screening.RetroArgs{TenantID: tenant, TransactionID: rec.ID, Engines: screening.SkippedEngines(res)}
			if err := s.db.Enqueue(ctx, w, args, retroOpts()); err != nil {
				return err
			}
		}
	}
	return nil
}

// screenedEvent is the data of the transaction.screened webhook (docs/guide/screening.md).
func screenedEvent(rec *screening.Record, caseID string) screenedData {
	res := rec.Result
	d := screenedData{TransactionID: rec.ID, ExternalID: rec.Tx.ExternalID, Outcome: string(res.Outcome),
		RiskLevel: res.RiskLevel, AggregateScore: res.Score, Actions: res.Actions, Amount: rec.Tx.Amount.String(),
		Currency: rec.Tx.Currency, SenderAccountNumber: rec.Tx.SenderAccountNumber}
	if caseID != "" {
		d.CaseID = &caseID
	}
	return d
}

// screenedData is the transaction.screened webhook's data. Its fields are in the order of their
// JSON names, so that it encodes to the very bytes the map it replaced did (encoding/json sorts
// a map's keys; TestScreenedEventJSON); a struct spares the reflection over the map's values.
type screenedData struct {
	Actions             []string `json:"actions"`
	AggregateScore      float64  `json:"aggregateScore"`
	Amount              string   `json:"amount"`
	CaseID              *string  `json:"caseId"`
	Currency            string   `json:"currency"`
	ExternalID          string   `json:"externalId"`
	Outcome             string   `json:"outcome"`
	RiskLevel           string   `json:"riskLevel"`
	SenderAccountNumber string   `json:"senderAccountNumber"`
	TransactionID       string   `json:"transactionId"`
}

// retroOpts are the River options of a retro-screening job: it runs a minute after the
// screening (an outage is rarely over sooner) and is retried with River's backoff while the
// engine keeps failing.
func retroOpts() *river.InsertOpts {
	return &river.InsertOpts{ScheduledAt: time.Now().Add(screening.RetroDelay), MaxAttempts: 25}
}

// RecordRetro implements jobs.RetroStore: it stores the re-run's verdicts and, when the re-run
// found something and the transaction has no automatic case yet, opens one (with its email,
// notification and webhook) in the same transaction. It returns the case id ("" when none).
func (s *ScreeningStore) RecordRetro(ctx context.Context, st screening.Stored, verdicts []screening.EngineVerdict,
	agg screening.Aggregate, decision *screening.CaseDecision, engines []string) (string, error) {
	tenant := st.Tx.TenantID
	ev, err := postgres.EncodeVerdicts(verdicts)
	if err != nil {
		return "", err
	}
	var caseID string
	err = s.db.InTenant(ctx, tenant, func(tx pgx.Tx) error {
		if decision != nil {
			var existing *string
			err := tx.QueryRow(ctx, `select id from cases where tenant_id = $1 and related_transaction_id = $2 limit 1`,
				string(tenant), st.ID).Scan(&existing)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("read case of transaction: %w", err)
			}
			if existing == nil {
				id := st.ID
				var b strings.Builder
				fmt.Fprintf(&b, "Retro-screening of transaction %s (%s skipped at screening time) found: outcome %s, score %.2f.",
					st.Tx.ExternalID, strings.Join(engines, ", "), prose.Enum(string(agg.Outcome)), agg.Score)
				for _, v := range verdicts {
					for _, r := range v.RulesTriggered {
						fmt.Fprintf(&b, " %s (%s, %d).", r.Name, r.Category, r.RiskScore)
					}
				}
				c, err := s.db.CreateCaseTx(ctx, tx, tenant, cases.NewParams{Type: decision.Type, Priority: decision.Priority,
					Title:       fmt.Sprintf("Retro-screening: %s on transaction %s", prose.Enum(string(agg.Outcome)), st.Tx.ExternalID),
					Description: b.String(), RelatedTransactionID: &id, Tags: []string{"screening", "retro-screening"}})
				if err != nil {
					return err
				}
				caseID = c.ID
			} else {
				caseID = *existing
			}
		}
		_, err := tx.Exec(ctx, `insert into retro_screenings (id, tenant_id, transaction_id, engines, outcome, score,
			engine_verdicts, case_id, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			screening.NewID("rscr_"), string(tenant), st.ID, engines, string(agg.Outcome), int(agg.Score+0.5), string(ev),
			postgres.NullIfEmpty(caseID), s.db.Now())
		return err
	})
	return caseID, err
}
