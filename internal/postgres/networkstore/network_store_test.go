package networkstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/networkstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// seedRandomTransactions inserts n random transfers among accounts 1000000000..+accounts over the
// last 30 days for tenant, as the admin (the shape of scripts/seed/transactions.sql).
func seedRandomTransactions(ctx context.Context, t testing.TB, admin *pgx.Conn, tenant tenancy.TenantID, n, accounts int) {
	t.Helper()
	_, err := admin.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_bvn, sender_name, receiver_account_number, receiver_name, device_id, ip_address,
  transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
select gen_random_uuid(), $1, 'rnd-' || g, 'TRANSFER', 'MOBILE', amt, 'NGN', amt,
  s::text, '2' || lpad((s - 1000000000)::text, 10, '0'), 'Sender ' || s, r::text, 'Receiver ' || r, 'dev-' || s, '10.0.' || (s % 250) || '.' || (s % 7),
  ts, 'vrd_' || g, 'APPROVE', 'LOW', 10, '{}', '[]', 50, ts, ts
from (select g, 1000000000 + (hashint4(g) & 2147483647) % $3 as s, 1000000000 + (hashint4(g # 1431655765) & 2147483647) % $3 as r,
  round(exp(ln(1000) + random() * ln(1000)))::numeric as amt, now() - random() * interval '30 days' as ts
  from generate_series(1, $2::int) g) x`, string(tenant), n, accounts)
	require.NoError(t, err)
}

// plant inserts one transfer from → to.
func plant(ctx context.Context, t testing.TB, admin *pgx.Conn, tenant tenancy.TenantID, from, to, device string, amount int, ago time.Duration) {
	t.Helper()
	_, err := admin.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, receiver_account_number, device_id, transaction_timestamp, verdict_id, outcome, risk_level,
  aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
values (gen_random_uuid(), $1, 'plant-' || gen_random_uuid(), 'TRANSFER', 'MOBILE', $4, 'NGN', $4, $2, 'Planted', $3, nullif($5, ''),
  now() - $6::interval, 'vrd_p', 'APPROVE', 'LOW', 10, '{}', '[]', 50, now(), now())`,
		string(tenant), from, to, amount, device, fmt.Sprintf("%d seconds", int(ago.Seconds())))
	require.NoError(t, err)
}

func findingOf(g network.Graph, kind, account string) *network.Finding {
	for i, f := range g.Findings {
		if f.Kind == kind && f.Account == account {
			return &g.Findings[i]
		}
	}
	return nil
}

// TestNetworkFindsPlantedFanInRing: among 100,000 random transfers between 100,000 accounts,
// ten mule accounts pay one collector, and the collector's money goes round a ring back to a
// mule. The query from one mule finds the fan-in (exactly the ten mules), the ring (exactly its
// four members), and the mules' shared device; the other tenant sees none of it.
func TestNetworkFindsPlantedFanInRing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	admin := pgtest.Admin(ctx, t)
	f := pgtest.Tenant(ctx, t, db)
	other := pgtest.Tenant(ctx, t, db)
	seedRandomTransactions(ctx, t, admin, f.ID, 100_000, 100_000)
	const collector, x, y = "9000000000", "9000000101", "9000000102"
	var mules []string
	for i := range 10 {
		m := fmt.Sprintf("90000000%02d", 10+i)
		mules = append(mules, m)
		plant(ctx, t, admin, f.ID, m, collector, "dev-mule-farm", 95_000+i, time.Duration(i+1)*time.Hour)
		// Each mule is fed by a random account, so the graph reaches into the random ones.
		plant(ctx, t, admin, f.ID, fmt.Sprint(1000000000+7919*i), m, "", 100_000, time.Duration(i+2)*time.Hour)
	}
	plant(ctx, t, admin, f.ID, collector, x, "", 900_000, 30*time.Minute)
	plant(ctx, t, admin, f.ID, x, y, "", 880_000, 20*time.Minute)
	plant(ctx, t, admin, f.ID, y, mules[0], "", 860_000, 10*time.Minute)
	_, err := admin.Exec(ctx, "analyze transactions")
	require.NoError(t, err)

	cs := cases.NewService(postgres.NewCaseStore(db), postgres.NewCaseUsers(db), time.Now)
	svc := network.NewService(networkstore.NewNetworkStore(db), cs, time.Now)
	p := network.Params{Account: mules[4], Hops: 3, SharedIdentifiers: true, FanThreshold: 8}
	start := time.Now()
	g, err := svc.Graph(ctx, f.ID, p)
	require.NoError(t, err)
	t.Logf("graph of %s: %d nodes, %d edges, %d findings, truncated %v, in %s", p.Account, len(g.Nodes), len(g.Edges), len(g.Findings), g.Truncated, time.Since(start))
	require.False(t, g.Truncated)

	fanIn := findingOf(g, network.FindingFanIn, collector)
	require.NotNil(t, fanIn, "findings: %+v", g.Findings)
	require.Equal(t, mules, fanIn.Accounts)
	require.Equal(t, 10, fanIn.Count)
	require.Equal(t, "950045.00", fanIn.Total.StringFixed(2))

	var ring *network.Finding
	for i, f := range g.Findings {
		if f.Kind == network.FindingRing && slices.Contains(f.Accounts, collector) {
			ring = &g.Findings[i]
		}
	}
	require.NotNil(t, ring, "findings: %+v", g.Findings)
	require.Equal(t, []string{collector, mules[0], x, y}, ring.Accounts)
	// Random accounts have about one counterparty each: no random account is a fan of eight.
	for _, f := range g.Findings {
		if f.Kind != network.FindingRing {
			require.Equal(t, collector, f.Account, "unexpected finding %+v", f)
		}
	}

	shared := 0
	for _, e := range g.Edges {
		if e.Kind == network.EdgeSharedDevice && e.Value == "dev-mule-farm" {
			shared++
		}
	}
	require.Equal(t, 9, shared, "a star from the first mule found to the nine others")

	// Bounds: a node cap of 5 truncates; the other tenant's graph holds the seed alone.
	small, err := svc.Graph(ctx, f.ID, network.Params{Account: mules[4], Hops: 3, MaxNodes: 5})
	require.NoError(t, err)
	require.True(t, small.Truncated)
	require.LessOrEqual(t, len(small.Nodes), 5)
	alien, err := svc.Graph(ctx, other.ID, p)
	require.NoError(t, err)
	require.Len(t, alien.Nodes, 1)
	require.Empty(t, alien.Edges)

	// A minimum amount above the mules' payments drops the fan-in but keeps the ring's transfers.
	big, err := svc.Graph(ctx, f.ID, network.Params{Account: collector, Hops: 3, MinAmount: decimal.NewFromInt(800_000)})
	require.NoError(t, err)
	require.Nil(t, findingOf(big, network.FindingFanIn, collector))

	// The finding opens a case; a finding that is not in the graph is NOT_FOUND.
	c, fnd, err := svc.OpenCase(ctx, audit.Caller{TenantID: f.ID, UserID: f.AdminID}, p, network.FindingFanIn, collector)
	require.NoError(t, err)
	require.Equal(t, cases.TypeAMLAlert, c.Type)
	require.Contains(t, c.Description, mules[9])
	require.Equal(t, mules, fnd.Accounts)
	_, _, err = svc.OpenCase(ctx, audit.Caller{TenantID: f.ID, UserID: f.AdminID}, p, network.FindingFanOut, collector)
	require.ErrorContains(t, err, "NOT_FOUND")
}
