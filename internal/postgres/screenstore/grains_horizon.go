package screenstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// How long the grains are kept (docs/design/screening-performance.md, issue 54).
//
// account_activity_grains holds every account's days, hours and minutes since its first
// transaction: about 820 bytes a stored screening, the largest structure of a database with a
// year of history (8.2 GB of 22 GB at 10 million transactions), and it grew with all of history
// while the transactions themselves are partitioned, archived and dropped. The prefetch of a
// screening at ts reads grains of [ts - 90 days, ts] only, so grains older than that are never
// read for a screening of a recent transaction. They are pruned once a day, and kept for
// GrainsKept, the longest window plus 30 days: a transaction that reaches complyd up to 29 days
// after its timestamp (a late batch, a back-dated import) is still screened from the grains.
// An older one (lateAfter) is screened from its account's raw rows (prefetchLateSQL), which
// the transactions keep for the tenant's retention: the same figures, exactly, at the cost of
// reading every transaction of the account's 90 days, so only for the screenings that need it.
//
// The horizon is a function of the clock, not a stored value: the pruning job deletes buckets
// before GrainsCutoff(now), and a screening whose window starts within a day of that reads raw
// rows, so neither needs to tell the other anything, whatever the number of replicas (their
// clocks agree to far better than the day's margin).
const GrainsKept = 120 * 24 * time.Hour

// historyWindow is the longest window the prefetch reads (boundsAt's lo).
const historyWindow = 90 * 24 * time.Hour

// lateAfter is how old a screening's timestamp may be, against now, for its windows to be read
// from the grains: its window starts at ts - 90 days, which must be a day after the cutoff
// (29 days).
const lateAfter = GrainsKept - historyWindow - 24*time.Hour

// GrainsCutoff is the first bucket the grains keep at now: the start of now's UTC day less
// GrainsKept. The pruning job deletes the buckets before it; so does complyd-seedhistory, which
// never writes them.
func GrainsCutoff(now time.Time) time.Time { return utcDay(now).Add(-GrainsKept) }

// late reports whether a screening at ts, at now, reads its windows from the raw rows.
func late(ts, now time.Time) bool { return ts.Before(now.Add(-lateAfter)) }

// GrainsPruner deletes the grains before the cutoff (the store of jobs.GrainsWorker).
type GrainsPruner struct {
	db *postgres.DB
	// Batch is how many accounts one transaction prunes (default 500).
	Batch int
	// Pause, when set, is called between transactions (the job's way to give way to
	// screening); an error stops the pass.
	Pause func(context.Context) error
}

// NewGrainsPruner returns the pruner of db's grains.
func NewGrainsPruner(db *postgres.DB) *GrainsPruner { return &GrainsPruner{db: db} }

// pruneAccountsSQL pages the tenant's accounts whose activity started before the cutoff ($3),
// in key order after $2: an account whose first transaction is after the cutoff has no bucket
// before it.
const pruneAccountsSQL = `select account from account_versions where tenant_id = $1 and account > $2 and first_at < $3
	order by account limit $4`

// pruneGrainsSQL deletes those accounts' buckets before the cutoff. The rows are locked with
// SKIP LOCKED first, so the pass never waits for a screening's commit (a late transaction's
// upsert of an old bucket): it cannot take part in a deadlock with one, and a bucket it skipped
// goes at the next pass.
const pruneGrainsSQL = `delete from account_activity_grains a using (select g.ctid from account_activity_grains g
	where g.tenant_id = $1 and g.account = any($2::text[]) and g.bucket < $3 for update skip locked) d
	where a.ctid = d.ctid and a.tenant_id = $1`

// Prune deletes every tenant's grains before before (GrainsCutoff of the pass's now), a
// transaction per Batch accounts under the tenant's row-level security, and returns how many
// it deleted.
func (p *GrainsPruner) Prune(ctx context.Context, before time.Time) (int64, error) {
	tenants, err := p.db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, t := range tenants {
		n, err := p.pruneTenant(ctx, t, before)
		total += n
		if err != nil {
			return total, fmt.Errorf("prune grains of tenant %s: %w", t, err)
		}
	}
	return total, nil
}

func (p *GrainsPruner) pruneTenant(ctx context.Context, t tenancy.TenantID, before time.Time) (int64, error) {
	batch := p.Batch
	if batch <= 0 {
		batch = 500
	}
	var total int64
	after := ""
	for {
		var accts []string
		err := p.db.InTenant(ctx, t, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, pruneAccountsSQL, string(t), after, before, batch)
			if err != nil {
				return err
			}
			if accts, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil || len(accts) == 0 {
				return err
			}
			tag, err := tx.Exec(ctx, pruneGrainsSQL, string(t), postgres.TextArray(accts), before)
			total += tag.RowsAffected()
			return err
		})
		if err != nil {
			return total, err
		}
		if len(accts) < batch {
			return total, nil
		}
		after = accts[len(accts)-1]
		if p.Pause != nil {
			if err := p.Pause(ctx); err != nil {
				return total, err
			}
		}
	}
}
