package screenstore_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// seedTx stores a minimal screened transaction of account acct at ts for tenant.
func seedTx(ctx context.Context, t *testing.T, db *postgres.DB, tenant tenancy.TenantID, ext, acct, amount string, ts time.Time) {
	t.Helper()
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency,
			amount_ngn, sender_account_number, sender_name, device_id, transaction_timestamp, verdict_id, outcome, risk_level,
			aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
			values (gen_random_uuid(), $1, $2, 'TRANSFER', 'MOBILE_APP', $3::numeric, 'NGN', $3::numeric, $4, 'Seed', 'dev-' || $4,
			$5, 'vrd_seed', 'REVIEW', 'MEDIUM', 41.5, '{}', '[]', 7, $5, $5)`, string(tenant), ext, amount, acct, ts)
		return err
	}))
}

// newScreeningStore starts a screening store with options o on a fresh database, stopped when
// the test ends.
func newScreeningStore(t testing.TB, o screenstore.ScreeningStoreOptions) (context.Context, *postgres.DB, *screenstore.ScreeningStore) {
	t.Helper()
	db := pgtest.DB(t)
	return context.Background(), db, screeningStoreOn(t, db, o)
}

// freshScreeningStore is newScreeningStore on a database of its own, with its admin URL: for tests
// that write rows of fixed ids (so that `go test -count=N` can run them again) or count the
// database's table statistics.
func freshScreeningStore(t testing.TB, o screenstore.ScreeningStoreOptions) (context.Context, *postgres.DB, string, *screenstore.ScreeningStore) {
	t.Helper()
	db, url := pgtest.Fresh(t)
	return context.Background(), db, url, screeningStoreOn(t, db, o)
}

// screeningStoreOn is a screening store on db, stopped when t ends.
func screeningStoreOn(t testing.TB, db *postgres.DB, o screenstore.ScreeningStoreOptions) *screenstore.ScreeningStore {
	st := screenstore.NewScreeningStore(db, o)
	t.Cleanup(st.Close)
	return st
}

// TestScreeningPrefetchBatched fires many concurrent prefetches for two tenants, so that they
// share batched reads, and checks that every screening gets exactly its own account's history,
// its own idempotency answer and its own stored KYC, and nothing of the other tenant's.
func TestScreeningPrefetchBatched(t *testing.T) {
	t.Parallel()
	ctx, db, _, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{Readers: 2, MaxBatch: 64})
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	now := time.Now().UTC().Truncate(time.Microsecond)
	const accounts = 40
	acct := func(i int) string { return fmt.Sprintf("%010d", 3000000000+i) }
	// Tenant a: account i has i+1 transactions of 100 NGN in the last 24 hours, one 30 days ago
	// (outside the 24-hour sum, inside the 90-day statistics), and one 200 days ago (only the
	// last activity of an otherwise dormant account 0 would see it).
	for i := range accounts {
		for k := 0; k <= i%5; k++ {
			seedTx(ctx, t, db, a.ID, fmt.Sprintf("a-%d-%d", i, k), acct(i), "100", now.Add(-time.Duration(k+1)*time.Hour))
		}
		seedTx(ctx, t, db, a.ID, fmt.Sprintf("a-%d-old", i), acct(i), "5000", now.Add(-30*24*time.Hour))
	}
	seedTx(ctx, t, db, a.ID, "a-dormant", acct(99), "10", now.Add(-200*24*time.Hour))
	// Tenant b: the same account numbers with one large transaction each.
	for i := range accounts {
		seedTx(ctx, t, db, b.ID, fmt.Sprintf("b-%d", i), acct(i), "777777", now.Add(-2*time.Hour))
	}
	insertApp(t, applicationstore.NewKYCStore(db), a.ID, "kyc_prefetch_a", "22200000001", "APPROVED", now.Add(-time.Hour))

	type probe struct {
		tx      *screening.Transaction
		withKYC bool
		check   func(t *testing.T, p screening.Prefetch)
	}
	var probes []probe
	for round := range 5 {
		for i := range accounts {
			probes = append(probes, probe{
				tx: &screening.Transaction{TenantID: a.ID, ExternalID: fmt.Sprintf("new-%d-%d", round, i), SenderAccountNumber: acct(i),
					SenderBVN: "22200000001", Timestamp: now},
				withKYC: i%2 == 0,
				check: func(t *testing.T, p screening.Prefetch) {
					require.Nil(t, p.Existing)
					require.Equal(t, i%5+1, p.History.Count24h, "account %d", i)
					require.Equal(t, fmt.Sprint(100*(i%5+1)), p.History.Sum24hNGN.String(), "account %d", i)
					require.Equal(t, 1, p.History.Count60m)
					require.Equal(t, i%5+2, p.History.Amounts.Count)
					require.Equal(t, []string{"dev-" + acct(i)}, p.Profile.KnownDevices)
					require.NotNil(t, p.History.LastActivityAt)
					require.True(t, p.History.LastActivityAt.Equal(now.Add(-time.Hour)))
					require.Equal(t, i%2 == 0, p.KYC.Found)
					if p.KYC.Found {
						require.Equal(t, "kyc_prefetch_a", p.KYC.ExternalRef)
						require.Equal(t, "APPROVED", p.KYC.Status)
					}
				},
			}, probe{
				tx: &screening.Transaction{TenantID: b.ID, ExternalID: fmt.Sprintf("b-%d", i), SenderAccountNumber: acct(i),
					SenderBVN: "22200000001", Timestamp: now},
				withKYC: true,
				check: func(t *testing.T, p screening.Prefetch) {
					require.NotNil(t, p.Existing, "b-%d is stored", i)
					require.Equal(t, "REVIEW", string(p.Existing.Outcome))
					require.Equal(t, "MEDIUM", p.Existing.RiskLevel)
					require.InDelta(t, 41.5, p.Existing.AggregateScore, 1e-9)
					require.Equal(t, int64(7), p.Existing.TotalLatencyMs)
					require.Equal(t, 1, p.History.Count24h)
					require.Equal(t, "777777", p.History.Sum24hNGN.String())
					require.False(t, p.KYC.Found, "tenant b has no KYC application")
				},
			})
		}
	}
	probes = append(probes, probe{
		tx: &screening.Transaction{TenantID: a.ID, ExternalID: "dormant-now", SenderAccountNumber: acct(99), Timestamp: now},
		check: func(t *testing.T, p screening.Prefetch) {
			require.Equal(t, 0, p.History.Count24h)
			require.Equal(t, 0, p.History.Amounts.Count)
			require.Equal(t, "0", p.History.Sum24hNGN.String())
			require.NotNil(t, p.History.LastActivityAt)
			require.True(t, p.History.LastActivityAt.Equal(now.Add(-200*24*time.Hour)))
			require.Empty(t, p.Profile.KnownDevices)
		},
	})
	results := make([]screening.Prefetch, len(probes))
	errs := make([]error, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Go(func() { results[i], errs[i] = st.Prefetch(ctx, p.tx, p.withKYC, admission.PaceOf(ctx)) })
	}
	wg.Wait()
	for i, p := range probes {
		require.NoError(t, errs[i])
		t.Run(p.tx.ExternalID, func(t *testing.T) { p.check(t, results[i]) })
	}

	// A caller that has given up is answered with its context's error, not left waiting.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := st.Prefetch(cctx, probes[0].tx, true, admission.PaceOf(cctx))
	require.ErrorIs(t, err, context.Canceled)
}

// record is a screened transaction of tenant ready to Save; withCase gives it a REVIEW verdict
// and an automatic case of type caseType.
// record is a screening of ext from an account of its own (derived from ext) with no history:
// the store stores a record only on the account history it was screened on.
func record(tenant tenancy.TenantID, ext, caseType string) *screening.Record {
	h := fnv.New32a()
	_, _ = h.Write([]byte(ext))
	tx := &screening.Transaction{TenantID: tenant, ExternalID: ext, Type: "TRANSFER", Channel: "MOBILE_APP",
		Amount: decimal.RequireFromString("1000"), SenderAccountNumber: fmt.Sprintf("31%08d", h.Sum32()%100_000_000), SenderName: "Ada Obi",
		Timestamp: time.Now().UTC().Truncate(time.Microsecond)}
	tx.Normalize()
	rec := &screening.Record{ID: screening.NewTransactionID(), VerdictID: screening.NewID("vrd_"), Tx: tx,
		AmountNGN: tx.Amount, ProcessedAt: time.Now().UTC(),
		Result: screening.Result{Aggregate: screening.Aggregate{Outcome: rules.Approve, RiskLevel: "LOW", Actions: []string{}},
			Breakdown: []screening.EngineVerdict{{Category: screening.CategoryRegulatory, Outcome: rules.Approve}}}}
	if caseType != "" {
		rec.Result.Outcome, rec.Result.RiskLevel, rec.Result.Score = rules.Review, "MEDIUM", 50
		rec.Case = &screening.CaseRequest{Type: caseType, Priority: "MEDIUM", Title: "REVIEW on " + ext, Description: "test"}
	}
	return rec
}

// TestScreeningCommitBatchFailureIsolated saves good screenings concurrently with one whose case
// cannot be created (in one case-lane batch when they queue together; the case lane does not
// linger by default, so that is likely, not certain): the failed transaction rolls back on the held
// connection, the bad screening fails with its own error and the others are stored with their
// cases, and the connection goes on serving later batches, with gap-free case numbers.
func TestScreeningCommitBatchFailureIsolated(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	recs := []*screening.Record{record(ten.ID, "good-1", "AML_ALERT"), record(ten.ID, "bad", "NOT_A_TYPE"),
		record(ten.ID, "good-2", "AML_ALERT"), record(ten.ID, "plain", "")}
	type out struct {
		caseID string
		err    error
	}
	outs := make([]out, len(recs))
	var wg sync.WaitGroup
	for i, r := range recs {
		wg.Go(func() { outs[i].caseID, outs[i].err = st.Save(ctx, r) })
	}
	wg.Wait()
	require.NoError(t, outs[0].err)
	require.NotEmpty(t, outs[0].caseID)
	require.Error(t, outs[1].err)
	require.Equal(t, apperr.Validation, apperr.CodeOf(outs[1].err))
	require.NoError(t, outs[2].err)
	require.NotEmpty(t, outs[2].caseID)
	require.NoError(t, outs[3].err)
	require.Empty(t, outs[3].caseID)

	// Later batches on the same connections work, and the numbers have no gap.
	id, err := st.Save(ctx, record(ten.ID, "good-3", "AML_ALERT"))
	require.NoError(t, err)
	require.NotEmpty(t, id)
	var n, maxNum int
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select count(*), max(split_part(case_number, '-', 3)::int) from cases where tenant_id = $1`,
			string(ten.ID)).Scan(&n, &maxNum)
	}))
	require.Equal(t, 3, n)
	require.Equal(t, 3, maxNum)
	for _, ext := range []string{"good-1", "good-2", "good-3", "plain"} {
		p, err := st.Prefetch(ctx, &screening.Transaction{TenantID: ten.ID, ExternalID: ext, SenderAccountNumber: "3100000001",
			Timestamp: time.Now()}, false, admission.PaceOf(ctx))
		require.NoError(t, err)
		require.NotNil(t, p.Existing, ext)
	}
	p, err := st.Prefetch(ctx, &screening.Transaction{TenantID: ten.ID, ExternalID: "bad", SenderAccountNumber: "3100000001",
		Timestamp: time.Now()}, false, admission.PaceOf(ctx))
	require.NoError(t, err)
	require.Nil(t, p.Existing, "the failed screening is not stored")
}

