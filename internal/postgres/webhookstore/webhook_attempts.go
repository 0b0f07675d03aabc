package webhookstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// The delivery workers' records are written together. Each record updates a delivery's status,
// and the table's statement trigger (migration 0018) moves the count in status_rollups from
// the old status to the new: two rows of one tenant's hour, in one of four shards, locked until
// the commit. In a flood of automatic cases a hundred workers record at once, and each waited
// for the others' commits on those few rows (pg_stat_statements, a bank's tenant at 500/s: the
// record 3.2 ms a call, 2.8 ms of it the trigger's upsert). So a record joins the ones that
// arrive while the previous write is in flight, and they are written as one statement per
// tenant: one run of the trigger, and one commit, for all of them. Alone, a record is written at
// once, as before (write_coalescer.go).

// attemptRecord is one RecordAttempt call; writeAttempts sets recorded.
type attemptRecord struct {
	d        webhook.Delivery
	prev     int
	a        webhook.Attempt
	recorded bool
}

// newAttemptWriter returns the coalescer of db's delivery records (write_coalescer.go), one
// record per delivery in a write.
func newAttemptWriter(db *postgres.DB) *postgres.WriteCoalescer[*attemptRecord] {
	return postgres.NewWriteCoalescer(func(ctx context.Context, batch []*attemptRecord) error { return writeAttempts(db, ctx, batch) },
		func(r *attemptRecord) string { return string(r.d.TenantID) + "/" + r.d.ID })
}

// recordAttemptsSQL records the attempts of deliveries of one tenant ($1) in one statement: each
// delivery is updated only while it still has its prev attempts and is PENDING or FAILED (a job
// run twice finds it moved on), and its attempt is inserted only when it was; the ids recorded
// are returned.
const recordAttemptsSQL = `with i as (
		select * from unnest($2::text[], $3::int4[], $4::text[], $5::int4[], $6::int4[], $7::text[], $8::timestamptz[],
			$9::timestamptz[], $10::timestamptz[], $11::int4[], $12::int4[], $13::text[], $14::int4[], $15::timestamptz[])
		as i(id, prev, status, attempts, last_code, last_error, next_at, delivered_at, dead_at, number, code, error, ms, at)),
	u as (update webhook_deliveries d set status = i.status, attempts = i.attempts, last_status_code = i.last_code,
			last_error = i.last_error, next_attempt_at = i.next_at, delivered_at = i.delivered_at, dead_at = i.dead_at
		from i where d.tenant_id = $1 and d.id = i.id and d.attempts = i.prev and d.status in ('PENDING', 'FAILED')
		returning d.id)
	insert into webhook_attempts (tenant_id, delivery_id, attempt, status_code, error, duration_ms, attempted_at)
	select $1, i.id, i.number, i.code, i.error, i.ms, i.at from i join u on u.id = i.id order by i.id
	returning delivery_id`

// writeAttempts writes the records, one statement per tenant, and enqueues the next attempt of
// each recorded delivery that is FAILED, all in one transaction. Without a retry to enqueue it
// is one round trip (the batch is an implicit transaction, as in inTenantBatch); with one, a
// transaction of its own, since River's insert of the jobs is a statement of its own.
func writeAttempts(db *postgres.DB, ctx context.Context, batch []*attemptRecord) error {
	retries := slices.ContainsFunc(batch, func(r *attemptRecord) bool {
		return r.d.Status == webhook.StatusFailed && r.d.NextAttemptAt != nil
	})
	b := &pgx.Batch{}
	groups := postgres.ByTenant(batch, func(r *attemptRecord) tenancy.TenantID { return r.d.TenantID },
		func(r *attemptRecord) string { return r.d.ID })
	for _, g := range groups {
		t, rs := g.Tenant(), g.Items()
		b.Queue("select set_config('app.tenant_id', $1, true)", string(t))
		b.Queue(recordAttemptsSQL, attemptArgs(t, rs)...).Query(func(rows pgx.Rows) error {
			ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			recorded := make(map[string]bool, len(ids))
			for _, id := range ids {
				recorded[id] = true
			}
			for _, r := range rs {
				r.recorded = recorded[r.d.ID]
			}
			return nil
		})
	}
	if !retries {
		if err := postgres.DbErr(db.Pool.SendBatch(ctx, b).Close()); err != nil {
			return fmt.Errorf("record webhook attempts: %w", err)
		}
		return nil
	}
	return postgres.DbErr(pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("record webhook attempts: %w", err)
		}
		var jobs []river.InsertManyParams
		for _, r := range batch {
			if !r.recorded || r.d.Status != webhook.StatusFailed || r.d.NextAttemptAt == nil {
				continue
			}
			opts := &river.InsertOpts{}
			if r.d.NextAttemptAt.Sub(db.Now()) >= immediateReschedule {
				opts.ScheduledAt = *r.d.NextAttemptAt
			}
			jobs = append(jobs, river.InsertManyParams{InsertOpts: postgres.DeliverOpts(opts),
				Args: webhook.DeliverArgs{DeliveryID: r.d.ID, TenantID: r.d.TenantID, Attempt: r.d.Attempts}})
		}
		if len(jobs) == 0 {
			return nil
		}
		if _, err := db.River().InsertManyTx(ctx, tx, jobs); err != nil {
			return fmt.Errorf("enqueue webhook retries: %w", err)
		}
		return nil
	}))
}

// attemptArgs are recordAttemptsSQL's parameters for rs.
func attemptArgs(t tenancy.TenantID, rs []*attemptRecord) []any {
	n := len(rs)
	var (
		ids, statuses, lastErrs, errs = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		prev, attempts, numbers, ms   = make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
		lastCodes, codes              = make([]*int32, n), make([]*int32, n)
		nextAt, deliveredAt, deadAt   = make([]*time.Time, n), make([]*time.Time, n), make([]*time.Time, n)
		at                            = make([]time.Time, n)
	)
	for i, r := range rs {
		ids[i], statuses[i], lastErrs[i], errs[i] = r.d.ID, r.d.Status, r.d.LastError, r.a.Error
		prev[i], attempts[i], numbers[i], ms[i] = int32(r.prev), int32(r.d.Attempts), int32(r.a.Number), int32(r.a.Duration.Milliseconds())
		if r.d.LastStatusCode != nil {
			c := int32(*r.d.LastStatusCode)
			lastCodes[i] = &c
		}
		if r.a.StatusCode != 0 {
			c := int32(r.a.StatusCode)
			codes[i] = &c
		}
		nextAt[i], deliveredAt[i], deadAt[i], at[i] = r.d.NextAttemptAt, r.d.DeliveredAt, r.d.DeadAt, r.a.At
	}
	return []any{string(t), ids, prev, statuses, attempts, lastCodes, lastErrs, nextAt, deliveredAt, deadAt, numbers, codes, errs, ms, at}
}

// immediateReschedule is the delay under which the next attempt's job is inserted available
// rather than scheduled: River's scheduler promotes scheduled jobs only every few seconds, so
// very short (test) backoffs are waited out by the worker itself (see jobs.DeliverWebhookWorker).
const immediateReschedule = time.Second
