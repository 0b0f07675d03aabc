package postgres

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

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

	_, err = uuidArray([]string{recs[0].ID, "txn_not-a-uuid"})
	require.ErrorContains(t, err, "not a uuid")
}
