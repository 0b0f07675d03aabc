package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
)

// queueFactsSQL reads the queue's columns of a page's transactions by primary key: amount,
// party (the sender), the aggregate score and the highest-scoring rule that fired.
const queueFactsSQL = `select t.id::text, t.amount::text, t.currency, t.sender_name, t.aggregate_score::float8,
	coalesce((select r->>'name' from jsonb_array_elements(t.engine_verdicts) e,
		jsonb_array_elements(coalesce(e->'rules', '[]'::jsonb)) r
		order by (r->>'riskScore')::int desc limit 1), '')
	from transactions t where t.tenant_id = $1 and t.id = any($2::uuid[])`

// queueFacts fills the Facts of a page of cases: its inboxes' names and its transactions'
// amount, party, top rule and score, in two index probes whatever the page's size.
func queueFacts(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, cs []cases.Case) error {
	txIDs, inboxIDs := []string{}, []string{}
	for i := range cs {
		cs[i].Facts = &cases.QueueFacts{}
		if id := cs[i].RelatedTransactionID; id != nil && isUUID(*id) {
			txIDs = append(txIDs, *id)
		}
		if cs[i].InboxID != nil {
			inboxIDs = append(inboxIDs, *cs[i].InboxID)
		}
	}
	if len(cs) == 0 {
		return nil
	}
	byTx := map[string]cases.QueueFacts{}
	if len(txIDs) > 0 {
		rows, err := tx.Query(ctx, queueFactsSQL, string(tenantID), txIDs)
		if err != nil {
			return fmt.Errorf("queue facts: %w", err)
		}
		for rows.Next() {
			var id string
			var f cases.QueueFacts
			if err := rows.Scan(&id, &f.Amount, &f.Currency, &f.Party, &f.Score, &f.TopRule); err != nil {
				rows.Close()
				return fmt.Errorf("scan queue facts: %w", err)
			}
			byTx[id] = f
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("queue facts: %w", err)
		}
	}
	names := map[string]string{}
	if len(inboxIDs) > 0 {
		rows, err := tx.Query(ctx, `select id::text, name from case_inboxes where tenant_id = $1 and id = any($2::uuid[])`,
			string(tenantID), inboxIDs)
		if err != nil {
			return fmt.Errorf("inbox names: %w", err)
		}
		for rows.Next() {
			var id, name string
			if err := rows.Scan(&id, &name); err != nil {
				rows.Close()
				return fmt.Errorf("scan inbox names: %w", err)
			}
			names[id] = name
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("inbox names: %w", err)
		}
	}
	for i := range cs {
		if id := cs[i].RelatedTransactionID; id != nil {
			if f, ok := byTx[*id]; ok {
				*cs[i].Facts = f
			}
		}
		if cs[i].InboxID != nil {
			cs[i].Facts.InboxName = names[*cs[i].InboxID]
		}
	}
	return nil
}
