package networkstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// NetworkStore reads the transaction network (network.Store) with a bounded breadth-first
// traversal over transactions_sender_idx (out-edges) and transactions_receiver_idx (in-edges),
// one round trip per hop and direction, in a read-only transaction under a statement timeout
// (docs/guide/network.md "Bounds").
type NetworkStore struct {
	db *postgres.DB
	// Timeout bounds one Graph call as a whole (network.Timeout by default).
	Timeout time.Duration
	// routed sends Graph to the read replica when one is usable (NewNetworkReadStore).
	routed bool
}

// NewNetworkStore returns the store, reading from the primary.
func NewNetworkStore(db *postgres.DB) *NetworkStore {
	return &NetworkStore{db: db, Timeout: network.Timeout}
}

// NewNetworkReadStore returns the store reading from the read replica when one is usable, for
// the network screen's queries (docs/guide/read-replica.md); a finding turned into a case is
// recomputed on the primary (NewNetworkStore).
func NewNetworkReadStore(db *postgres.DB) *NetworkStore {
	return &NetworkStore{db: db, Timeout: network.Timeout, routed: true}
}

// edgeRow is one aggregated sender→receiver pair of a hop.
type edgeRow struct {
	From  string
	To    string
	Count int
	Total decimal.Decimal
	First time.Time
	Last  time.Time
}

// Both directions aggregate by pair and stop at the edge cap plus one (the extra row says the
// cap was hit). $1 tenant, $2 accounts, $3 from, $4 to, $5 min amount, $6 limit.
const (
	networkOutSQL = `select sender_account_number, receiver_account_number, count(*)::int, sum(amount_ngn), min(transaction_timestamp), max(transaction_timestamp)
from transactions where tenant_id = $1 and sender_account_number = any($2) and transaction_timestamp >= $3 and transaction_timestamp < $4
  and amount_ngn >= $5 and receiver_account_number is not null
group by 1, 2 limit $6`
	networkInSQL = `select sender_account_number, receiver_account_number, count(*)::int, sum(amount_ngn), min(transaction_timestamp), max(transaction_timestamp)
from transactions where tenant_id = $1 and receiver_account_number = any($2) and transaction_timestamp >= $3 and transaction_timestamp < $4
  and amount_ngn >= $5 and receiver_account_number is not null
group by 1, 2 limit $6`
	// networkClosingSQL: the edges among accounts found at the last hop (a ring closes there).
	networkClosingSQL = `select sender_account_number, receiver_account_number, count(*)::int, sum(amount_ngn), min(transaction_timestamp), max(transaction_timestamp)
from transactions where tenant_id = $1 and sender_account_number = any($2) and transaction_timestamp >= $3 and transaction_timestamp < $4
  and amount_ngn >= $5 and receiver_account_number = any($7)
group by 1, 2 limit $6`
)

// Graph implements network.Store.
func (s *NetworkStore) Graph(ctx context.Context, tenantID tenancy.TenantID, p network.Params) (network.Graph, error) {
	var g network.Graph
	// One deadline over the whole request (issue 48 point 7d): a statement_timeout alone bounds
	// each of the traversal's statements, and a request of a few hops ran 14.7 s under a 5 s
	// limit. The context's deadline cancels whichever statement is running when the budget is
	// spent (pgx sends PostgreSQL a cancel request); statement_timeout stays as a backstop for
	// the server side, set to the whole budget.
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	run := s.db.InTenant
	if s.routed {
		run = s.db.InTenantRead
	}
	err := run(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("set transaction read only; set local statement_timeout = %d", s.Timeout.Milliseconds())); err != nil {
			return fmt.Errorf("bound network query: %w", err)
		}
		seeds, err := networkSeeds(ctx, tx, tenantID, p)
		if err != nil {
			return err
		}
		g, err = traverse(ctx, tx, tenantID, p, seeds)
		return err
	})
	if err != nil {
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "57014" || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return network.Graph{}, apperr.Newf(apperr.Unavailable,
				"the network query exceeded its %s limit: narrow the period, the hops or the caps", s.Timeout)
		}
		return network.Graph{}, err
	}
	return g, nil
}

