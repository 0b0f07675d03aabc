package networkstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/tenancy"
)

// Shared identifiers (docs/guide/network.md "Shared identifiers"): the devices, IP addresses and
// BVNs the graph's accounts sent from in the period, then every account that sent with one of
// them (any time: transactions_device_idx, _ip_idx and _sender_bvn_idx hold no timestamp, and
// a device shared a year ago still links two parties). $1 tenant, $2 accounts, $3 from, $4 to.
const networkIdentifiersSQL = `select distinct k, v from transactions,
  lateral (values ('DEVICE', device_id), ('IP', ip_address), ('BVN', sender_bvn)) i(k, v)
where tenant_id = $1 and sender_account_number = any($2) and transaction_timestamp >= $3 and transaction_timestamp < $4 and v is not null`

// networkHoldersSQL: the accounts that sent with one identifier of a kind. $1 tenant, $2
// values, $3 limit.
var networkHoldersSQL = map[string]string{
	"DEVICE": `select distinct device_id, sender_account_number from transactions where tenant_id = $1 and device_id = any($2) limit $3`,
	"IP":     `select distinct ip_address, sender_account_number from transactions where tenant_id = $1 and ip_address = any($2) limit $3`,
	"BVN":    `select distinct sender_bvn, sender_account_number from transactions where tenant_id = $1 and sender_bvn = any($2) limit $3`,
}

var sharedKinds = map[string]string{"DEVICE": network.EdgeSharedDevice, "IP": network.EdgeSharedIP, "BVN": network.EdgeSharedBVN}

// sharedIdentifiers links accounts that share an identifier: for each identifier held by two
// or more accounts, a star from the first graph account holding it (by discovery order) to
// each other holder; a holder outside the graph joins it one hop further out.
func sharedIdentifiers(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, b *graphBuilder) error {
	rows, err := tx.Query(ctx, networkIdentifiersSQL, string(tenantID), b.order, b.p.From, b.p.To)
	if err != nil {
		return fmt.Errorf("network identifiers: %w", err)
	}
	type kv struct{ k, v string }
	ids, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kv, error) {
		var x kv
		return x, r.Scan(&x.k, &x.v)
	})
	if err != nil {
		return fmt.Errorf("network identifiers: %w", err)
	}
	byKind := map[string][]string{}
	for _, x := range ids {
		byKind[x.k] = append(byKind[x.k], x.v)
	}
	limit := b.p.MaxEdges + 1
	for _, kind := range []string{"BVN", "DEVICE", "IP"} {
		vals := byKind[kind]
		if len(vals) == 0 {
			continue
		}
		rows, err := tx.Query(ctx, networkHoldersSQL[kind], string(tenantID), vals, limit)
		if err != nil {
			return fmt.Errorf("network identifier holders: %w", err)
		}
		holders, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kv, error) {
			var x kv
			return x, r.Scan(&x.v, &x.k)
		})
		if err != nil {
			return fmt.Errorf("network identifier holders: %w", err)
		}
		if len(holders) >= limit {
			b.truncated = true
		}
		byValue := map[string][]string{}
		for _, h := range holders {
			byValue[h.v] = append(byValue[h.v], h.k)
		}
		values := make([]string, 0, len(byValue))
		for v := range byValue {
			values = append(values, v)
		}
		slices.Sort(values)
		for _, v := range values {
			accts := byValue[v]
			if len(accts) < 2 {
				continue
			}
			hub := ""
			for _, a := range b.order { // the first graph account holding v
				if slices.Contains(accts, a) {
					hub = a
					break
				}
			}
			if hub == "" {
				continue
			}
			slices.Sort(accts)
			for _, a := range accts {
				if a == hub || !b.addNode(a, b.nodes[hub].Hop+1) {
					continue
				}
				b.addEdge(network.Edge{From: hub, To: a, Kind: sharedKinds[kind], Value: v})
			}
		}
	}
	return nil
}
