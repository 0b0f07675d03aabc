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

// rawPiece aggregates the account's raw rows with lo <= transaction_timestamp < hi (<= hi when
// closed): count, sum and sum of squares of amount_ngn, distinct devices, and the latest
// device, IP and location with their timestamps.
func rawPiece(alias, lo, hi string, closed bool, gate ...string) string {
	op := "<"
	if closed {
		op = "<="
	}
	cond := active(lo, hi)
	if len(gate) > 0 {
		cond += " and " + gate[0]
	}
	return `cross join lateral (select count(*) as n, coalesce(sum(t.amount_ngn), 0) as s,
	coalesce(sum(t.amount_ngn * t.amount_ngn), 0) as ss,
	array_agg(distinct t.device_id) filter (where t.device_id is not null) as devs,
	(array_agg(t.device_id order by t.transaction_timestamp desc) filter (where t.device_id is not null))[1] as dev,
	max(t.transaction_timestamp) filter (where t.device_id is not null) as dev_at,
	(array_agg(t.ip_address order by t.transaction_timestamp desc) filter (where t.ip_address is not null))[1] as ip,
	max(t.transaction_timestamp) filter (where t.ip_address is not null) as ip_at,
	(array_agg(t.latitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lat,
	(array_agg(t.longitude order by t.transaction_timestamp desc) filter (where t.latitude is not null))[1] as lon,
	max(t.transaction_timestamp) filter (where t.latitude is not null) as loc_at
	from transactions t where t.tenant_id = $1 and t.sender_account_number = u.acct
	  and t.transaction_timestamp >= ` + lo + ` and t.transaction_timestamp ` + op + ` ` + hi + ` and ` + cond + `) ` + alias
}

// grainPiece aggregates the account's buckets of grain with lo <= bucket < hi, giving rawPiece's
// columns.
func grainPiece(alias, grain, lo, hi string) string {
	return `cross join lateral (select coalesce(sum(a.n), 0) as n, coalesce(sum(a.sum_ngn), 0) as s,
	coalesce(sum(a.sum_sq_ngn), 0) as ss, array_concat_agg(a.devices) as devs,
	(array_agg(a.last_device order by a.last_device_at desc) filter (where a.last_device_at is not null))[1] as dev,
	max(a.last_device_at) as dev_at,
	(array_agg(a.last_ip order by a.last_ip_at desc) filter (where a.last_ip_at is not null))[1] as ip,
	max(a.last_ip_at) as ip_at,
	(array_agg(a.last_lat order by a.last_loc_at desc) filter (where a.last_loc_at is not null))[1] as lat,
	(array_agg(a.last_lon order by a.last_loc_at desc) filter (where a.last_loc_at is not null))[1] as lon,
	max(a.last_loc_at) as loc_at
	from account_activity_grains a where a.tenant_id = $1 and a.account = u.acct and a.grain = '` + grain + `'
	  and a.bucket >= ` + lo + ` and a.bucket < ` + hi + ` and ` + active(lo, hi) + `) ` + alias
}

// currentMinutePiece is the 90-day window's last piece, the raw rows [fm, ts] (rawPiece's
// columns, as alias rn). A screening is mostly the account's latest transaction: when the
// minute's bucket holds nothing after ts, the bucket itself is that piece, one row instead of
// every transaction of the minute (an account screened several times a second has hundreds);
// otherwise (a transaction stored with a later timestamp) the raw rows are read. OFFSET 0 keeps
// the bucket's lookup a subquery of its own: pulled up into a join, its bound (date_trunc, not
// leakproof) could only filter under row-level security, after a scan of every minute bucket of
// the account.
func currentMinutePiece() string {
	cols := [][2]string{{"n", "n"}, {"s", "sum_ngn"}, {"ss", "sum_sq_ngn"}, {"devs", "devices"}, {"dev", "last_device"},
		{"dev_at", "last_device_at"}, {"ip", "last_ip"}, {"ip_at", "last_ip_at"}, {"lat", "last_lat"}, {"lon", "last_lon"},
		{"loc_at", "last_loc_at"}}
	pick := make([]string, len(cols))
	for i, c := range cols {
		b := "cm." + c[1]
		if c[0] == "n" || c[0] == "s" || c[0] == "ss" {
			b = "coalesce(" + b + ", 0)"
		}
		pick[i] = "case when cm.last_at > u.ts then rr." + c[0] + " else " + b + " end as " + c[0]
	}
	return `left join lateral (select a.* from account_activity_grains a where a.tenant_id = $1 and a.account = u.acct
	and a.grain = 'minute' and a.bucket = w0.fm and ` + active("w0.fm", "u.ts") + ` offset 0) cm on true
` + rawPiece("rr", "w0.fm", "u.ts", true, "cm.last_at > u.ts") + `
cross join lateral (select ` + strings.Join(pick, ",\n\t") + `) rn`
}

