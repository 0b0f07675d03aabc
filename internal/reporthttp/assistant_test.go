package reporthttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/reporthttp"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/tenancy"
)

// fakeStore is a hand-written reports.Store holding one report.
type fakeStore struct {
	r   reports.Report
	txs []reports.Transaction
}

func (f *fakeStore) Create(context.Context, *reports.Report, reports.Effects) error { return nil }
func (f *fakeStore) Get(context.Context, tenancy.TenantID, string) (*reports.Report, error) {
	r := f.r
	return &r, nil
}
func (f *fakeStore) List(context.Context, tenancy.TenantID, reports.ListParams) (paging.Result[reports.Report], error) {
	return paging.Result[reports.Report]{}, nil
}
func (f *fakeStore) Update(context.Context, tenancy.TenantID, string, func(*reports.Report) (reports.Effects, error)) (*reports.Report, error) {
	return nil, nil
}
func (f *fakeStore) Events(context.Context, tenancy.TenantID, string) ([]reports.Event, error) {
	return nil, nil
}
func (f *fakeStore) Transactions(context.Context, tenancy.TenantID, []string) ([]reports.Transaction, error) {
	return f.txs, nil
}
func (f *fakeStore) Case(context.Context, tenancy.TenantID, string) (reports.CaseFacts, error) {
	return reports.CaseFacts{ID: "case_1", Number: "CASE-2026-00007", Title: "Structuring", Notes: []string{"Teller saw three lodgements"}}, nil
}
func (f *fakeStore) Settings(context.Context, tenancy.TenantID) (reports.Settings, error) {
	return reports.Settings{}, nil
}
func (f *fakeStore) SaveCodeList(context.Context, tenancy.TenantID, reports.CodeList, time.Time, audit.Event) error {
	panic("not used")
}

func (f *fakeStore) SaveSettings(context.Context, tenancy.TenantID, reports.Settings, audit.Event) error {
	return nil
}
func (f *fakeStore) ClaimFiling(context.Context, tenancy.TenantID, string, time.Time, time.Time, func(*reports.Report) reports.Effects) (*reports.Report, error) {
	return nil, errors.New("fake: not stubbed")
}

func store() *fakeStore {
	return &fakeStore{r: reports.Report{ID: "rpt_1", TenantID: "t1", Type: reports.TypeSTR, CustomerAccount: "0123456789",
		CustomerName: "Ada Obi", CaseID: "case_1", Rules: []string{"AML-003"}, TransactionIDs: []string{"tx1"}},
		txs: []reports.Transaction{{ID: "tx1", ExternalID: "TXN-1", Type: "CASH_DEPOSIT", Amount: decimal.RequireFromString("4000000"),
			Currency: "NGN", AmountNGN: decimal.RequireFromString("4000000"), SenderAccountNumber: "0123456789", SenderName: "Ada Obi",
			Timestamp: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), Rules: []string{"AML-003"}}}}
}

// TestNarrativeAssistant runs a fake OpenAI-compatible endpoint: a good answer is used (and the
// endpoint saw only the report's facts); an error, an empty answer or a slow answer leaves the
// deterministic draft, within the time limit.
func TestNarrativeAssistant(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []map[string]any
	var auths []string
	mode := "ok"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req map[string]any
		_ = json.Unmarshal(b, &req)
		mu.Lock()
		seen, auths = append(seen, req), append(auths, r.Header.Get("Authorization"))
		m := mode
		mu.Unlock()
		require.Equal(t, "/v1/chat/completions", r.URL.Path)
		switch m {
		case "ok":
			_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{
				"role": "assistant", "content": "  Improved: Ada Obi lodged NGN 4,000,000.00 in cash.  "}}}})
		case "error":
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		case "empty":
			_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"content": " "}}}})
		case "slow":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(srv.Close)
	st := store()
	deterministic := reports.Narrative(reports.Facts{Type: reports.TypeSTR, CustomerName: "Ada Obi", CustomerAccount: "0123456789",
		Transactions: st.txs, Rules: []string{"AML-003"}, CaseNumber: "CASE-2026-00007", CaseTitle: "Structuring",
		CaseNotes: []string{"Teller saw three lodgements"}})
	svc := reports.NewService(st, nil, reporthttp.NewAssistant(srv.URL+"/v1", "k-123", "gpt-test"), time.Now).
		WithAssistTimeout(300 * time.Millisecond)
	set := func(m string) { mu.Lock(); mode = m; mu.Unlock() }

	s, err := svc.SuggestNarrative(context.Background(), "t1", "rpt_1")
	require.NoError(t, err)
	require.Equal(t, "ASSISTANT", s.Source)
	require.Equal(t, "Improved: Ada Obi lodged NGN 4,000,000.00 in cash.", s.Narrative)
	mu.Lock()
	require.Equal(t, "Bearer k-123", auths[0])
	require.Equal(t, "gpt-test", seen[0]["model"])
	user := seen[0]["messages"].([]any)[1].(map[string]any)["content"].(string)
	mu.Unlock()
	require.Contains(t, user, deterministic)
	require.Contains(t, user, `"caseNotes":["Teller saw three lodgements"]`)
	require.NotContains(t, user, "senderBvn") // nothing beyond the report's facts

	for _, m := range []string{"error", "empty", "slow"} {
		set(m)
		start := time.Now()
		s, err := svc.SuggestNarrative(context.Background(), "t1", "rpt_1")
		require.NoError(t, err, m)
		require.Equal(t, "DETERMINISTIC", s.Source, m)
		require.Equal(t, deterministic, s.Narrative, m)
		require.NotEmpty(t, s.Warning, m)
		require.Less(t, time.Since(start), 2*time.Second, m)
	}

	// Without an assistant: the deterministic draft, no warning.
	s, err = reports.NewService(st, nil, nil, time.Now).SuggestNarrative(context.Background(), "t1", "rpt_1")
	require.NoError(t, err)
	require.Equal(t, reports.Suggestion{Narrative: deterministic, Source: "DETERMINISTIC"}, s)
	require.True(t, strings.HasPrefix(deterministic, "This suspicious transaction report concerns Ada Obi (account 0123456789)."))
}
