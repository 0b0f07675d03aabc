package screenstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
)

// youngTable keeps the planner's statistics of a young transactions table current while this
// process fills it. The screening statements are prepared once per held connection with
// generic plans (docs/guide/screening.md "Performance design"), and a plan made while the table is
// empty believes it holds a row or two: it reads a tenant's history, its idempotency check and
// its last activity by scanning the tenant's rows through whichever index leads with tenant_id,
// which costs nothing at ten rows and a full scan per screening at thirty thousand. Autovacuum
// analyses the table at most once a minute (autovacuum_naptime), so a new tenant's first
// minute at a few hundred screenings a second was spent in those scans, and answered at a
// fraction of its normal rate (issue 15, "from an empty database"). ANALYZE replaces the
// statistics and invalidates the cached plans, so the next batch is planned with the indexes
// it needs.
//
// After 500, 2,000, 8,000, … screenings stored by this process (×4 each time), the table is
// analysed when PostgreSQL's estimate of its rows is below twice what this process has
// stored since it started: a table that is young relative to the load. The side tables that
// automatic cases fill (sideTables) are analysed at the same times when they are young too. On
// tables of millions of rows the check is two catalog reads, five or six times in a process's
// life.
//
// transactions is partitioned by month (migration 0043), and what is young is the current
// month's partition: it starts empty on the first of every month, and a generic plan made
// while it is empty reads it through the tenant's index as the unpartitioned table's was
// (each partition's part of a plan is made with that partition's statistics). So the count
// and the thresholds start again at each UTC month, and the estimate compared is the current
// partition's. The parent's own statistics (the sample over all partitions that estimates
// the joins above the partitions) are never made by autovacuum, which analyses partitions
// only: while the parent has no analysis on record, the check analyses the parent, which
// analyses every partition too.
type youngTable struct {
	db      *postgres.DB
	stored  atomic.Int64
	next    atomic.Int64
	month   atomic.Int64 // the UTC month (year*12 + month) stored counts
	running atomic.Bool
}

func newYoungTable(db *postgres.DB) *youngTable {
	y := &youngTable{db: db}
	y.next.Store(500)
	y.month.Store(utcMonth(db.Now()))
	return y
}

// utcMonth numbers t's UTC month.
func utcMonth(t time.Time) int64 {
	t = t.UTC()
	return int64(t.Year())*12 + int64(t.Month()) - 1
}

// added counts n stored screenings and starts a check when a threshold is crossed.
func (y *youngTable) added(n int) {
	if m, cur := utcMonth(y.db.Now()), y.month.Load(); m != cur && y.month.CompareAndSwap(cur, m) {
		// A new month: its partition is young again.
		y.stored.Store(0)
		y.next.Store(500)
	}
	total := y.stored.Add(int64(n))
	next := y.next.Load()
	if total < next || !y.next.CompareAndSwap(next, next*4) || !y.running.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer y.running.Store(false)
		y.check(total)
	}()
}

// sideTables are the tables that the automatic cases of the screenings counted here fill, and
// that are read one row at a time by tenant and id: an officer's email and a webhook delivery
// by their workers, a case by the dashboard and the API (GET /cases/:id, its updates). A plan
// made on such a table before it was ever analysed finds the row through the index that leads
// with tenant_id and filters on id: a scan of the tenant's rows per lookup. In a new database
// under a flood of automatic cases for a tenant with officers and a webhook endpoint, the
// workers' lookups and updates took 4.5-11 ms each in the first minute, before autovacuum's
// first analysis (the measurement log of docs/performance.md#history, fourteenth session); cases were
// still unanalysed after 60,000 screenings (fifteenth session).
var sideTables = []string{"cases", "emails", "webhook_deliveries"}

// transactionsParent is the partitioned transactions table; its partitions are
// transactions_pYYYYMM and transactions_default (migration 0043).
const transactionsParent = "transactions"

