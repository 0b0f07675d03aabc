package screenstore

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestInsertArgsUUIDsEncodeBinary: the group commit's transaction ids ($2::uuid[]) encode in
// binary, the format pgx tries first for a uuid[] parameter. Given as []string they did not
// ("cannot find encode plan"), and pgx built that error and fell back to text for every batch.
func TestInsertArgsUUIDsEncodeBinary(t *testing.T) {
	t.Parallel()
	tenant := tenancy.TenantID("00000000-0000-0000-0000-000000000001")
	recs := benchRecords(tenant, 3)
	args, err := insertArgs(tenant, recs, time.Now())
	require.NoError(t, err)
	m := pgtype.NewMap()
	require.Equal(t, int16(pgtype.BinaryFormatCode), m.FormatCodeForOID(pgtype.UUIDArrayOID))
	_, err = m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, args[1], nil)
	require.NoError(t, err)

	_, err = postgres.ParseUUIDs([]string{recs[0].ID, "txn_not-a-uuid"})
	require.ErrorContains(t, err, "not a uuid")
}

// paramOIDs returns the OIDs of sql's parameters from their casts ($N::type), as PostgreSQL
// describes them when every parameter is cast, as in insertSQL and rollupInsertSQL.
func paramOIDs(t testing.TB, m *pgtype.Map, sql string) []uint32 {
	t.Helper()
	var oids []uint32
	for _, g := range regexp.MustCompile(`\$(\d+)::([a-z0-9]+(?:\[\])?)`).FindAllStringSubmatch(sql, -1) {
		n, err := strconv.Atoi(g[1])
		require.NoError(t, err)
		name := g[2]
		if base, ok := strings.CutSuffix(name, "[]"); ok {
			name = "_" + base // pgtype's name of an array type
		}
		typ, ok := m.TypeForName(name)
		require.True(t, ok, "type %s", g[2])
		for len(oids) < n {
			oids = append(oids, 0)
		}
		if oids[n-1] == 0 {
			oids[n-1] = typ.OID
		}
	}
	for i, oid := range oids {
		require.NotZero(t, oid, "parameter $%d has no cast", i+1)
	}
	return oids
}

// encodeInsert encodes the group commit's insert of recs as pgx does when it sends it.
func encodeInsert(t testing.TB, m *pgtype.Map, sd *pgconn.StatementDescription, eqb *pgx.ExtendedQueryBuilder,
	tenant tenancy.TenantID, recs []*screening.Record) {
	args, err := insertArgs(tenant, recs, time.Now())
	require.NoError(t, err)
	require.NoError(t, eqb.Build(m, sd, rollupArgs(args, recs)))
}

// TestInsertArgsEncodeWithoutPerRowWork: encoding the group commit's insert of records without
// coordinates costs pgx at most two allocations per row (it boxes the two integer columns'
// elements; coordinates, rare, still go through reflection), not one per column:
// the transaction ids went through uuid.UUID's driver.Valuer, for which pgx built an error
// (fmt.Errorf) and parsed a string back for every id of every batch, the text and timestamp
// columns were boxed element by element and the nullable ones copied out by reflection (50
// allocations per row before arrays.go).
func TestInsertArgsEncodeWithoutPerRowWork(t *testing.T) {
	tenant := tenancy.TenantID("00000000-0000-0000-0000-000000000001")
	m := pgtype.NewMap()
	sd := &pgconn.StatementDescription{SQL: rollupInsertSQL, ParamOIDs: paramOIDs(t, m, rollupInsertSQL)}
	var eqb pgx.ExtendedQueryBuilder
	allocs := func(n int) float64 {
		recs := benchRecords(tenant, n)
		args, err := insertArgs(tenant, recs, time.Now())
		require.NoError(t, err)
		args = rollupArgs(args, recs)
		return testing.AllocsPerRun(20, func() { require.NoError(t, eqb.Build(m, sd, args)) })
	}
	one, many := allocs(1), allocs(64)
	require.LessOrEqual(t, many-one, 63*2.0, "allocations per extra row: %v for 1 row, %v for 64", one, many)
}

// BenchmarkInsertArgsEncode is the Go side of the group commit's insert for a batch of 8: its
// arguments built (insertArgs, rollupArgs) and encoded by pgx as it sends them.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkInsertArgsEncode -benchmem
func BenchmarkInsertArgsEncode(b *testing.B) {
	tenant := tenancy.TenantID("00000000-0000-0000-0000-000000000001")
	m := pgtype.NewMap()
	sd := &pgconn.StatementDescription{SQL: rollupInsertSQL, ParamOIDs: paramOIDs(b, m, rollupInsertSQL)}
	var eqb pgx.ExtendedQueryBuilder
	recs := benchRecords(tenant, 8)
	b.ReportAllocs()
	for b.Loop() {
		encodeInsert(b, m, sd, &eqb, tenant, recs)
	}
}
