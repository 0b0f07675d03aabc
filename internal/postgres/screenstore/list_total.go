package screenstore

import (
	"context"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// The transactions list's total (GET /transactions, docs/performance-at-scale.md "The
// transactions list's total").
//
// The contract's total is exact, and an exact count(*) reads every matching row: at 10 million
// stored screenings the list with no period took 0.4-0.8 s, and with an outcome filter (which no
// index serves) 4-5 s, most of it the count. The screening rollups (migration 0018) already hold
// the exact count per tenant, UTC hour of transaction_timestamp, outcome and risk level, committed
// in the statement that inserts the rows they count. So when the list filters on nothing else
// than those, the whole hours inside the period are summed from the rollups and only what the
// rollups cannot answer is counted in transactions:
//   - the part-hours at the period's edges (at most two hours of rows, on transactions_list_idx);
//   - the months that have an archive (retention, migration 0047): their rows are exported and then
//     deleted or dropped, which the rollups do not follow, so for those months transactions itself
//     says how many remain.
// Any other filter (type, account, amounts, rule) counts in transactions as before: the account
// is served by its own indexes, and the others are meant to come with a period.

// rollupsServe reports whether the rollups can count f: it filters on nothing they do not key.
func rollupsServe(f screening.ListParams) bool {
	return f.Type == "" && f.Account == "" && f.MinAmount == nil && f.MaxAmount == nil && f.RuleID == ""
}

// span is a half-open range of transaction_timestamp, [from, to); a zero end is unbounded.
type span struct{ from, to time.Time }

// wholeHours is the range of the whole UTC hours inside f's period (From and To are inclusive,
// to the microsecond as PostgreSQL stores them), and the part-hours at its edges that are not.
// ok is false when the period holds no whole hour.
func wholeHours(f screening.ListParams) (whole span, edges []span, ok bool) {
	if f.From != nil {
		whole.from = f.From.UTC().Truncate(time.Hour)
		if whole.from.Before(*f.From) {
			whole.from = whole.from.Add(time.Hour)
		}
	}
	if f.To != nil {
		// The last whole hour ends at or before To plus its microsecond: [h, h+1h) lies inside
		// [From, To] when h+1h-1µs <= To.
		whole.to = f.To.UTC().Add(time.Microsecond).Truncate(time.Hour)
	}
	if !whole.from.IsZero() && !whole.to.IsZero() && !whole.from.Before(whole.to) {
		return span{}, nil, false
	}
	if f.From != nil && f.From.Before(whole.from) {
		edges = append(edges, span{from: *f.From, to: whole.from})
	}
	if f.To != nil && !f.To.Before(whole.to) {
		edges = append(edges, span{from: whole.to, to: f.To.Add(time.Microsecond)})
	}
	return whole, edges, true
}

// listTotal is the number of rows of the transactions list with filter f (where is its WHERE
// clause, transactionFilter), exact either way.
func listTotal(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, f screening.ListParams, where sq.And) (int, error) {
	countIn := func(extra ...sq.Sqlizer) (int, error) {
		w := append(append(sq.And{}, where...), extra...)
		return postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From("transactions t").Where(w))
	}
	if !rollupsServe(f) {
		return countIn()
	}
	whole, edges, ok := wholeHours(f)
	if !ok {
		return countIn()
	}
	archived, err := archivedMonths(ctx, tx, tenantID, whole)
	if err != nil {
		return 0, err
	}
	// Rows of archived months are counted in transactions, the rest of the whole hours in the
	// rollups.
	exact := edges
	for _, m := range archived {
		exact = append(exact, clip(span{from: m, to: m.AddDate(0, 1, 0)}, whole))
	}
	sum := postgres.Psql.Select("coalesce(sum(r.screenings), 0)::bigint").From("screening_rollups r").
		Where(sq.Eq{"r.tenant_id": string(tenantID)})
	if f.Outcome != "" {
		sum = sum.Where(sq.Eq{"r.outcome": f.Outcome})
	}
	if f.RiskLevel != "" {
		sum = sum.Where(sq.Eq{"r.risk_level": f.RiskLevel})
	}
	if !whole.from.IsZero() {
		sum = sum.Where(sq.GtOrEq{"r.bucket": whole.from})
	}
	if !whole.to.IsZero() {
		sum = sum.Where(sq.Lt{"r.bucket": whole.to})
	}
	for _, m := range archived {
		sum = sum.Where(sq.Or{sq.Lt{"r.bucket": m}, sq.GtOrEq{"r.bucket": m.AddDate(0, 1, 0)}})
	}
	total, err := postgres.Count(ctx, tx, sum)
	if err != nil {
		return 0, err
	}
	for _, s := range exact {
		n, err := countIn(spanWhere(s)...)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// archivedMonths are the tenant's months (UTC, their first instant) within whole that have a
// transactions archive in any state but FAILED (a FAILED one deleted nothing).
func archivedMonths(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, whole span) ([]time.Time, error) {
	q := postgres.Psql.Select("month").From("archives").Where(sq.Eq{"tenant_id": string(tenantID), "table_name": "transactions"}).
		Where(sq.NotEq{"state": "FAILED"}).OrderBy("month")
	if !whole.from.IsZero() {
		// A month overlaps whole when it ends after whole starts.
		q = q.Where(sq.Gt{"month": whole.from.AddDate(0, -1, 0)})
	}
	if !whole.to.IsZero() {
		q = q.Where(sq.Lt{"month": whole.to})
	}
	sql, args, err := q.ToSql()
	if err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	months, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return nil, err
	}
	for i, m := range months {
		months[i] = time.Date(m.Year(), m.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return months, nil
}

// clip is s within bound (a zero end of bound is unbounded).
func clip(s, bound span) span {
	if !bound.from.IsZero() && s.from.Before(bound.from) {
		s.from = bound.from
	}
	if !bound.to.IsZero() && s.to.After(bound.to) {
		s.to = bound.to
	}
	return s
}

// spanWhere bounds transaction_timestamp to s.
func spanWhere(s span) []sq.Sqlizer {
	var w []sq.Sqlizer
	if !s.from.IsZero() {
		w = append(w, sq.GtOrEq{"t.transaction_timestamp": s.from})
	}
	if !s.to.IsZero() {
		w = append(w, sq.Lt{"t.transaction_timestamp": s.to})
	}
	return w
}
