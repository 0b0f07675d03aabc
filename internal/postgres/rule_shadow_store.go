package postgres

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// ShadowWriter records the results of shadowed rule drafts (docs/guide/rules.md "Shadow") off the
// screening's path: Record hands them to a queue and returns; a writer goroutine stores them in
// batches, one transaction per tenant (RLS), every ShadowLinger or ShadowBatch results. A full
// queue drops results (Dropped counts them): the shadow may lose a sample under overload, the
// live screening never waits for it.
type ShadowWriter struct {
	db      *DB
	log     *slog.Logger
	queue   chan []screening.ShadowResult
	dropped atomic.Int64
	written atomic.Int64
	stop    context.CancelFunc
	done    chan struct{}
	once    sync.Once
}

// Shadow writer bounds.
const (
	ShadowQueue  = 8192
	ShadowBatch  = 500
	ShadowLinger = 200 * time.Millisecond
)

// NewShadowWriter starts the writer; Close drains it.
func NewShadowWriter(db *DB, log *slog.Logger) *ShadowWriter {
	ctx, cancel := context.WithCancel(context.Background())
	w := &ShadowWriter{db: db, log: log, queue: make(chan []screening.ShadowResult, ShadowQueue), stop: cancel, done: make(chan struct{})}
	go w.run(ctx)
	return w
}

// Record implements screening.ShadowRecorder; it never blocks.
func (w *ShadowWriter) Record(rs []screening.ShadowResult) {
	if len(rs) == 0 {
		return
	}
	select {
	case w.queue <- rs:
	default:
		w.dropped.Add(int64(len(rs)))
	}
}

// Dropped is the number of results dropped on a full queue; Written those stored.
func (w *ShadowWriter) Dropped() int64 { return w.dropped.Load() }

// Written is the number of results stored.
func (w *ShadowWriter) Written() int64 { return w.written.Load() }

// Close stores what is queued and stops the writer.
func (w *ShadowWriter) Close() {
	w.once.Do(func() {
		w.stop()
		<-w.done
	})
}

func (w *ShadowWriter) run(ctx context.Context) {
	defer close(w.done)
	var buf []screening.ShadowResult
	t := time.NewTimer(ShadowLinger)
	defer t.Stop()
	for {
		select {
		case rs := <-w.queue:
			buf = append(buf, rs...)
			if len(buf) < ShadowBatch {
				continue
			}
		case <-t.C:
			t.Reset(ShadowLinger)
		case <-ctx.Done():
		drain:
			for {
				select {
				case rs := <-w.queue:
					buf = append(buf, rs...)
				default:
					break drain
				}
			}
			w.flush(buf)
			return
		}
		w.flush(buf)
		buf = buf[:0]
	}
}

func (w *ShadowWriter) flush(buf []screening.ShadowResult) {
	if len(buf) == 0 {
		return
	}
	byTenant := map[tenancy.TenantID][]screening.ShadowResult{}
	for _, r := range buf {
		byTenant[r.TenantID] = append(byTenant[r.TenantID], r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for tenant, rs := range byTenant {
		b := &pgx.Batch{}
		for _, r := range rs {
			b.Queue(`insert into rule_shadow_results (tenant_id, draft_id, transaction_id, external_id, screened_at, matched,
				eval_error, live_outcome, live_case, shadow_outcome, shadow_case) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
				on conflict do nothing`, string(tenant), r.DraftID, r.TransactionID, r.ExternalID, r.ScreenedAt, r.Matched,
				r.EvalError, string(r.LiveOutcome), r.LiveCase, string(r.ShadowOutcome), r.ShadowCase)
		}
		if err := w.db.inTenantBatch(ctx, tenant, b); err != nil {
			w.log.Warn("shadow results not stored", "tenant", string(tenant), "results", len(rs), "error", err.Error())
			continue
		}
		w.written.Add(int64(len(rs)))
	}
}

// ShadowComparison reports a draft's shadow results (docs/guide/rules.md "Comparison"), with up to
// maxExamples of the screenings it flagged or whose case it would change, newest first.
// Errors: NOT_FOUND (the draft).
func (s *SettingsStore) ShadowComparison(ctx context.Context, tenant tenancy.TenantID, draftID string, maxExamples int) (screening.Comparison, error) {
	c := screening.Comparison{ClosesKnown: true, Examples: []screening.ComparisonExample{}}
	err := s.db.inTenant(ctx, tenant, func(tx pgx.Tx) error {
		if _, err := getDraft(ctx, tx, tenant, draftID, false); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `select count(*), count(*) filter (where matched), count(*) filter (where eval_error),
			count(*) filter (where live_outcome <> 'APPROVE'), count(*) filter (where matched and live_outcome <> 'APPROVE'),
			count(*) filter (where matched and live_outcome = 'APPROVE'), count(*) filter (where not matched and live_outcome <> 'APPROVE'),
			count(*) filter (where shadow_case and not live_case), count(*) filter (where live_case and not shadow_case),
			min(screened_at), max(screened_at)
			from rule_shadow_results where tenant_id = $1 and draft_id = $2`, string(tenant), draftID).Scan(
			&c.Evaluated, &c.Matched, &c.Errors, &c.LiveFlagged, &c.Overlap, &c.DraftOnly, &c.LiveOnly,
			&c.WouldOpen, &c.WouldClose, &c.Oldest, &c.Newest); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select transaction_id::text, external_id, screened_at, matched, live_outcome, shadow_outcome,
			live_case, shadow_case from rule_shadow_results where tenant_id = $1 and draft_id = $2
			and (matched or live_case <> shadow_case) order by screened_at desc limit $3`, string(tenant), draftID, maxExamples)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e screening.ComparisonExample
			if err := rows.Scan(&e.TransactionID, &e.ExternalID, &e.At, &e.Matched, &e.LiveOutcome, &e.DraftOutcome,
				&e.LiveCase, &e.DraftCase); err != nil {
				return err
			}
			c.Examples = append(c.Examples, e)
		}
		return rows.Err()
	})
	return c, err
}
