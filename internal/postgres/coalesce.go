package postgres

import (
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Coalescing of the screening commit's side-effect inserts (pipelined.go).
//
// A batch of case-opening screenings writes, per case, a row into cases, case_events and
// audit_events (and per officer an email and a notification; per webhook event a delivery),
// each a single-row INSERT as squirrel builds it. Sent as they are, every row costs a statement: parse, bind, an executor start, a
// row-security check plan, its own protocol messages. Merged into multi-row inserts, the rows of
// one table cost one statement per chunk.
//
// Merging moves a row's insert earlier, to the first insert of the same text queued since the
// last tenant switch (the rows of a tenant are written under its own app.tenant_id setting, so
// the groups start afresh at each set_config). That is safe for these tables and no others
// without thought: a case comes before its events and notifications in the queue, so the cases
// group comes first too; events, audit records, notifications, emails and webhook deliveries
// reference nothing queued after them (the River jobs that name an email or a delivery are
// inserted apart, and run only after COMMIT); and no statement of the commit reads these tables
// back before COMMIT. A delivery's rollup trigger (migration 0018) runs once per statement, so
// merged it runs once per chunk, with the same counts.

// coalesced are the tables whose single-row inserts are merged.
var coalesced = map[string]bool{"cases": true, "case_events": true, "audit_events": true, "notifications": true,
	"emails": true, "webhook_deliveries": true}

// maxChunk is the most rows one merged insert carries; a larger group is sent in chunks of
// maxChunk and one of the rest. Up to it a group is one statement whatever its size: a
// statement's fixed cost in PostgreSQL (executor start, the foreign keys' and the statement
// triggers' runs, its protocol messages) is several times a row's (EXPLAIN ANALYZE of a cases
// insert: 0.25 ms for one row, 0.52 ms for ten), and the power-of-two chunks this replaced sent a
// case lane's usual batch of 3 to 7 rows as two or three statements a table. The texts are at
// most maxChunk per table, so the connection's prepared-statement cache (512) keeps them all.
const maxChunk = 32

// shapes are the multi-row texts, one per row count from 1 to maxChunk, of the single-row
// inserts this package writes into the coalesced tables, built once: a batch of cases queues
// several rows per case, and checking and merging each through the generic path below cost an
// allocation per row and a built text per chunk. Inserts not listed take that path.
var shapes = func() map[string]shape {
	m := map[string]shape{}
	for _, sql := range []string{insertCaseSQL, insertCaseEventSQL, insertAuditSQL, insertNotificationSQL, insertEmailSQL,
		insertWebhookDeliverySQL} {
		width := strings.Count(sql, "$")
		prefix := sql[:strings.LastIndex(sql, " VALUES (")+len(" VALUES ")]
		texts := make([]string, maxChunk)
		for n := 1; n <= maxChunk; n++ {
			texts[n-1] = multiRowInsert(prefix, width, n)
		}
		m[sql] = shape{width: width, texts: texts}
	}
	return m
}()

// shape is a single-row insert's width and its multi-row texts (texts[n-1] has n rows).
type shape struct {
	width int
	texts []string
}

// queuedWrite is a statement of a pipelined writer: one as written, or (rows > 0) rows rows of
// a single-row insert of width columns, their arguments one row after the other.
type queuedWrite struct {
	sql   string
	args  []any
	rows  int
	width int
}

// queue adds w to b: a group as one multi-row insert, or chunks of maxChunk rows and one of the
// rest.
func (w queuedWrite) queue(b *pgx.Batch) {
	if w.rows <= 1 {
		b.Queue(w.sql, w.args...)
		return
	}
	texts := shapes[w.sql].texts
	prefix := w.sql[:strings.LastIndex(w.sql, " VALUES (")+len(" VALUES ")]
	for done := 0; done < w.rows; {
		n := min(w.rows-done, maxChunk)
		var sql string
		if texts != nil {
			sql = texts[n-1]
		} else {
			sql = multiRowInsert(prefix, w.width, n)
		}
		b.Queue(sql, w.args[done*w.width:(done+n)*w.width]...)
		done += n
	}
}

// multiRowInsert is prefix ("INSERT INTO t (cols) VALUES ") followed by rows tuples of width
// placeholders, numbered on.
func multiRowInsert(prefix string, width, rows int) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	k := 1
	for r := range rows {
		if r > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('(')
		for c := range width {
			if c > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('$')
			sb.WriteString(strconv.Itoa(k))
			k++
		}
		sb.WriteByte(')')
	}
	return sb.String()
}

// coalescibleInsert reports whether sql is a single-row INSERT into a coalesced table exactly as
// squirrel writes it ("INSERT INTO t (c1,c2) VALUES ($1,$2)", nothing after the tuple) with
// nargs placeholders, and its width.
func coalescibleInsert(sql string, nargs int) (int, bool) {
	if sh, ok := shapes[sql]; ok {
		return sh.width, nargs == sh.width
	}
	rest, ok := strings.CutPrefix(sql, "INSERT INTO ")
	if !ok || nargs == 0 {
		return 0, false
	}
	table, _, ok := strings.Cut(rest, " ")
	if !ok || !coalesced[table] {
		return 0, false
	}
	i := strings.LastIndex(sql, " VALUES (")
	if i < 0 || sql[i+len(" VALUES "):] != multiRowInsert("", nargs, 1) {
		return 0, false
	}
	return nargs, true
}

// isTenantSwitch reports whether sql sets the session's tenant (a barrier for coalescing).
func isTenantSwitch(sql string) bool {
	return strings.HasPrefix(sql, "select set_config('app.tenant_id'")
}
