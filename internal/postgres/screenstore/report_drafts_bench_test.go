package screenstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// BenchmarkScreeningStoreReports is BenchmarkScreeningStore with a share of the verdicts
// carrying GENERATE_CTR (AML-001, outcome REVIEW), so that the cost of drafting reports in the
// screening commit shows next to the plain path (docs/guide/reports.md "Drafting"):
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreReports -benchtime 5000x
func BenchmarkScreeningStoreReports(b *testing.B) {
	for _, every := range []int{0, 10, 1} { // no CTR, one in ten, every screening
		name := "ctr=none"
		if every > 0 {
			name = fmt.Sprintf("ctr=1in%d", every)
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			db := pgtest.DB(b)
			st := screenstore.NewScreeningStore(db, screenstore.ScreeningStoreOptions{})
			b.Cleanup(st.Close)
			ten := pgtest.Tenant(ctx, b, db)
			benchStore(ctx, b, st, ten.ID, "33", "", func(r *screening.Record, n int64) {
				if every > 0 && n%int64(every) == 0 {
					r.Result.Outcome, r.Result.RiskLevel, r.Result.Score = rules.Review, "MEDIUM", 50
					r.Result.Actions = []string{rules.ActionGenerateCTR, rules.ActionNotifyOfficer}
					r.Result.TriggeredRules = []screening.TriggeredRule{{ID: rules.AML001, Name: "AML-001 Cash Threshold"}}
				}
			})
		})
	}
}
