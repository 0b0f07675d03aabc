package screenstore

import (
	"strings"
	"time"

	"github.com/complyd/complyd/internal/postgres"
)

// The statement of the batched prefetch and its parameters, for plan checks outside this
// package (internal/postgres's partition and KYC tests, EXPLAIN by hand): read-only texts and
// argument builders, no hook that changes what the store does.

// PrefetchSQLForTest is screening's batched prefetch statement, for plan tests.
var PrefetchSQLForTest = prefetchSQL

// PrefetchArgsForTest are PrefetchSQL's arguments for screenings of one tenant (plain slices,
// for the simple protocol too), and PrefetchParamTypes the types of its parameters.
func PrefetchArgsForTest(tenant string, ext, acct []string, ts []time.Time, bvnHash [][]byte) []any {
	args := prefetchArgs(tenant, ext, acct, ts, bvnHash)
	for i, a := range args {
		switch a := a.(type) {
		case postgres.TextArray:
			args[i] = []string(a)
		case postgres.TimeArray:
			args[i] = []time.Time(a)
		}
	}
	return args
}

var PrefetchParamTypes = "uuid, text[], text[], timestamptz[], bytea[], " + strings.Repeat("timestamptz[], ", len(windowColumns)-1) + "timestamptz[]"

// PrefetchSQL is the screening prefetch statement.
var PrefetchSQL = prefetchSQL