// rawCount and grainCount are rawPiece and grainPiece for the 24-hour and 60-minute windows'
// starts, which need only the count and the sum.
func rawCount(alias, lo, hi string) string {
	return `cross join lateral (select count(*) as n, coalesce(sum(t.amount_ngn), 0) as s from transactions t
	where t.tenant_id = $1 and t.sender_account_number = u.acct
	  and t.transaction_timestamp >= ` + lo + ` and t.transaction_timestamp < ` + hi + ` and ` + active(lo, hi) + `) ` + alias
}

func grainCount(alias, grain, lo, hi string) string {
	return `cross join lateral (select coalesce(sum(a.n), 0) as n, coalesce(sum(a.sum_ngn), 0) as s
	from account_activity_grains a where a.tenant_id = $1 and a.account = u.acct and a.grain = '` + grain + `'
	  and a.bucket >= ` + lo + ` and a.bucket < ` + hi + ` and ` + active(lo, hi) + `) ` + alias
}

// The pieces of the 90-day window, from ts back to its start.
var ninetyDayPieces = []string{"rn", "mt", "ht", "dd", "hl", "ml", "rl"}

// sumOf adds column col of the pieces.
func sumOf(col string, pieces ...string) string {
	parts := make([]string, len(pieces))
	for i, p := range pieces {
		parts[i] = p + "." + col
	}
	return "(" + strings.Join(parts, " + ") + ")"
}

// latestOf picks, among the 90-day pieces, the columns cols of the one whose timestamp column at
// is the latest (null when none has one).
func latestOf(alias, at string, cols ...string) string {
	rows := make([]string, len(ninetyDayPieces))
	for i, p := range ninetyDayPieces {
		vals := make([]string, 0, len(cols)+1)
		for _, c := range cols {
			vals = append(vals, p+"."+c)
		}
		rows[i] = "(" + strings.Join(append(vals, p+"."+at), ", ") + ")"
	}
	return `left join lateral (select ` + strings.Join(cols, ", ") + ` from (values ` + strings.Join(rows, ", ") + `)
	as x(` + strings.Join(append(append([]string{}, cols...), "at"), ", ") + `) where x.at is not null order by x.at desc limit 1) ` + alias + ` on true`
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
	` + sumOf("n", "r24", "m24", "h24", "mt", "rn") + `::int8, ` + sumOf("s", "r24", "m24", "h24", "mt", "rn") + `::text,
	` + sumOf("n", "r60", "m60", "rn") + `::int8, s.n::int8, s.mean, s.sd,
	(select coalesce(array_agg(distinct x order by x), '{}') from unnest(` +
	strings.Join(func() []string {
		d := make([]string, len(ninetyDayPieces))
		for i, p := range ninetyDayPieces {
			d[i] = p + ".devs"
		}
		return d
	}(), " || ") + `) x),
	ld.dev, li.ip, ll.lat, ll.lon, ll.loc_at,
	case when v.last_at <= u.ts then v.last_at else (select max(l.transaction_timestamp) from transactions l
	  where l.tenant_id = $1 and l.sender_account_number = u.acct and l.transaction_timestamp <= u.ts and v.first_at <= u.ts) end,
	k.id, k.status, k.tier, coalesce(v.version, 0)
from unnest($2::text[], $3::text[], $4::timestamptz[], $5::bytea[]) with ordinality as u(ext, acct, ts, bvn_hash, i)
` + windowBoundsSQL + `
left join account_versions v on v.tenant_id = $1 and v.account = u.acct
left join lateral (select t.id, t.outcome, t.risk_level, t.aggregate_score, t.total_latency_ms from transactions t
	where t.tenant_id = $1 and t.external_id = u.ext) d on true
` + strings.Join([]string{
	currentMinutePiece(),
	grainPiece("mt", "minute", "w0.fh", "w0.fm"),
	grainPiece("ht", "hour", "w0.fd", "w0.fh"),
	grainPiece("dd", "day", "w0.mid", "w0.fd"),
	grainPiece("hl", "hour", "w2.loh", "w0.mid"),
	grainPiece("ml", "minute", "w1.lom", "w2.loh"),
	rawPiece("rl", "w0.lo", "w1.lom", false),
	grainCount("h24", "hour", "w2.ah", "w0.fh"),
	grainCount("m24", "minute", "w1.am", "w2.ah"),
	rawCount("r24", "w0.a24", "w1.am"),
	grainCount("m60", "minute", "w1.am60", "w0.fm"),
	rawCount("r60", "w0.a60", "w1.am60"),
}, "\n") + `
cross join lateral (select ` + sumOf("n", ninetyDayPieces...) + ` as n, ` + sumOf("s", ninetyDayPieces...) + ` as s,
	` + sumOf("ss", ninetyDayPieces...) + ` as ss) g
cross join lateral (` + amountStatsSQL + `) s
` + latestOf("ld", "dev_at", "dev") + `
` + latestOf("li", "ip_at", "ip") + `
` + latestOf("ll", "loc_at", "lat", "lon", "loc_at") + `
left join lateral (select a.id, a.status, a.tier from kyc_applications a
	where a.tenant_id = $1 and a.bvn_hash = u.bvn_hash and a.bvn_hash is not null
	order by a.created_at desc, a.id desc limit 1) k on true`
