package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

var (
	_ writer = pgx.Tx(nil)
	_ writer = (*pipelined)(nil)
)

// pipelined is a writer over tx that queues every write, River jobs included, until flush, so
// that a batch of screenings opens its cases, timelines, audit records, emails, notifications
// and webhooks in a couple of round trips instead of a dozen per case. Reads go to the database
// at once (they must not depend on the queued writes); the tenant facts the effects need (the
// webhook URL, the compliance officers) the caller reads ahead, with the batch's other reads,
// and puts in urls and officers.
type pipelined struct {
	tx       pgx.Tx
	writes   []queuedWrite
	groups   map[string]int // single-row insert text → its group in writes, since the last barrier
	jobs     []river.InsertManyParams
	urls     map[tenancy.TenantID]string
	officers map[tenancy.TenantID][]userRow
	// rowsHint is how many rows a coalesced group is expected to get (the batch's cases): a
	// group's arguments are allocated for that many rows at once instead of grown row by row.
	rowsHint int
}

func newPipelined(tx pgx.Tx) *pipelined {
	return &pipelined{tx: tx, groups: map[string]int{}, urls: map[tenancy.TenantID]string{},
		officers: map[tenancy.TenantID][]userRow{}}
}

// Exec queues a write; its error, if any, comes from flush. Single-row inserts into the tables
// a batch of automatic cases writes a row per case into join the first such insert queued since
// the last tenant switch, and go as multi-row inserts (coalesce.go).
func (p *pipelined) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if isTenantSwitch(sql) {
		clear(p.groups)
	} else if width, ok := coalescibleInsert(sql, len(args)); ok {
		if i, ok := p.groups[sql]; ok {
			p.writes[i].args = append(p.writes[i].args, args...)
			p.writes[i].rows++
			return pgconn.CommandTag{}, nil
		}
		if p.rowsHint > 1 {
			args = append(make([]any, 0, width*p.rowsHint), args...)
		}
		p.groups[sql] = len(p.writes)
		p.writes = append(p.writes, queuedWrite{sql: sql, args: args, rows: 1, width: width})
		return pgconn.CommandTag{}, nil
	}
	p.writes = append(p.writes, queuedWrite{sql: sql, args: args})
	return pgconn.CommandTag{}, nil
}

// Query reads at once.
func (p *pipelined) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return p.tx.Query(ctx, sql, args...)
}

// QueryRow reads at once.
func (p *pipelined) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return p.tx.QueryRow(ctx, sql, args...)
}

// flush inserts the queued River jobs with one statement, then sends the queued writes in one
// round trip (a COMMIT queued last ends the transaction with them).
func (p *pipelined) flush(ctx context.Context, db *DB) error {
	p.jobs = mergeJobs(p.jobs)
	if len(p.jobs) > 0 {
		if _, err := db.river.InsertManyTx(ctx, p.tx, p.jobs); err != nil {
			return fmt.Errorf("enqueue %d jobs: %w", len(p.jobs), err)
		}
		p.jobs = nil
	}
	if len(p.writes) > 0 {
		var b pgx.Batch
		for _, w := range p.writes {
			w.queue(&b)
		}
		p.writes, p.groups = nil, map[string]int{}
		if err := p.tx.SendBatch(ctx, &b).Close(); err != nil {
			return fmt.Errorf("pipelined writes: %w", err)
		}
	}
	return nil
}

// mergeJobs merges the jobs of each tenant that a batch of automatic cases queues one at a
// time: the officers' send_email jobs (one per officer per case) into jobs of up to
// notify.EmailsPerJob emails, and the webhook deliveries' first attempts (two per case) into
// jobs of up to webhook.DeliveriesPerJob, in their order, at the place of the tenant's first;
// other jobs keep theirs. Every email is still sent, and every delivery attempted, at least once
// (jobs.SendEmailWorker, jobs.DeliverWebhookWorker), by a fraction of the jobs: each job is a
// River row to insert, fetch and complete (docs/guide/webhooks.md "Throughput").
func mergeJobs(jobs []river.InsertManyParams) []river.InsertManyParams {
	type group struct {
		key mergeKey
		at  int // its job in out
		ids []string
	}
	out := jobs[:0:0]
	var groups []*group
	open := map[mergeKey]*group{} // the tenant's group of a kind that still has room
	for _, j := range jobs {
		k, id, ok := mergeable(j)
		if !ok {
			out = append(out, j)
			continue
		}
		g := open[k]
		if g == nil {
			g = &group{key: k, at: len(out)}
			open[k], groups = g, append(groups, g)
			out = append(out, j) // its Args are the group's, below
		}
		if g.ids = append(g.ids, id); len(g.ids) == k.limit() {
			delete(open, k)
		}
	}
	for _, g := range groups {
		out[g.at].Args = g.key.args(g.ids)
	}
	return out
}

// mergeKey is what merged jobs share: their kind and tenant.
type mergeKey struct{ kind, tenant string }

// mergeable returns the key and the one email or delivery of a job mergeJobs merges: a
// send_email job of one email, or the first attempt of one delivery, due at once.
func mergeable(j river.InsertManyParams) (mergeKey, string, bool) {
	switch a := j.Args.(type) {
	case notify.SendEmailArgs:
		return mergeKey{a.Kind(), a.TenantID}, a.EmailID, a.EmailID != "" && len(a.EmailIDs) == 0
	case webhook.DeliverArgs:
		due := j.InsertOpts == nil || j.InsertOpts.ScheduledAt.IsZero()
		return mergeKey{a.Kind(), string(a.TenantID)}, a.DeliveryID, a.DeliveryID != "" && len(a.DeliveryIDs) == 0 && a.Attempt == 0 && due
	}
	return mergeKey{}, "", false
}

// limit is how many a merged job of k takes.
func (k mergeKey) limit() int {
	if k.kind == (notify.SendEmailArgs{}).Kind() {
		return notify.EmailsPerJob
	}
	return webhook.DeliveriesPerJob
}

// args are the arguments of k's merged job of ids.
func (k mergeKey) args(ids []string) river.JobArgs {
	if k.kind == (notify.SendEmailArgs{}).Kind() {
		return notify.SendEmailArgs{TenantID: k.tenant, EmailIDs: ids}
	}
	return webhook.DeliverArgs{TenantID: tenancy.TenantID(k.tenant), DeliveryIDs: ids}
}

// enqueue inserts a River job in tx (queued with the other writes of a *pipelined).
func (db *DB) enqueue(ctx context.Context, w writer, args river.JobArgs, opts *river.InsertOpts) error {
	switch w := w.(type) {
	case *pipelined:
		w.jobs = append(w.jobs, river.InsertManyParams{Args: args, InsertOpts: opts})
		return nil
	case pgx.Tx:
		if _, err := db.river.InsertTx(ctx, w, args, opts); err != nil {
			return fmt.Errorf("enqueue %s: %w", args.Kind(), err)
		}
		return nil
	default:
		return fmt.Errorf("enqueue %s: unsupported writer %T", args.Kind(), w)
	}
}