// networkSeeds returns the account, or the accounts a customer sent from: every sender account
// of a transaction carrying the customer's BVN (a business profile has none: its accounts are
// not known from transactions, docs/guide/network.md).
func networkSeeds(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, p network.Params) ([]string, error) {
	if p.CustomerID == "" {
		return []string{p.Account}, nil
	}
	accts, _, err := customerAccounts(ctx, tx, tenantID, p.CustomerID, p.MaxNodes)
	return accts, err
}

// customerAccounts returns up to limit accounts the customer's BVN sent from, and the BVN.
// Errors: NOT_FOUND (no such profile).
func customerAccounts(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, customerID string, limit int) ([]string, string, error) {
	var bvn string
	if err := tx.QueryRow(ctx, `select bvn from customer_profiles where tenant_id = $1 and id = $2`, string(tenantID), customerID).Scan(&bvn); err != nil {
		return nil, "", postgres.MapErr(err, "customer")
	}
	if bvn == "" {
		return nil, "", nil
	}
	rows, err := tx.Query(ctx, `select distinct sender_account_number from transactions where tenant_id = $1 and sender_bvn = $2 limit $3`,
		string(tenantID), bvn, limit)
	if err != nil {
		return nil, "", fmt.Errorf("customer accounts: %w", err)
	}
	accts, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, "", fmt.Errorf("customer accounts: %w", err)
	}
	slices.Sort(accts)
	return accts, bvn, nil
}

func queryEdges(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]edgeRow, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("network edges: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (edgeRow, error) {
		var e edgeRow
		err := r.Scan(&e.From, &e.To, &e.Count, &e.Total, &e.First, &e.Last)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("network edges: %w", err)
	}
	return out, nil
}

func traverse(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, p network.Params, seeds []string) (network.Graph, error) {
	b := &graphBuilder{p: p, nodes: map[string]*network.Node{}, edges: map[[2]string]network.Edge{}}
	for _, s := range seeds {
		if b.addNode(s, 0) {
			b.nodes[s].Seed = true
		}
	}
	frontier := slices.Clone(b.order)
	limit := p.MaxEdges + 1
	for hop := 1; hop <= p.Hops && len(frontier) > 0 && !b.truncated; hop++ {
		var next []string
		for _, q := range []string{networkOutSQL, networkInSQL} {
			rows, err := queryEdges(ctx, tx, q, string(tenantID), frontier, p.From, p.To, p.MinAmount, limit)
			if err != nil {
				return network.Graph{}, err
			}
			if len(rows) >= limit {
				b.truncated = true
			}
			for _, r := range rows {
				okFrom, okTo := b.known(r.From), b.known(r.To)
				if !okFrom {
					if okFrom = b.addNode(r.From, hop); okFrom {
						next = append(next, r.From)
					}
				}
				if !okTo {
					if okTo = b.addNode(r.To, hop); okTo {
						next = append(next, r.To)
					}
				}
				if okFrom && okTo {
					b.addEdge(network.Edge{From: r.From, To: r.To, Kind: network.EdgeTransfer, Count: r.Count, Total: r.Total, First: r.First, Last: r.Last})
				}
			}
		}
		frontier = next
	}
	// The accounts of the last hop were not expanded: the transfers among the graph's accounts
	// that start there (a ring closing at the edge of the graph) are read once more.
	if len(frontier) > 0 && !b.truncated {
		rows, err := queryEdges(ctx, tx, networkClosingSQL, string(tenantID), frontier, p.From, p.To, p.MinAmount, limit, b.order)
		if err != nil {
			return network.Graph{}, err
		}
		for _, r := range rows {
			b.addEdge(network.Edge{From: r.From, To: r.To, Kind: network.EdgeTransfer, Count: r.Count, Total: r.Total, First: r.First, Last: r.Last})
		}
	}
	if p.SharedIdentifiers && !b.truncated {
		if err := sharedIdentifiers(ctx, tx, tenantID, b); err != nil {
			return network.Graph{}, err
		}
	}
	g := network.Graph{Truncated: b.truncated}
	for _, a := range b.order {
		g.Nodes = append(g.Nodes, *b.nodes[a])
	}
	for _, k := range b.edgeOrder {
		g.Edges = append(g.Edges, b.edges[k])
	}
	return g, nil
}
