package screenstore

import (
	"fmt"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/postgres"
)

// How the prefetch reads an account's history (docs/guide/screening.md "How history is kept").
//
// The engines need, for a screening at instant ts, three windows of the sender account's
// transactions: [ts - 90 days, ts] (count, mean and standard deviation of the amounts, known
// devices, latest device, IP and location), [ts - 24 hours, ts] (count and NGN sum) and
// [ts - 60 minutes, ts] (count). Reading them from the raw rows costs what the account holds:
// thousands of rows per screening for an account that transacts every few seconds, more the
// longer its day. Migration 0022 keeps the account's activity per UTC day, hour and minute
// (account_activity_grains), so each window is cut into
//
//	raw rows [start, next minute) · minutes up to the next hour · hours up to the next day ·
//	whole days · hours of ts's day · minutes of ts's hour · raw rows [ts's minute, ts]
//
// (the 24-hour and 60-minute windows skip the grains they do not span): at most two partial
// minutes of raw rows and a few hundred small rows read by primary key, whatever the account's
// rate. Counts, sums and sums of squares add up exactly across the pieces; the latest device,
// IP and location are those of the piece with the latest timestamp (the pieces do not overlap,
// so that is the window's latest).

// windowColumns are the bounds of a screening's windows, by their names in prefetchSQL's unnest
// after the request's columns (windowParams: $6 on), computed in Go (boundsAt) rather than in
// the statement: each expression of a plan is compiled again on every execution (the generic
// plan is cached, its executor state is not), and the three laterals that computed them, with
// their joins and the memoize nodes the planner put on them, were a good part of the prefetch's
// cost for a batch of a few screenings (docs/guide/screening.md "How history is kept"). lo, a24 and
// a60 start the three windows; fd, fh and fm are ts's UTC day, hour and minute; mid is the first
// whole day after lo; lom, am and am60 round the starts up to the minute, loh and ah up to the
// hour; lod is lo's UTC day (the day bucket that gates the 90 days' first partial day).
var windowColumns = [...]string{"lo", "a24", "a60", "fd", "fh", "fm", "mid", "lom", "am", "am60", "loh", "ah", "lod"}

var windowParams = func() string {
	ps := make([]string, len(windowColumns))
	for i := range ps {
		ps[i] = fmt.Sprintf("$%d::timestamptz[]", 6+i)
	}
	return strings.Join(ps, ", ")
}()

// boundsAt computes the bounds of a screening at ts, in windowColumns' order, at PostgreSQL's
// precision (microseconds, as pgx sends ts: truncated).
//
// 90 days are 2,160 hours here, as `ts - interval '90 days'` is in a database whose TimeZone
// keeps no daylight saving time (UTC, or Africa/Lagos); in one that does, PostgreSQL's calendar
// days would move the window's start by an hour for a window that spans a change.
func boundsAt(ts time.Time) [len(windowColumns)]time.Time {
	ts = ts.UTC().Truncate(time.Microsecond)
	lo, a24, a60 := ts.Add(-historyWindow), ts.Add(-24*time.Hour), ts.Add(-time.Hour)
	lom, am := ceilTo(lo, time.Minute), ceilTo(a24, time.Minute)
	return [...]time.Time{lo, a24, a60, utcDay(ts), ts.Truncate(time.Hour), ts.Truncate(time.Minute),
		utcDay(lo).Add(24 * time.Hour), lom, am, ceilTo(a60, time.Minute), ceilTo(lom, time.Hour), ceilTo(am, time.Hour), utcDay(lo)}
}

// windowArgs appends to args the bounds of screenings at ts as windowColumns' arrays.
func windowArgs(args []any, ts []time.Time) []any {
	var cols [len(windowColumns)]postgres.TimeArray
	for c := range cols {
		cols[c] = make(postgres.TimeArray, len(ts))
	}
	for i, t := range ts {
		for c, v := range boundsAt(t) {
			cols[c][i] = v
		}
	}
	for _, c := range cols {
		args = append(args, c)
	}
	return args
}

// prefetchArgs are prefetchSQL's arguments for one tenant's screenings: externalIds, sender
// accounts, transaction timestamps, lookup hashes of the sender BVNs (nil: none), and the bounds
// of their windows.
func prefetchArgs(tenant string, ext, acct postgres.TextArray, ts postgres.TimeArray, bvnHash [][]byte) []any {
	return windowArgs([]any{tenant, ext, acct, ts, bvnHash}, ts)
}

