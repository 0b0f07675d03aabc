package screenstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
)

func jsonMarshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// saveReq is one screening waiting for its batch to commit.
type saveReq struct {
	queued time.Time
	rec    *screening.Record
	caseID string
	// newCaseID is the id of the case rec opens if it is stored, assigned before the insert
	// (queueEffectReads) so that its report drafts can link it in the same round trip.
	newCaseID string
	err       error
	done      chan struct{}
}

// groupCommitter stores concurrent screenings in shared database transactions: with
// synchronous commit every COMMIT waits for a WAL flush, so one flush per batch instead of
// one per screening is what makes thousands of durable screenings per second possible on one
// disk (docs/guide/screening.md "Performance"). Each caller waits for its own batch's commit.
//
// Screenings that open a case go through a lane of their own with a single committer: case
// numbers come from the (tenant, year) counter row, locked until commit, so batches with cases
// serialise anyway, and in their own lane they never hold back the screenings without one.
//
// Each committer holds a connection of its own (tenantConn).
type groupCommitter struct {
	plain, withCase *batcher[*saveReq]
	commit          func(ctx context.Context, conn *tenantConn, batch []*saveReq) error
}

func newGroupCommitter(o ScreeningStoreOptions, db *postgres.DB, m *batchMetrics, commit func(context.Context, *tenantConn, []*saveReq) error) *groupCommitter {
	if o.Committers <= 0 {
		o.Committers = 1
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
	g := &groupCommitter{commit: commit}
	worker := func() (func([]*saveReq), func()) {
		conn := &tenantConn{pool: db.Pool}
		return func(batch []*saveReq) { g.flush(conn, batch) }, conn.drop
	}
	g.plain = newBatcher(o.Committers, o.MaxBatch, 8192, o.Linger, m.observer("commit"), worker)
	g.withCase = newBatcher(1, o.MaxBatch, 4096, o.CaseLinger, m.observer("case"), worker)
	queuedAt := func(r *saveReq) time.Time { return r.queued }
	g.plain.queuedAt, g.withCase.queuedAt = queuedAt, queuedAt
	return g
}

// behind reports whether either lane is not draining within d (batcher.behind): admission
// refuses new screenings then, since an admitted one would wait behind the backlog for its
// commit, and its answer with it.
func (g *groupCommitter) behind(d time.Duration) bool {
	return g.plain.behind(d) || g.withCase.behind(d)
}

func (g *groupCommitter) close() {
	g.plain.close()
	g.withCase.close()
}

func (g *groupCommitter) save(ctx context.Context, rec *screening.Record) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err // the caller has gone before anything was stored: store nothing
	}
	r := &saveReq{queued: time.Now(), rec: rec, done: make(chan struct{})}
	lane := g.plain
	if rec.Case != nil {
		lane = g.withCase
	}
	if err := lane.send(ctx, r); err != nil {
		return "", err
	}
	// Once queued the screening is stored whatever happens to the caller, so wait for it: an
	// answer must never say "failed" for a transaction that was in fact stored.
	<-r.done
	return r.caseID, r.err
}

// flush commits batch; when the shared transaction fails, every screening is retried in a
// transaction of its own so that one bad record cannot fail the others.
func (g *groupCommitter) flush(conn *tenantConn, batch []*saveReq) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := g.commit(ctx, conn, batch)
	if err != nil && len(batch) > 1 {
		for _, r := range batch {
			r.caseID, r.err = "", nil
			if e := g.commit(ctx, conn, []*saveReq{r}); e != nil && r.err == nil {
				r.err = e
			}
		}
	} else if err != nil {
		for _, r := range batch {
			if r.err == nil {
				r.err = err
			}
		}
	}
	for _, r := range batch {
		close(r.done)
	}
}
