package screenstore

import (
	"math/rand/v2"
	"strings"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
)

// The dashboard's screening rollups (migration 0018, docs/guide/dashboard.md "How the figures are
// kept") are written by the screening commit itself, in the statement that inserts the batch:
// insertSQL becomes the first part of a writable CTE whose RETURNING rows (only the rows actually
// inserted: duplicates and screenings whose history changed are not) are grouped per UTC hour,
// outcome and risk level, and per UTC day and triggered rule (the rule table has no series, and
// days keep a quarter's sum to a few thousand rows), and added to the rollup rows with one
// upsert each. So a batch of 256 screenings costs two small upserts, not 256, and the counts are
// committed atomically with the rows they count, also on the one-statement fast path that has no
// explicit transaction.

// RollupShards is the number of rows one tenant's hour is spread over (the shard column): each
// statement picks one at random, so concurrent group commits of one tenant rarely wait for each
// other's row locks; readers sum the shards.
const RollupShards = 4

// rollupInsertSQL is insertSQL with the rollups. It returns what insertSQL returns (external_id
// of the inserted rows). $47..$49 are the batch's triggered rules (rollupArgs), $50 the shard
// ($45 is insertSQL's payment_message, $46 its rule_versions).
// Both upserts write their rows sorted by key, so two statements lock them in one order.
var rollupInsertSQL = insertCTEsSQL + `,
ins as (` + strings.Replace(insertRowsSQL, "returning external_id", "returning external_id, outcome, risk_level, transaction_timestamp", 1) + `),
outcomes as (
	insert into screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
	select $1::uuid, date_trunc('hour', transaction_timestamp, 'UTC') as b, $50::int2, outcome, risk_level, count(*)
	from ins group by b, outcome, risk_level order by b, outcome, risk_level
	on conflict (tenant_id, bucket, outcome, risk_level, shard)
	do update set screenings = screening_rollups.screenings + excluded.screenings),
hits as (
	insert into screening_rule_rollups (tenant_id, bucket, shard, rule_id, rule_name, hits)
	select $1::uuid, date_trunc('day', i.transaction_timestamp, 'UTC') as b, $50::int2, r.id, max(r.name), count(*)
	from ins i join unnest($47::text[], $48::text[], $49::text[]) as r(ext, id, name) on r.ext = i.external_id
	group by b, r.id order by b, r.id
	on conflict (tenant_id, bucket, rule_id, shard)
	do update set hits = screening_rule_rollups.hits + excluded.hits, rule_name = excluded.rule_name)
select external_id from ins`

// rollupArgs appends to insertArgs' arguments the triggered rules of recs, one element per
// (record, rule) as stored in engine_verdicts, and the shard.
func rollupArgs(args []any, recs []*screening.Record) []any {
	var ext, ids, names postgres.TextArray
	for _, r := range recs {
		for _, v := range r.Result.Breakdown {
			for _, t := range v.RulesTriggered {
				if t.ID == "" {
					continue
				}
				ext, ids, names = append(ext, r.Tx.ExternalID), append(ids, t.ID), append(names, t.Name)
			}
		}
	}
	return append(args, ext, ids, names, int16(rand.IntN(RollupShards))) //nolint:gosec // spreading load, not a secret
}