// utcDay is the start of t's UTC day.
func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ceilTo rounds t up to a multiple of unit (a minute or an hour: UTC boundaries), t itself when
// on one.
func ceilTo(t time.Time, unit time.Duration) time.Time {
	if f := t.Truncate(unit); f.Before(t) {
		return f.Add(unit)
	}
	return t
}

// active is the condition that the account's activity (account_versions' first_at and last_at,
// as v) reaches into [lo, hi]: a piece outside it holds no rows, and the condition, on values of
// the range's own row (act), filters the range out before its index is probed.
func active(lo, hi string) string {
	return "v.first_at <= " + hi + " and v.last_at >= " + lo
}

// The pieces are read by two scans per screening, not one subquery each: grainsSQL over the
// grain ranges and rawSQL over the raw ones, each row flagged with the windows it counts in
// (p90, p24, p60), and one aggregate over each with FILTER clauses. Every node and expression of
// the plan is initialised on each execution of the statement whether it reads rows or not:
// with a subquery per piece (twelve, 130 aggregates) that was about 0.4 ms per statement, more
// than the reads of a batch of a few screenings, and a UNION ALL of a scan per range still cost
// six index scans, their subquery and result nodes and their conditions for the grains, four for
// the raw rows. So the ranges are rows of a VALUES list, each joined to one parameterised index
// scan (docs/guide/screening.md "How history is kept").
//
// The ranges (bounds from boundsAt; each gated by active(), evaluated on the range's row
// before the index is probed):
//
//	grains:  days [mid, fd) 90 · hours [loh, mid) 90 · minutes [lom, loh) 90 ·
//	         hours [ah, fh) 24, and 90 from fd · minutes [am, ah) 24 ·
//	         minutes [am60, fm] 60, and 90 and 24 from fh (the bucket fm only when cm.last_at <= ts)
//	raw:     [lo, lom) 90 · [a24, am) 24 · [a60, am60) 60 · [fm, ts] all three, when cm.last_at > ts
//
// (ah <= fd since ts - 24 hours < fd; am60 <= fh since ts - 60 minutes < fh.) The three ranges
// of the first partial day ([lo, lom) raw, minutes [lom, loh), hours [loh, mid)) are read only
// when the day bucket of lo's day (firstDaySQL, as d0) holds a transaction at or after lo.

// currentMinuteSQL looks up the bucket of ts's minute (as cm). A screening is mostly the
// account's latest transaction: when the bucket holds nothing after ts it serves the minute, one
// row instead of every transaction of the minute (an account screened several times a second
// has hundreds); otherwise (a transaction stored with a later timestamp) the raw rows [fm, ts]
// are read. OFFSET 0 keeps the lookup a subquery of its own: pulled up into a join, its bound
// (date_trunc, not leakproof) could only filter under row-level security, after a scan of every
// minute bucket of the account.
var currentMinuteSQL = `left join lateral (select a.last_at from account_activity_grains a where a.tenant_id = $1
	and a.account = u.acct and a.grain = 'minute' and a.bucket = u.fm and ` + active("u.fm", "u.ts") + ` offset 0) cm on true`

// firstDaySQL looks up the day bucket of lo's UTC day (as d0), the day the 90-day window starts
// in. The window's first partial day [lo, mid) is read in three ranges (raw rows up to the next
// minute, minutes up to the next hour, hours up to midnight), each an index descent, and for an
// account with a history they are all inside its activity (active), so all three were probed
// for every screening of it, mostly to find nothing: an account that transacts every few days
// has nothing on most days. The day bucket holds its day's latest timestamp (last_at), and
// [lo, mid) holds a transaction exactly when that is at or after lo, so one probe, next to the
// whole days' range in the index, gates the three (measured in docs/performance-at-scale.md:
// the prefetch of a seeded account's history was most of the growth of a screening's buffer
// reads with the stored history).
var firstDaySQL = `left join lateral (select a.last_at from account_activity_grains a where a.tenant_id = $1
	and a.account = u.acct and a.grain = 'day' and a.bucket = u.lod and ` + active("u.lo", "u.mid") + ` offset 0) d0 on true`