// TestScreeningGetByID reads a stored transaction by its id (the retro-screening worker and
// GET /transactions/:id do): found in its tenant whatever the id's letter case, NOT_FOUND in
// another tenant and for an id that is not a uuid (no query error).
func TestScreeningGetByID(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	seedTx(ctx, t, db, a.ID, "get-1", "0123456789", "100", time.Now())
	var id string
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(a.ID)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "select id::text from transactions where external_id = 'get-1'").Scan(&id)
	}))
	for _, v := range []string{id, strings.ToUpper(id)} {
		got, err := st.Get(ctx, a.ID, v)
		require.NoError(t, err)
		require.Equal(t, id, got.ID)
		require.Equal(t, "get-1", got.Tx.ExternalID)
	}
	for _, c := range []struct {
		tenant tenancy.TenantID
		id     string
	}{{b.ID, id}, {a.ID, "not-a-uuid"}, {a.ID, id + "0"}, {a.ID, ""}, {a.ID, "urn:uuid:" + id}, {a.ID, "{" + id + "}"}} {
		_, err := st.Get(ctx, c.tenant, c.id)
		require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "%s %q: %v", c.tenant, c.id, err)
	}
}

// TestScreeningSaveRefusesChangedHistory: a record screened on an account history that another
// screening of the account (on another replica) has since extended is not stored: Save answers
// ErrHistoryChanged, and the same record on the history as it now is is stored.
func TestScreeningSaveRefusesChangedHistory(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	first := record(ten.ID, "hist-1", "")
	_, err := st.Save(ctx, first)
	require.NoError(t, err)
	for i, caseType := range []string{"", "AML_ALERT"} { // the plain lane and the case lane
		late := record(ten.ID, "hist-2"+caseType, caseType)
		late.Tx.SenderAccountNumber, late.Tx.Timestamp = first.Tx.SenderAccountNumber, first.Tx.Timestamp.Add(time.Second)
		_, err = st.Save(ctx, late) // screened on the empty history
		require.ErrorIs(t, err, screening.ErrHistoryChanged, caseType)
		p, err := st.Prefetch(ctx, late.Tx, false, admission.PaceOf(ctx))
		require.NoError(t, err)
		require.Nil(t, p.Existing, "nothing was stored")
		require.Equal(t, i+1, p.History.Amounts.Count)
		late.History = p.History
		_, err = st.Save(ctx, late)
		require.NoError(t, err, caseType)
		first = late
	}
}

