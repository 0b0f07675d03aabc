package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The read replica (docs/guide/read-replica.md): an optional second pool on a streaming standby, to
// which the staleness-tolerant reads go (the Overview's aggregates, the CSV exports, the network
// graph and the rule back-tests; inTenantRead). A probe measures the standby's lag every
// ReplicaProbeEvery; while the standby answers and its lag is at most ReplicaMaxLag those reads
// go to it, otherwise to the primary. The probe is the circuit breaker: a read never waits to
// find the standby dead (it reads the last verdict), a read that finds it dead marks it down at
// once and is answered by the primary, and only the probe tries the standby again.

// The replica's statuses, as /health reports them.
const (
	ReplicaNone    = "none"    // no replica configured
	ReplicaOK      = "ok"      // reads go to it
	ReplicaLagging = "lagging" // answering, but further behind than the maximum lag: reads go to the primary
	ReplicaDown    = "down"    // unreachable, not a standby, or not probed yet: reads go to the primary
)

// Defaults of the replica options.
const (
	DefaultReplicaMaxLag     = 10 * time.Second
	DefaultReplicaProbeEvery = time.Second
)

// ReplicaState is what the last probe of the read replica found.
type ReplicaState struct {
	// Status is one of ReplicaNone, ReplicaOK, ReplicaLagging, ReplicaDown.
	Status string
	// Lag is how far the standby's data is behind the primary's (zero when it has replayed all
	// the primary had written when the probe asked).
	Lag time.Duration
	// MaxLag is the lag above which reads go to the primary.
	MaxLag time.Duration
	// CheckedAt is when the verdict was reached (by a probe, or by a read that failed).
	CheckedAt time.Time
	// Error says why the standby is down ("" otherwise).
	Error string
}

// ReplicaReads counts the routed reads by the pool that answered them.
type ReplicaReads struct {
	Replica, Primary uint64
	// Fallbacks are the reads sent to the replica that found it unreachable and were answered
	// by the primary.
	Fallbacks uint64
}

type replica struct {
	pool      *pgxpool.Pool
	maxLag    time.Duration
	every     time.Duration
	now       func() time.Time
	state     atomic.Pointer[ReplicaState]
	replica   atomic.Uint64
	primary   atomic.Uint64
	fallbacks atomic.Uint64
	// obs are the primary's WAL positions seen by the probes and not yet replayed by the
	// standby, oldest first (probe goroutine only).
	obs  []walAt
	stop context.CancelFunc
	done chan struct{}
}

// replicaOptions are the replica pool's settings, taken from the primary's Options by Open.
type replicaOptions struct {
	maxConns   int32 // the pool's size (0: pgxpool's default)
	maxLag     time.Duration
	probeEvery time.Duration
	now        func() time.Time
	role       string // the role the connections SET, as the primary's do
}

// walAt is the primary's WAL position at a time.
type walAt struct {
	lsn int64
	at  time.Time
}

// openReplica opens the replica's pool (lazily: a standby down at start leaves the service up,
// reading from the primary) with the primary pool's settings: the same role, so row-level
// security applies to it exactly as on the primary, and no JIT.
func openReplica(ctx context.Context, url string, o replicaOptions) (*replica, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse replica database url: %w", err)
	}
	if o.maxConns > 0 {
		cfg.MaxConns = o.maxConns
	}
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	// A standby that stopped answering must cost the probe a second, not the OS's TCP timeout.
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > 2*time.Second {
		cfg.ConnConfig.ConnectTimeout = 2 * time.Second
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, "SET ROLE "+o.role)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open replica pool: %w", err)
	}
	r := &replica{pool: pool, maxLag: o.maxLag, every: o.probeEvery, now: o.now, done: make(chan struct{})}
	if r.maxLag <= 0 {
		r.maxLag = DefaultReplicaMaxLag
	}
	if r.every <= 0 {
		r.every = DefaultReplicaProbeEvery
	}
	r.state.Store(&ReplicaState{Status: ReplicaDown, MaxLag: r.maxLag, CheckedAt: r.now(), Error: "not probed yet"})
	return r, nil
}

// run probes the standby every r.every until ctx ends.
func (r *replica) run(ctx context.Context, primary *pgxpool.Pool) {
	defer close(r.done)
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		r.probe(ctx, primary)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// probe measures the lag: the primary's current WAL position is noted, then the standby's
// replayed position read. The lag is the age of the oldest position noted that the standby has
// not replayed yet (zero when it has replayed them all), and at least the age of the last
// transaction it replayed when it is behind: a standby started hours behind is lagging from its
// first probe, not only after it has been watched for longer than the maximum lag. Both come
// from positions and clocks the service reads itself, so an idle primary is not mistaken for a
// lagging standby.
func (r *replica) probe(ctx context.Context, primary *pgxpool.Pool) {
	ctx, cancel := context.WithTimeout(ctx, max(r.every, time.Second))
	defer cancel()
	var cur int64
	if err := primary.QueryRow(ctx, `select (pg_current_wal_lsn() - '0/0'::pg_lsn)::int8`).Scan(&cur); err != nil {
		// Without the primary there is nothing to compare with; the verdict stays (the primary's
		// own outage is /health's database check).
		return
	}
	now := r.now()
	if n := len(r.obs); n == 0 || r.obs[n-1].lsn < cur {
		r.obs = append(r.obs, walAt{lsn: cur, at: now})
	}
	var standby bool
	var replayed int64
	var sinceReplay *float64
	err := r.pool.QueryRow(ctx, `select pg_is_in_recovery(), coalesce((pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8, 0),
		extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp())::float8`).Scan(&standby, &replayed, &sinceReplay)
	switch {
	case err != nil:
		r.markDown(err)
		return
	case !standby:
		// A promoted standby (or the primary's own address) is not a copy being kept current.
		r.markDown(errors.New("not a standby: pg_is_in_recovery() is false"))
		return
	}
	i := 0
	for i < len(r.obs) && r.obs[i].lsn <= replayed {
		i++
	}
	r.obs = r.obs[i:]
	var lag time.Duration
	if len(r.obs) > 0 {
		lag = now.Sub(r.obs[0].at)
		if sinceReplay != nil {
			lag = max(lag, time.Duration(*sinceReplay*float64(time.Second)))
		}
	}
	st := &ReplicaState{Status: ReplicaOK, Lag: lag, MaxLag: r.maxLag, CheckedAt: now}
	if lag > r.maxLag {
		st.Status = ReplicaLagging
	}
	r.state.Store(st)
}

// markDown records the standby unreachable: reads go to the primary until a probe finds it back.
func (r *replica) markDown(err error) {
	r.state.Store(&ReplicaState{Status: ReplicaDown, MaxLag: r.maxLag, CheckedAt: r.now(), Error: err.Error()})
}

// usable reports whether reads may go to the standby now: the last verdict is ok and recent (a
// probe stuck on a standby that stopped answering leaves no fresh verdict).
func (r *replica) usable() bool {
	st := r.state.Load()
	return st.Status == ReplicaOK && r.now().Sub(st.CheckedAt) <= 3*r.every+time.Second
}

func (r *replica) close() {
	if r.stop != nil {
		r.stop()
		<-r.done
	}
	r.pool.Close()
}