// historySQL aggregates the pieces (as g): per window, count, sum and (90 days) sum of squares
// of the NGN amounts, devices, and the latest device, IP and location with their timestamps.
// The grain ranges and the raw ones feed one aggregate, a raw row read as a bucket of one
// transaction (rawRows): a second aggregate, and the expressions that added the two up and
// picked the later of their latest values, cost their initialisation on every execution.
//
// The ranges are rows of VALUES lists (grainRange, rawRange), each joined to one parameterised
// index scan, not a UNION ALL of a scan per range: PostgreSQL initialises every node of a plan
// on each execution whether it reads rows or not, and the ten scans with their subquery and
// result nodes were a good part of the prefetch's cost for a batch of a few screenings. A range
// that the account's activity does not reach (act) is filtered out before the index is probed.
var historySQL = `cross join lateral (select coalesce(sum(x.n) filter (where x.p90), 0) as n, coalesce(sum(x.sum_ngn) filter (where x.p90), 0) as s,
	coalesce(sum(x.sum_sq_ngn) filter (where x.p90), 0) as ss, array_concat_agg(x.devices) filter (where x.p90) as devs,
	(array_agg(x.last_device order by x.last_device_at desc) filter (where x.p90 and x.last_device_at is not null))[1] as dev,
	max(x.last_device_at) filter (where x.p90) as dev_at,
	(array_agg(x.last_ip order by x.last_ip_at desc) filter (where x.p90 and x.last_ip_at is not null))[1] as ip,
	max(x.last_ip_at) filter (where x.p90) as ip_at,
	(array_agg(x.last_lat order by x.last_loc_at desc) filter (where x.p90 and x.last_loc_at is not null))[1] as lat,
	(array_agg(x.last_lon order by x.last_loc_at desc) filter (where x.p90 and x.last_loc_at is not null))[1] as lon,
	max(x.last_loc_at) filter (where x.p90) as loc_at,
	coalesce(sum(x.n) filter (where x.p24), 0) as n24, coalesce(sum(x.sum_ngn) filter (where x.p24), 0) as s24,
	coalesce(sum(x.n) filter (where x.p60), 0) as n60
	from (` + grainRows + `
	union all ` + rawRows + `) x) g`

// grainRows are the account's buckets in the grain ranges, each flagged with the windows it
// counts in: a range gives the grain, the range [lo, hi) (closed: the bucket hi as well, which
// holds transactions up to ts, so the account must be active up to ts), and the first bucket
// from which the range counts in the 90-day, 24-hour and 60-minute windows (f90, f24, f60:
// fromStart, fromNowhere or a bound).
var grainRows = `select a.n, a.sum_ngn, a.sum_sq_ngn, a.devices, a.last_device, a.last_device_at, a.last_ip, a.last_ip_at,
		a.last_lat, a.last_lon, a.last_loc_at, a.bucket >= r.f90 as p90, a.bucket >= r.f24 as p24, a.bucket >= r.f60 as p60
	from (values ` + strings.Join([]string{
	grainRange("day", "u.mid", "u.fd", false, fromStart, fromNowhere, fromNowhere),
	grainRange("hour", "u.loh", "u.mid", false, fromStart, fromNowhere, fromNowhere, firstDayGate),
	grainRange("minute", "u.lom", "u.loh", false, fromStart, fromNowhere, fromNowhere, firstDayGate),
	grainRange("hour", "u.ah", "u.fh", false, "u.fd", fromStart, fromNowhere),
	grainRange("minute", "u.am", "u.ah", false, fromNowhere, fromStart, fromNowhere),
	grainRange("minute", "u.am60", "u.fm", true, "u.fh", "u.fh", fromStart),
}, ",\n\t\t") + `) r(grain, lo, hi, closed, act, f90, f24, f60)
	cross join lateral (select * from account_activity_grains a where a.tenant_id = $1 and a.account = u.acct
	  and a.grain = r.grain and a.bucket >= r.lo and a.bucket <= r.hi and (a.bucket < r.hi or (r.closed and a.last_at <= u.ts))
	  offset 0) a
	where r.act`

// firstDayGate is the condition that the 90 days' first partial day [lo, mid) holds a
// transaction (firstDaySQL).
const firstDayGate = "d0.last_at >= u.lo"

// The window flags of a grain range: counts from the range's start, counts nowhere.
const fromStart, fromNowhere = "'-infinity'::timestamptz", "'infinity'::timestamptz"

func grainRange(grain, lo, hi string, closed bool, f90, f24, f60 string, gate ...string) string {
	act := active(lo, hi)
	if closed {
		act = active(lo, "u.ts")
	}
	for _, g := range gate {
		act += " and " + g
	}
	return "('" + grain + "', " + lo + ", " + hi + ", " + fmt.Sprint(closed) + ", " + act + ", " + f90 + ", " + f24 + ", " + f60 + ")"
}

