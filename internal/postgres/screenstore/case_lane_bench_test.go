package screenstore

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// benchRecords are n screenings of one tenant as the case lane receives them: REVIEW, an
// automatic case each, two engine verdicts with a triggered rule.
func benchRecords(tenant tenancy.TenantID, n int) []*screening.Record {
	recs := make([]*screening.Record, n)
	now := time.Now().UTC().Truncate(time.Microsecond)
	for i := range recs {
		tx := &screening.Transaction{TenantID: tenant, ExternalID: fmt.Sprintf("bench-%06d", i), Type: "TRANSFER",
			Channel: "MOBILE_APP", Amount: decimal.RequireFromString("250000.50"), Currency: "NGN",
			SenderAccountNumber: fmt.Sprintf("31%08d", i), SenderName: "Ada Obi", SenderBVN: "22212345678",
			ReceiverAccountNumber: "0123456789", ReceiverName: "Chike Okafor", Narration: "rent", DeviceID: "dev-1",
			IPAddress: "10.0.0.1", Timestamp: now}
		tx.Normalize()
		recs[i] = &screening.Record{ID: screening.NewTransactionID(), VerdictID: screening.NewID("vrd_"), Tx: tx,
			AmountNGN: tx.Amount, ProcessedAt: now,
			Result: screening.Result{Aggregate: screening.Aggregate{Outcome: rules.Review, RiskLevel: "MEDIUM", Score: 55.5,
				Actions: []string{rules.ActionNotifyOfficer}},
				Breakdown: []screening.EngineVerdict{
					{Category: screening.CategoryRegulatory, Outcome: rules.Review, Score: 60, LatencyMs: 1,
						RulesTriggered: []screening.TriggeredRule{{ID: rules.AML001, Name: "AML-001 Cash Threshold", RiskScore: 60,
							Outcome: rules.Review, Details: "amount over the threshold"}}},
					{Category: "BEHAVIORAL", Outcome: rules.Approve, Score: 10, LatencyMs: 0},
				}},
			Case: &screening.CaseRequest{Type: "AML_ALERT", Priority: "MEDIUM", Title: "REVIEW on " + tx.ExternalID,
				Description: "Screening REVIEW, score 55.50: AML-001 Cash Threshold (REGULATORY, 60)."}}
	}
	return recs
}

// BenchmarkCaseLaneQueue is the Go side of a case-lane batch of 16 screenings, per screening,
// without the database: the insert's arguments (insertArgs), the automatic cases with their
// timeline, audit records, officers' emails and notifications (two officers) and the
// transaction.screened webhooks, queued on a pipelined writer and turned into the pgx batch
// that flush sends. What pgx then costs to encode it is in BenchmarkScreeningStoreCases.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkCaseLaneQueue -benchmem
func BenchmarkCaseLaneQueue(b *testing.B) {
	ctx := context.Background()
	const n = 16
	tenant := tenancy.TenantID("00000000-0000-0000-0000-000000000001")
	db := pgtest.DB(b)
	recs := benchRecords(tenant, n)
	officers := []postgres.UserRow{{ID: "u1", Email: "co1@bank.test", FirstName: "Ngozi"}, {ID: "u2", Email: "co2@bank.test", FirstName: "Emeka"}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N / n {
		if _, err := insertArgs(tenant, recs, time.Now()); err != nil {
			b.Fatal(err)
		}
		w := postgres.NewPipelined(nil)
		w.Urls()[tenant], w.Officers()[tenant] = "https://bank.example/hook", officers
		w.SetRowsHint(n)
		params := make([]cases.NewParams, n)
		for i, r := range recs {
			id := r.ID
			c := r.Case
			params[i] = cases.NewParams{Type: c.Type, Priority: c.Priority, Title: c.Title, Description: c.Description,
				RelatedTransactionID: &id, Tags: []string{"screening"}}
		}
		actor, err := db.ValidateAutomaticCases(tenant, params)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			b.Fatal(err)
		}
		cs, err := db.WriteCases(ctx, w, tenant, params, actor, 1000+n)
		if err != nil {
			b.Fatal(err)
		}
		for i, r := range recs {
			if err := db.QueueWebhook(ctx, w, tenant, webhook.EventTransactionScreened, screenedEvent(r, cs[i].ID)); err != nil {
				b.Fatal(err)
			}
		}
		var batch pgx.Batch
		w.QueueWrites(&batch)
	}
}

// TestScreenedEventJSON pins the transaction.screened data to the bytes of the map it replaced,
// with and without a case, actions and a score with decimals.
func TestScreenedEventJSON(t *testing.T) {
	t.Parallel()
	old := func(rec *screening.Record, caseID string) map[string]any {
		res := rec.Result
		d := map[string]any{"transactionId": rec.ID, "externalId": rec.Tx.ExternalID, "outcome": string(res.Outcome),
			"riskLevel": res.RiskLevel, "aggregateScore": res.Score, "actions": res.Actions,
			"amount": rec.Tx.Amount.String(), "currency": rec.Tx.Currency, "senderAccountNumber": rec.Tx.SenderAccountNumber}
		if caseID != "" {
			d["caseId"] = caseID
		} else {
			d["caseId"] = nil
		}
		return d
	}
	recs := benchRecords("00000000-0000-0000-0000-000000000001", 3)
	recs[1].Result.Actions, recs[1].Result.Score = nil, 0
	recs[2].Result.Actions, recs[2].Result.Score = []string{}, 1e21
	recs[2].Tx.SenderAccountNumber = "<&>\u2028"
	for _, rec := range recs {
		for _, caseID := range []string{"", "case_123"} {
			want, err := json.Marshal(old(rec, caseID))
			require.NoError(t, err)
			got, err := json.Marshal(screenedEvent(rec, caseID))
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
			p := webhook.NewPayload(rec.Tx.TenantID, webhook.EventTransactionScreened, screenedEvent(rec, caseID), time.Unix(0, 0))
			gotP, err := p.Marshal()
			require.NoError(t, err)
			p.Data = old(rec, caseID)
			wantP, err := p.Marshal()
			require.NoError(t, err)
			require.Equal(t, string(wantP), string(gotP))
		}
	}
}
