package network

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

func tr(from, to string, amount int64) Edge {
	return Edge{From: from, To: to, Kind: EdgeTransfer, Count: 1, Total: decimal.NewFromInt(amount)}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edges []Edge
		want  []string // kind:account:members
	}{
		{"nothing", []Edge{tr("a", "b", 1), tr("b", "c", 1)}, nil},
		{"fan-in at the threshold", []Edge{tr("a", "z", 1), tr("b", "z", 1), tr("c", "z", 1)}, []string{"FAN_IN:z:[a b c]"}},
		{"fan-in below the threshold", []Edge{tr("a", "z", 1), tr("b", "z", 1)}, nil},
		{"fan-out", []Edge{tr("z", "a", 1), tr("z", "b", 1), tr("z", "c", 1)}, []string{"FAN_OUT:z:[a b c]"}},
		{"two-way pair is no ring", []Edge{tr("a", "b", 1), tr("b", "a", 1)}, nil},
		{"ring of three", []Edge{tr("a", "b", 1), tr("b", "c", 1), tr("c", "a", 1)}, []string{"RING:a:[a b c]"}},
		{"two rings joined by one edge", []Edge{tr("a", "b", 1), tr("b", "c", 1), tr("c", "a", 1), tr("c", "d", 1),
			tr("d", "e", 1), tr("e", "f", 1), tr("f", "d", 1)}, []string{"RING:a:[a b c]", "RING:d:[d e f]"}},
		{"shared links are not transfers", []Edge{{From: "a", To: "z", Kind: EdgeSharedDevice}, {From: "b", To: "z", Kind: EdgeSharedIP},
			tr("c", "z", 1)}, nil},
		{"self transfer ignored", []Edge{tr("a", "a", 1), tr("a", "a", 2), tr("b", "a", 1)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Detect(tc.edges, 3) {
				got = append(got, f.Kind+":"+f.Account+":"+fmtList(f.Accounts))
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func fmtList(s []string) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out + "]"
}

// TestDetectLongChain: the iterative SCC walk handles a 100,000-account cycle without recursion.
func TestDetectLongChain(t *testing.T) {
	t.Parallel()
	const n = 100_000
	edges := make([]Edge, 0, n)
	for i := range n {
		edges = append(edges, tr(string(rune('a'))+itoa(i), string(rune('a'))+itoa((i+1)%n), 1))
	}
	fs := Detect(edges, 3)
	require.Len(t, fs, 1)
	require.Equal(t, FindingRing, fs[0].Kind)
	require.Len(t, fs[0].Accounts, n)
}

func itoa(i int) string { return decimal.NewFromInt(int64(i)).String() }

func TestNormalize(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	p, err := Normalize(Params{Account: " 123 "}, now)
	require.NoError(t, err)
	require.Equal(t, "123", p.Account)
	require.Equal(t, DefaultHops, p.Hops)
	require.Equal(t, now, p.To)
	require.Equal(t, now.Add(-DefaultPeriod), p.From)
	require.Equal(t, DefaultMaxNodes, p.MaxNodes)
	require.Equal(t, DefaultMaxEdges, p.MaxEdges)
	require.Equal(t, DefaultFanThreshold, p.FanThreshold)

	p, err = Normalize(Params{Account: "1", MaxNodes: 1_000_000, MaxEdges: 1_000_000}, now)
	require.NoError(t, err)
	require.Equal(t, MaxNodesLimit, p.MaxNodes)
	require.Equal(t, MaxEdgesLimit, p.MaxEdges)

	for name, bad := range map[string]Params{
		"account":      {},
		"both":         {Account: "1", CustomerID: "cus_1"},
		"hops":         {Account: "1", Hops: MaxHops + 1},
		"from":         {Account: "1", From: now, To: now.Add(-time.Hour)},
		"long":         {Account: "1", From: now.Add(-MaxPeriod - time.Hour), To: now},
		"minAmount":    {Account: "1", MinAmount: decimal.NewFromInt(-1)},
		"fanThreshold": {Account: "1", FanThreshold: 1},
	} {
		_, err := Normalize(bad, now)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "VALIDATION_ERROR", name)
	}
}