// rawRows are the account's transactions in the raw ranges, each read as a bucket of one (its
// device, IP and location latest at its own timestamp when it has them) and flagged with the
// windows of its range: a raw range lies in one set of windows, so its flags are constants.
var rawRows = `select 1::int8, t.amount_ngn, t.amount_ngn * t.amount_ngn,
		case when t.device_id is null then '{}'::text[] else array[t.device_id] end,
		t.device_id, case when t.device_id is not null then t.transaction_timestamp end,
		t.ip_address, case when t.ip_address is not null then t.transaction_timestamp end,
		t.latitude, t.longitude, case when t.latitude is not null then t.transaction_timestamp end, r.p90, r.p24, r.p60
	from (values ` + strings.Join([]string{
	rawRange("u.lo", "u.lom", false, true, false, false, firstDayGate),
	rawRange("u.a24", "u.am", false, false, true, false),
	rawRange("u.a60", "u.am60", false, false, false, true),
	rawRange("u.fm", "u.ts", true, true, true, true, "cm.last_at > u.ts"),
}, ",\n\t\t") + `) r(lo, hi, closed, act, p90, p24, p60)
	cross join lateral (select t.amount_ngn, t.device_id, t.ip_address, t.latitude, t.longitude, t.transaction_timestamp
	  from transactions t where t.tenant_id = $1 and t.sender_account_number = u.acct
	  and t.transaction_timestamp >= r.lo and t.transaction_timestamp <= r.hi and (t.transaction_timestamp < r.hi or r.closed)
	  offset 0) t
	where r.act`

// rawRange is a row of rawRows' ranges: the account's transactions with lo <=
// transaction_timestamp < hi (<= hi when closed), read only when the account's activity reaches
// into the range and every gate holds.
func rawRange(lo, hi string, closed, p90, p24, p60 bool, gate ...string) string {
	act := active(lo, hi)
	for _, g := range gate {
		act += " and " + g
	}
	return "(" + lo + ", " + hi + ", " + fmt.Sprint(closed) + ", " + act + ", " + fmt.Sprint(p90) + ", " + fmt.Sprint(p24) + ", " + fmt.Sprint(p60) + ")"
}

// readerPlanSettings are the batched read's connections' planner settings, sent after generic
// plans are forced (tenantConn): prefetchSQL reads every table by key, a probe per screening, and
// must never scan one. Its generic plan is made once per connection, with the statistics of that
// moment, and kept until an analysis of one of its tables: with none yet (a new install, a
// restored database, a new tenant's first minute) or from a tenant's first accounts, the planner
// took a tenant's account versions and transactions for a few rows and read them whole on every
// read, joined by hash or filtered: 4.8 ms a read for a tenant of 2,000 accounts against 0.45
// (the measurement log of docs/performance.md#history, twentieth session; TestScreeningPrefetchProbesByKey counts
// the rows a read fetches). With sequential and bitmap scans and hash and merge joins
// priced out, and the account version and externalId lookups as laterals the planner cannot
// flatten into a join (offset 0), each lookup is an index probe of its row. The settings are the
// session's of this connection only; nothing else runs on it.
var readerPlanSettings = []string{"set enable_seqscan = off", "set enable_bitmapscan = off", "set enable_hashjoin = off",
	"set enable_mergejoin = off"}

// prefetchSQL answers a batch of one tenant's screenings ($2..$5: externalIds, sender accounts,
// transaction timestamps, lookup hashes of the sender BVNs or null when the stored KYC is not
// needed; $6 on: their window bounds, windowColumns; prefetchArgs builds them all), one row per
// screening numbered by ordinality: the original verdict of a repeated externalId; the sender
// account's history as of the transaction's timestamp, stored
// transactions of the same instant included (24-hour count and NGN sum, 60-minute count, the
// 90 days' amount statistics, known devices, latest device, IP and location, read in pieces as
// described above); the last activity up to ts of all time (dormancy, 180 days: the account's
// last_at when it is not after ts, else one backward probe of the sender index); the tenant's
// most recent KYC application for the BVN, found by its lookup hash (kyc_pii.go) through the
// partial index on tenant, BVN hash and creation time (a null hash matches nothing); and the
// account's history version (account_versions, read first: its first and last activity also
// gate the pieces; the insert compares the version).
//
// The mean is sum/n as avg computes it, and the standard deviation is stddev_pop's formula on the
// same exact numerics (amountStatsSQL).
var prefetchSQL = prefetchWith(currentMinuteSQL + "\n" + firstDaySQL + "\n" + historySQL)

