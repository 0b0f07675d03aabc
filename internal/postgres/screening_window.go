package postgres

import "strings"

// How the prefetch reads an account's history (docs/screening.md "How history is kept").
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

// Window bounds, per screening u (lateral w, which needs w0 and w1 before it): lo, a24 and a60
// start the three windows; fd, fh and fm are ts's day, hour and minute; mid is the first whole
// day after lo; lom, am and am60 round the starts up to the minute, loh and ah up to the hour.
var windowBoundsSQL = `cross join lateral (select u.ts - interval '90 days' as lo, u.ts - interval '24 hours' as a24,
	u.ts - interval '60 minutes' as a60, date_trunc('day', u.ts, 'UTC') as fd, date_trunc('hour', u.ts, 'UTC') as fh,
	date_trunc('minute', u.ts, 'UTC') as fm,
	date_trunc('day', u.ts - interval '90 days', 'UTC') + interval '24 hours' as mid offset 0) w0
cross join lateral (select ` + ceilTo("minute", "w0.lo") + ` as lom, ` + ceilTo("minute", "w0.a24") + ` as am,
	` + ceilTo("minute", "w0.a60") + ` as am60 offset 0) w1
cross join lateral (select ` + ceilTo("hour", "w1.lom") + ` as loh, ` + ceilTo("hour", "w1.am") + ` as ah offset 0) w2`

// ceilTo rounds the timestamptz expression e up to the UTC unit (e itself when on a boundary).
func ceilTo(unit, e string) string {
	t := "date_trunc('" + unit + "', " + e + ", 'UTC')"
	return "(" + t + " + case when " + t + " < " + e + " then interval '1 " + unit + "' else interval '0 " + unit + "' end)"
}

// active is the condition that the account's activity (account_versions' first_at and last_at,
// as v) reaches into [lo, hi]: a piece outside it holds no rows, and the condition, on values of
// the outer row only, is evaluated once per screening before the piece's scan (a one-time
// filter), so such a piece costs no index probe.
func active(lo, hi string) string {
	return "v.first_at <= " + hi + " and v.last_at >= " + lo
}

// The pieces are read by two scans per screening, not one subquery each: grainsSQL, a UNION ALL
// of the grain ranges, and rawSQL, one of the raw ranges, each row flagged with the windows it
// counts in (p90, p24, p60), and one aggregate over each with FILTER clauses. Every aggregate
// node costs its initialisation on each execution of the statement whether it reads rows or
// not: with a subquery per piece (twelve, 130 aggregates) that was about 0.4 ms per statement,
// more than the reads of a batch of a few screenings (docs/screening.md "How history is kept").
//
// The ranges (bounds from windowBoundsSQL; every branch gated by active(), a one-time filter):
//
//	grains:  days [mid, fd) 90 · hours [loh, mid) 90 · minutes [lom, loh) 90 ·
//	         hours [ah, fh) 24, and 90 from fd · minutes [am, ah) 24 ·
//	         minutes [am60, fm] 60, and 90 and 24 from fh (the bucket fm only when cm.last_at <= ts)
//	raw:     [lo, lom) 90 · [a24, am) 24 · [a60, am60) 60 · [fm, ts] all three, when cm.last_at > ts
//
// (ah <= fd since ts - 24 hours < fd; am60 <= fh since ts - 60 minutes < fh.)

// grainBranch selects the account's buckets of grain in [lo, hi), with the window flags p90, p24
// and p60 (SQL conditions on the bucket a.bucket). Closed, it takes the bucket hi as well, which
// holds transactions up to ts (the current minute): the account must then be active up to ts.
func grainBranch(grain, lo, hi string, closed bool, p90, p24, p60 string, extra ...string) string {
	op, cond := "<", active(lo, hi)
	if closed {
		op, cond = "<=", active(lo, "u.ts")
	}
	for _, e := range extra {
		cond += " and " + e
	}
	return `select a.n, a.sum_ngn, a.sum_sq_ngn, a.devices, a.last_device, a.last_device_at, a.last_ip, a.last_ip_at,
		a.last_lat, a.last_lon, a.last_loc_at, ` + p90 + ` as p90, ` + p24 + ` as p24, ` + p60 + ` as p60
	from account_activity_grains a where a.tenant_id = $1 and a.account = u.acct and a.grain = '` + grain + `'
	  and a.bucket >= ` + lo + ` and a.bucket ` + op + ` ` + hi + ` and ` + cond
}