// TestTransactionCaseLookupByKey: reading a transaction (Get, as the application role under
// row-level security) finds its automatic case through the (tenant, transaction) index, reading
// at most a few cases whatever the tenant holds. With the cast t.id::text in the condition (not
// leakproof, so not an index condition under row-level security) the planner walked the
// tenant's automatic cases in creation order instead, filtering each: a transaction with no
// case (most of them) read every automatic case of the tenant (3,000 here), 184 ms per
// transaction in the benchmark's retro-screenings.
func TestTransactionCaseLookupByKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	var id string
	require.NoError(t, admin.QueryRow(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
  engine_verdicts, total_latency_ms, processed_at, created_at)
values (gen_random_uuid(), $1::uuid, 'lone', 'TRANSFER', 'MOBILE', 100, 'NGN', 100, '0123456789', 'S', now(), 'v',
  'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()) returning id::text`, string(f.ID)).Scan(&id))
	_, err := admin.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
  related_transaction_id, created_at, updated_at)
select 'case_' || $1::text || '_' || g, $1::uuid, 'CASE-' || g, 'TRANSACTION_REVIEW', 'MEDIUM', 't', 'd', 'OPEN',
  gen_random_uuid()::text, now() - g * interval '1 minute', now() from generate_series(1, 3000) g`, string(f.ID))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `analyze cases`)
	require.NoError(t, err)

	tx := pgtest.AsApp(ctx, t, admin, f.ID)
	q, args, err := screenstore.TransactionByIDSQL(f.ID, id)
	require.NoError(t, err)
	rows, err := tx.Query(ctx, q, args...)
	require.NoError(t, err)
	n := 0
	for rows.Next() {
		n++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, 1, n)
	read := pgtest.TableReads(ctx, t, tx, "cases")
	require.LessOrEqual(t, read, int64(5), "reading one transaction read %d cases", read)
}

// TestScreeningCaseNumbersWithDuplicates: the case lane takes a number for every screening of
// a batch that would open a case before the insert tells which are duplicates, and gives back
// those it does not use: a duplicate alone, or among new screenings, leaves no gap in the
// tenant's case numbers, and the counter ends on the last number used.
func TestScreeningCaseNumbersWithDuplicates(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	_, err := st.Save(ctx, record(ten.ID, "dup-1", "AML_ALERT"))
	require.NoError(t, err)

	_, err = st.Save(ctx, record(ten.ID, "dup-1", "AML_ALERT"))
	require.Equal(t, apperr.DuplicateExternalID, apperr.CodeOf(err), "a replay alone: %v", err)

	recs := []*screening.Record{record(ten.ID, "dup-1", "AML_ALERT"), record(ten.ID, "dup-2", "AML_ALERT"),
		record(ten.ID, "dup-1", "AML_ALERT"), record(ten.ID, "dup-3", "AML_ALERT"), record(ten.ID, "dup-4", "")}
	errs := make([]error, len(recs))
	var wg sync.WaitGroup
	for i, r := range recs {
		wg.Go(func() { _, errs[i] = st.Save(ctx, r) })
	}
	wg.Wait()
	for i, r := range recs {
		if r.Tx.ExternalID == "dup-1" {
			require.Equal(t, apperr.DuplicateExternalID, apperr.CodeOf(errs[i]), "%v", errs[i])
		} else {
			require.NoError(t, errs[i])
		}
	}
	id, err := st.Save(ctx, record(ten.ID, "dup-5", "AML_ALERT"))
	require.NoError(t, err)
	require.NotEmpty(t, id)

	var numbers []int
	var last int
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select split_part(case_number, '-', 3)::int from cases where tenant_id = $1 order by 1`, string(ten.ID))
		if err != nil {
			return err
		}
		if numbers, err = pgx.CollectRows(rows, pgx.RowTo[int]); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select last_value from case_counters where tenant_id = $1`, string(ten.ID)).Scan(&last)
	}))
	require.Equal(t, []int{1, 2, 3, 4}, numbers, "dup-1, dup-2, dup-3, dup-5: no number lost to a duplicate")
	require.Equal(t, 4, last)
}
