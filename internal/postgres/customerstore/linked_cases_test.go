package customerstore_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/customerstore"
)

// TestLinkedCasesReadFromTheCustomer: the customer's linked cases (read by every rating and the
// customer page) come from the customer's own transactions and applications, so the buffers the
// statement touches do not grow with the tenant's other cases. With 3,000 cases of other
// customers, the OR'ed IN lists it had scanned every case of the tenant (394 buffer hits a call
// at 1,000,000 stored transactions in the scale benchmark; 85 here, where a hash join over a
// sequential scan of cases was the plan); read from the customer's side it touches 12.
func TestLinkedCasesReadFromTheCustomer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	bvn := "7" + time.Now().Format("150405") + "5555"
	mine := []string{insertScreened(ctx, t, admin, f.ID, bvn, "REVIEW", "NG"), insertScreened(ctx, t, admin, f.ID, bvn, "REVIEW", "NG"),
		insertScreened(ctx, t, admin, f.ID, bvn, "APPROVE", "NG")}
	// Two cases on the customer's transactions, the older first; 3,000 on other customers'.
	for i, tx := range mine[:2] {
		_, err := admin.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status,
  related_transaction_id, created_at, updated_at) values ($1, $2, $3, 'AML_ALERT', 'MEDIUM', 't', 'd', 'OPEN', $4, $5, $5)`,
			"case_mine_"+tx, string(f.ID), "CASE-2097-0000"+string(rune('1'+i)), tx, time.Now().Add(time.Duration(i-10)*time.Hour))
		require.NoError(t, err)
	}
	_, err := admin.Exec(ctx, `with t as (
  insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn, sender_account_number, sender_bvn,
    sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms,
    processed_at, created_at)
  select gen_random_uuid(), $1::uuid, 'other-' || g || '-' || $1::text, 'TRANSFER', 'MOBILE', 100, 'NGN', 100, '01234' || lpad(g::text, 5, '0'),
    '8' || lpad(g::text, 10, '0'), 'S', now(), 'v', 'REVIEW', 'LOW', 0, '{}', '[]', 1, now(), now() from generate_series(1, 3000) g
  returning id)
insert into cases (id, tenant_id, case_number, type, priority, title, description, status, related_transaction_id, created_at, updated_at)
select 'case_other_' || t.id, $1::uuid, 'CASE-2096-' || lpad((row_number() over ())::text, 5, '0'), 'AML_ALERT', 'MEDIUM', 't', 'd', 'OPEN',
  t.id::text, now(), now() from t`, string(f.ID))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `analyze cases; analyze transactions`)
	require.NoError(t, err)

	// The right cases, newest first, and none of the others.
	rows, err := admin.Query(ctx, customerstore.LinkedCasesSQL, string(f.ID), bvn, nil, 1000)
	require.NoError(t, err)
	var got []string
	for rows.Next() {
		var id, number, title, status, priority, typ string
		var at time.Time
		require.NoError(t, rows.Scan(&id, &number, &title, &status, &priority, &typ, &at))
		got = append(got, id)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"case_mine_" + mine[1], "case_mine_" + mine[0]}, got)

	// The buffers it touches (hit or read), as the application role under row-level security.
	tx := pgtest.AsApp(ctx, t, admin, f.ID)
	var plan []struct {
		Plan struct {
			SharedHit  int64 `json:"Shared Hit Blocks"`
			SharedRead int64 `json:"Shared Read Blocks"`
		} `json:"Plan"`
	}
	var raw []byte
	require.NoError(t, tx.QueryRow(ctx, "explain (analyze, buffers, format json) "+customerstore.LinkedCasesSQL,
		string(f.ID), bvn, nil, 1000).Scan(&raw))
	require.NoError(t, json.Unmarshal(raw, &plan))
	touched := plan[0].Plan.SharedHit + plan[0].Plan.SharedRead
	t.Logf("linked cases of one customer among 3,002 cases: %d buffers", touched)
	require.Less(t, touched, int64(40), "the linked cases read the tenant's other cases: %s", raw)
}