// rawBranch selects the account's transactions with lo <= transaction_timestamp < hi (<= hi when
// closed), flagged like grainBranch (constant flags: a raw range lies in one set of windows).
func rawBranch(lo, hi string, closed bool, p90, p24, p60 string, gate ...string) string {
	op := "<"
	if closed {
		op = "<="
	}
	cond := active(lo, hi)
	for _, g := range gate {
		cond += " and " + g
	}
	return `select t.amount_ngn, t.device_id, t.ip_address, t.latitude, t.longitude, t.transaction_timestamp as at,
		` + p90 + ` as p90, ` + p24 + ` as p24, ` + p60 + ` as p60
	from transactions t where t.tenant_id = $1 and t.sender_account_number = u.acct
	  and t.transaction_timestamp >= ` + lo + ` and t.transaction_timestamp ` + op + ` ` + hi + ` and ` + cond
}

// currentMinuteSQL looks up the bucket of ts's minute (as cm). A screening is mostly the
// account's latest transaction: when the bucket holds nothing after ts it serves the minute, one
// row instead of every transaction of the minute (an account screened several times a second
// has hundreds); otherwise (a transaction stored with a later timestamp) the raw rows [fm, ts]
// are read. OFFSET 0 keeps the lookup a subquery of its own: pulled up into a join, its bound
// (date_trunc, not leakproof) could only filter under row-level security, after a scan of every
// minute bucket of the account.
var currentMinuteSQL = `left join lateral (select a.last_at from account_activity_grains a where a.tenant_id = $1
	and a.account = u.acct and a.grain = 'minute' and a.bucket = w0.fm and ` + active("w0.fm", "u.ts") + ` offset 0) cm on true`

// grainsSQL aggregates the grain ranges (as g1): per window, count, sum and (90 days) sum of
// squares, devices, and the latest device, IP and location with their timestamps.
var grainsSQL = `cross join lateral (select coalesce(sum(x.n) filter (where x.p90), 0) as n, coalesce(sum(x.sum_ngn) filter (where x.p90), 0) as s,
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
	from (` + strings.Join([]string{
	grainBranch("day", "w0.mid", "w0.fd", false, "true", "false", "false"),
	grainBranch("hour", "w2.loh", "w0.mid", false, "true", "false", "false"),
	grainBranch("minute", "w1.lom", "w2.loh", false, "true", "false", "false"),
	grainBranch("hour", "w2.ah", "w0.fh", false, "a.bucket >= w0.fd", "true", "false"),
	grainBranch("minute", "w1.am", "w2.ah", false, "false", "true", "false"),
	grainBranch("minute", "w1.am60", "w0.fm", true, "a.bucket >= w0.fh", "a.bucket >= w0.fh", "true",
		"(a.bucket < w0.fm or a.last_at <= u.ts)"),
}, "\n\tunion all ") + `) x) g1`