// check analyses the tables that are young relative to the load: transactions when its row
// estimate is below twice stored or it has no analysis on record (young), and a side table when
// its estimate is below half the rows PostgreSQL counts live in it (and those are at least 100).
func (y *youngTable) check(stored int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tables, fullSample, err := y.young(ctx, stored)
	if err != nil {
		y.db.Logger().Warn("screening: reading the row estimates of young tables", "err", err)
		return
	}
	if len(tables) == 0 {
		return
	}
	// The pool's connections act as complyd_app, which does not own the tables (ANALYZE would
	// only warn and skip them); the login role of DATABASE_URL ran the migrations and does.
	conn, err := pgx.ConnectConfig(ctx, y.db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		y.db.Logger().Warn("screening: connecting to analyse young tables", "err", err)
		return
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var owner bool
	if err := conn.QueryRow(ctx, `select pg_has_role(current_user, relowner, 'USAGE') from pg_class
		where oid = 'transactions'::regclass`).Scan(&owner); err != nil || !owner {
		y.db.Logger().Warn("screening: the database user does not own the tables, so it cannot analyse young ones early; "+
			"autovacuum will, within a minute", "err", err)
		return
	}
	// A tenth of the default sample: the plans this analysis is for only need to know that the
	// table is no longer empty and which columns are selective, and 3,000 sampled rows tell that
	// as well as 30,000. The full sample took 0.7-0.8 s of a core at 17,000 rows under load (the
	// detoasted verdicts are most of it), enough to add 40-60 ms to the screenings of that second
	// on a two-core host; this one took 0.15-0.18 s. Autovacuum's own analyses, soon after, use the
	// server's target. A table with no analysis on record but not young (young) gets the server's
	// target: its analysis may replace statistics that autovacuum would not renew soon.
	for _, table := range tables {
		target := "10"
		if table == transactionsParent && fullSample {
			target = "default"
		}
		if _, err := conn.Exec(ctx, "set default_statistics_target = "+target); err != nil {
			y.db.Logger().Warn("screening: setting the young-table analysis' sample size", "err", err)
			return
		}
		t0 := time.Now()
		if _, err := conn.Exec(ctx, "analyze "+pgx.Identifier{table}.Sanitize()); err != nil {
			y.db.Logger().Warn("screening: analysing a young table", "table", table, "err", err)
			return
		}
		y.db.Logger().Info("screening: analysed a young table", "table", table, "stored_by_this_process", stored,
			"took", time.Since(t0))
	}
}

// young returns the tables check analyses, transactions (or its current partition) first, and
// whether transactions is analysed at the server's statistics target rather than the check's
// small one. The current month's partition is young when its estimate is below twice what this
// process stored this month; it is analysed alone once the parent has an analysis on record,
// and through the parent (which analyses every partition) before.
//
// transactions is analysed too when its partitions hold rows but the parent has never been
// analysed, whatever their estimate: a restored database (pg_restore's index builds set the row estimate; nothing
// analyses) until autovacuum's first analysis. Without statistics the batched read's generic
// plan reads the raw rows at an account's window edges through the tenant's time index,
// filtering on the account (a tie of two one-row estimates that the smaller index wins):
// every transaction of the tenant in that slice of time, on each read (63 ms a read for a
// tenant of 60,000 accounts active an hour earlier; TestScreeningPrefetchRawRangesByKey). With
// any statistics the account's index wins. The statistics themselves cannot be asked for:
// pg_stats hides a table's under row-level security, which every tenant table forces. So this
// asks whether an analysis is on record, and since a crash or pg_stat_reset() clears that
// record while the statistics stay, such a table is analysed at the server's target: the
// analysis replaces autovacuum's statistics with as full ones, once, and is then on record.
func (y *youngTable) young(ctx context.Context, stored int64) (tables []string, fullSample bool, err error) {
	// The current month's partition (the catch-all after the last month, migration 0050, or the
	// default one before it, if the month has none), its estimate, and
	// whether the parent has an analysis on record and the partitions any rows by estimate.
	var current string
	var estimate, total float64
	var neverAnalysed bool
	if err := y.db.Pool.QueryRow(ctx, `select c.relname::text, c.reltuples, s.last_analyze is null and s.last_autoanalyze is null,
			(select coalesce(sum(greatest(l.reltuples, 0)), 0) from pg_partition_tree('transactions') t
				join pg_class l on l.oid = t.relid where t.isleaf)
		from pg_class c, pg_stat_all_tables s
		where c.oid = coalesce(to_regclass('transactions_p' || to_char($1::timestamptz at time zone 'UTC', 'YYYYMM')),
			to_regclass('transactions_after'), to_regclass('transactions_default')) and s.relid = 'transactions'::regclass`, y.db.Now()).Scan(&current, &estimate, &neverAnalysed, &total); err != nil {
		return nil, false, err
	}
	switch {
	case estimate < float64(2*stored) && neverAnalysed:
		tables = append(tables, transactionsParent) // the parent and, with it, every partition
	case estimate < float64(2*stored):
		tables = append(tables, current)
	case neverAnalysed && total > 0:
		tables, fullSample = append(tables, transactionsParent), true
	}
	// reltuples is -1 until a table is first analysed. n_live_tup is PostgreSQL's running count,
	// which the writing sessions report when they go idle, at most once a second.
	rows, err := y.db.Pool.Query(ctx, `select c.relname::text from pg_class c join pg_stat_all_tables s on s.relid = c.oid
		where c.oid = any($1::text[]::regclass[]) and s.n_live_tup >= 100 and c.reltuples < s.n_live_tup / 2
		order by c.relname`, sideTables)
	if err != nil {
		return nil, false, err
	}
	side, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, false, err
	}
	return append(tables, side...), fullSample, nil
}
