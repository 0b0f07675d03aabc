package screenstore

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/tenancy"
)

// placeholders returns the distinct $N of sql.
func placeholders(sql string) map[int]bool {
	got := map[int]bool{}
	for _, m := range regexp.MustCompile(`\$(\d+)`).FindAllStringSubmatch(sql, -1) {
		n, _ := strconv.Atoi(m[1])
		got[n] = true
	}
	return got
}

// TestInsertParametersMatchArgs: insertSQL and rollupInsertSQL number their parameters $1..$N
// with no gap, N is the number of arguments insertArgs (and rollupArgs after it) gives, and
// every column of the unnest (u) is read by the statement: an argument sent and never read (the
// dead $44, the last activity, which nothing compared any more) or a parameter with no argument
// fails here, not in production as a wrong column.
func TestInsertParametersMatchArgs(t *testing.T) {
	t.Parallel()
	tenant := tenancy.TenantID("00000000-0000-0000-0000-000000000001")
	recs := benchRecords(tenant, 2)
	args, err := insertArgs(tenant, recs, time.Now())
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		sql  string
		n    int
	}{
		{"insertSQL", insertSQL, len(args)},
		{"rollupInsertSQL", rollupInsertSQL, len(rollupArgs(append([]any(nil), args...), recs))},
	} {
		got := placeholders(tc.sql)
		for i := 1; i <= tc.n; i++ {
			require.True(t, got[i], "%s: argument %d has no $%d", tc.name, i, i)
		}
		require.Len(t, got, tc.n, "%s: parameters beyond its %d arguments", tc.name, tc.n)
	}
	cols := regexp.MustCompile(`(?s)\)\s+as u\((.*?)\)`).FindStringSubmatch(insertCTEsSQL)
	require.NotNil(t, cols)
	names := regexp.MustCompile(`\w+`).FindAllString(cols[1], -1)
	require.Len(t, names, len(args)-1, "one unnest column per argument after the tenant")
	for _, c := range names {
		require.Regexp(t, `\bu\.`+c+`\b`, insertSQL, "column u.%s is sent and never read", c)
	}
}