// rawSQL aggregates the raw ranges (as r1), giving grainsSQL's columns.
var rawSQL = `cross join lateral (select count(*) filter (where x.p90) as n, coalesce(sum(x.amount_ngn) filter (where x.p90), 0) as s,
	coalesce(sum(x.amount_ngn * x.amount_ngn) filter (where x.p90), 0) as ss,
	array_agg(distinct x.device_id) filter (where x.p90 and x.device_id is not null) as devs,
	(array_agg(x.device_id order by x.at desc) filter (where x.p90 and x.device_id is not null))[1] as dev,
	max(x.at) filter (where x.p90 and x.device_id is not null) as dev_at,
	(array_agg(x.ip_address order by x.at desc) filter (where x.p90 and x.ip_address is not null))[1] as ip,
	max(x.at) filter (where x.p90 and x.ip_address is not null) as ip_at,
	(array_agg(x.latitude order by x.at desc) filter (where x.p90 and x.latitude is not null))[1] as lat,
	(array_agg(x.longitude order by x.at desc) filter (where x.p90 and x.latitude is not null))[1] as lon,
	max(x.at) filter (where x.p90 and x.latitude is not null) as loc_at,
	count(*) filter (where x.p24) as n24, coalesce(sum(x.amount_ngn) filter (where x.p24), 0) as s24,
	count(*) filter (where x.p60) as n60
	from (` + strings.Join([]string{
	rawBranch("w0.lo", "w1.lom", false, "true", "false", "false"),
	rawBranch("w0.a24", "w1.am", false, "false", "true", "false"),
	rawBranch("w0.a60", "w1.am60", false, "false", "false", "true"),
	rawBranch("w0.fm", "u.ts", true, "true", "true", "true", "cm.last_at > u.ts"),
}, "\n\tunion all ") + `) x) r1`

// later picks col of g1 or r1, whichever has the later timestamp at (null when neither has one;
// their ranges do not overlap, so they never tie).
func later(col, at string) string {
	return "case when r1." + at + " is not null and (g1." + at + " is null or r1." + at + " > g1." + at + ") then r1." + col + " else g1." + col + " end"
}

// prefetchSQL answers a batch of one tenant's screenings ($2..$5: externalIds, sender accounts,
// transaction timestamps, lookup hashes of the sender BVNs or null when the stored KYC is not
// needed), one row per screening numbered by ordinality: the original verdict of a repeated
// externalId; the sender account's history as of the transaction's timestamp, stored
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
var prefetchSQL = `select u.i, d.id::text, d.outcome, d.risk_level, d.aggregate_score::float8, d.total_latency_ms::int8,
	(g1.n24 + r1.n24)::int8, (g1.s24 + r1.s24)::text, (g1.n60 + r1.n60)::int8, s.n::int8, s.mean, s.sd,
	(select coalesce(array_agg(distinct x order by x), '{}') from unnest(g1.devs || r1.devs) x),
	` + later("dev", "dev_at") + `, ` + later("ip", "ip_at") + `,
	` + later("lat", "loc_at") + `, ` + later("lon", "loc_at") + `, ` + later("loc_at", "loc_at") + `,
	case when v.last_at <= u.ts then v.last_at else (select max(l.transaction_timestamp) from transactions l
	  where l.tenant_id = $1 and l.sender_account_number = u.acct and l.transaction_timestamp <= u.ts and v.first_at <= u.ts) end,
	k.id, k.status, k.tier, coalesce(v.version, 0)
from unnest($2::text[], $3::text[], $4::timestamptz[], $5::bytea[]) with ordinality as u(ext, acct, ts, bvn_hash, i)
` + windowBoundsSQL + `
left join account_versions v on v.tenant_id = $1 and v.account = u.acct
left join lateral (select t.id, t.outcome, t.risk_level, t.aggregate_score, t.total_latency_ms from transactions t
	where t.tenant_id = $1 and t.external_id = u.ext) d on true
` + currentMinuteSQL + `
` + grainsSQL + `
` + rawSQL + `
cross join lateral (select g1.n + r1.n as n, g1.s + r1.s as s, g1.ss + r1.ss as ss) g
cross join lateral (` + amountStatsSQL + `) s
left join lateral (select a.id, a.status, a.tier from kyc_applications a
	where a.tenant_id = $1 and a.bvn_hash = u.bvn_hash and a.bvn_hash is not null
	order by a.created_at desc, a.id desc limit 1) k on true`