// prefetchLateSQL is prefetchSQL for screenings whose timestamp is older than the grains kept
// (late, grains_horizon.go): the history as g from the account's raw rows of [ts - 90 days, ts]
// (lateHistorySQL), the rest the same.
var prefetchLateSQL = prefetchWith(lateHistorySQL)

// lateHistorySQL is historySQL's g over the raw rows: the same columns, each the aggregate the
// grains add up to (TestLateScreeningHistoryFromRawRows compares both with the raw scan).
var lateHistorySQL = `cross join lateral (select count(*) as n, coalesce(sum(t.amount_ngn), 0) as s,
	coalesce(sum(t.amount_ngn * t.amount_ngn), 0) as ss, array_agg(t.device_id) filter (where t.device_id is not null) as devs,
	(array_agg(t.device_id order by t.transaction_timestamp desc) filter (where t.device_id is not null))[1] as dev,
	max(t.transaction_timestamp) filter (where t.device_id is not null) as dev_at,
	(array_agg(t.ip_address order by t.transaction_timestamp desc) filter (where t.ip_address is not null))[1] as ip,
	max(t.transaction_timestamp) filter (where t.ip_address is not null) as ip_at,
	(array_agg(t.latitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lat,
	(array_agg(t.longitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lon,
	max(t.transaction_timestamp) filter (where t.latitude is not null) as loc_at,
	count(*) filter (where t.transaction_timestamp >= u.a24) as n24,
	coalesce(sum(t.amount_ngn) filter (where t.transaction_timestamp >= u.a24), 0) as s24,
	count(*) filter (where t.transaction_timestamp >= u.a60) as n60
	from transactions t where t.tenant_id = $1 and t.sender_account_number = u.acct
	  and t.transaction_timestamp >= u.lo and t.transaction_timestamp <= u.ts) g`

// prefetchWith is the prefetch statement with history as the lateral that yields g.
func prefetchWith(history string) string {
	return `select u.i, d.id::text, d.outcome, d.risk_level, d.aggregate_score::float8, d.total_latency_ms::int8,
	g.n24::int8, g.s24::text, g.n60::int8, s.n::int8, s.mean, s.sd,
	(select coalesce(array_agg(distinct x order by x), '{}') from unnest(g.devs) x), g.dev, g.ip, g.lat, g.lon, g.loc_at,
	case when v.last_at <= u.ts then v.last_at else (select max(l.transaction_timestamp) from transactions l
	  where l.tenant_id = $1 and l.sender_account_number = u.acct and l.transaction_timestamp <= u.ts and v.first_at <= u.ts) end,
	k.id, k.status, k.tier, coalesce(v.version, 0)
from unnest($2::text[], $3::text[], $4::timestamptz[], $5::bytea[], ` + windowParams + `)
	with ordinality as u(ext, acct, ts, bvn_hash, ` + strings.Join(windowColumns[:], ", ") + `, i)
left join lateral (select v.version, v.first_at, v.last_at from account_versions v
	where v.tenant_id = $1 and v.account = u.acct offset 0) v on true
left join lateral (select t.id, t.outcome, t.risk_level, t.aggregate_score, t.total_latency_ms from transaction_keys dk
	join transactions t on t.id = dk.transaction_id and t.transaction_timestamp = dk.transaction_timestamp and t.tenant_id = $1
	where dk.tenant_id = $1 and dk.external_id = u.ext offset 0) d on true
` + history + `
cross join lateral (` + amountStatsSQL + `) s
left join lateral (select a.id, a.status, a.tier from kyc_applications a
	where a.tenant_id = $1 and a.bvn_hash = u.bvn_hash and a.bvn_hash is not null
	order by a.created_at desc, a.id desc limit 1) k on true`
}

// amountStatsSQL derives, from g's count n, sum s and sum of squares ss of the amounts, the
// values avg and stddev_pop would give over the amounts themselves, digit for digit: avg is
// numeric division of the sum by the count; stddev_pop divides n*ss - s*s (exact, at the sum's
// scale doubled, 0 when not positive) by n*n at the division's scale and takes the square root
// at that same scale. sqrt alone picks its own scale, so the root is taken 20 digits finer and
// rounded to the variance's scale (both correctly rounded).
const amountStatsSQL = `select g.n, (case when g.n > 0 then g.s / g.n::numeric else 0 end)::text as mean,
	(case when g.n > 0 and g.n * g.ss - g.s * g.s > 0 then (select round(sqrt(round(q.v, scale(q.v) + 20)), scale(q.v))
		from (select (g.n * g.ss - g.s * g.s) / (g.n::numeric * g.n) as v) q) else 0 end)::text as sd`
