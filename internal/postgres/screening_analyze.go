package postgres

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// youngTable keeps the planner's statistics of a young transactions table current while this
// process fills it. The screening statements are prepared once per held connection with
// generic plans (docs/screening.md "Performance design"), and a plan made while the table is
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
// stored since it started: a table that is young relative to the load. On a table of millions
// of rows the check is one catalog read, five or six times in a process's life.
type youngTable struct {
	db      *DB
	stored  atomic.Int64
	next    atomic.Int64
	running atomic.Bool
}

func newYoungTable(db *DB) *youngTable {
	y := &youngTable{db: db}
	y.next.Store(500)
	return y
}

// added counts n stored screenings and starts a check when a threshold is crossed.
func (y *youngTable) added(n int) {
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

// check analyses transactions when its row estimate is below twice stored.
func (y *youngTable) check(stored int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var estimate float64
	if err := y.db.Pool.QueryRow(ctx, `select reltuples from pg_class where oid = 'transactions'::regclass`).Scan(&estimate); err != nil {
		y.db.logger.Warn("screening: reading the transactions table's row estimate", "err", err)
		return
	}
	if estimate >= float64(2*stored) {
		return
	}
	// The pool's connections act as complyd_app, which does not own the table (ANALYZE would
	// only warn and skip it); the login role of DATABASE_URL ran the migrations and does.
	conn, err := pgx.ConnectConfig(ctx, y.db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		y.db.logger.Warn("screening: connecting to analyse the young transactions table", "err", err)
		return
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var owner bool
	if err := conn.QueryRow(ctx, `select pg_has_role(current_user, relowner, 'USAGE') from pg_class
		where oid = 'transactions'::regclass`).Scan(&owner); err != nil || !owner {
		y.db.logger.Warn("screening: the database user does not own the transactions table, so it cannot analyse it early; "+
			"autovacuum will, within a minute", "err", err)
		return
	}
	// A tenth of the default sample: the plans this analysis is for only need to know that the
	// table is no longer empty and which columns are selective, and 3,000 sampled rows tell that
	// as well as 30,000. The full sample took 0.7-0.8 s of a core at 17,000 rows under load (the
	// detoasted verdicts are most of it), enough to add 40-60 ms to the screenings of that second
	// on a two-core host; this one took 0.15-0.18 s. Autovacuum's own analyses, soon after, use the
	// server's target.
	if _, err := conn.Exec(ctx, `set default_statistics_target = 10`); err != nil {
		y.db.logger.Warn("screening: setting the young-table analysis' sample size", "err", err)
		return
	}
	t0 := time.Now()
	if _, err := conn.Exec(ctx, `analyze transactions`); err != nil {
		y.db.logger.Warn("screening: analysing the young transactions table", "err", err)
		return
	}
	y.db.logger.Info("screening: analysed the young transactions table", "estimated_rows_before", int64(estimate),
		"stored_by_this_process", stored, "took", time.Since(t0))
}
