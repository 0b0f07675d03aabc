package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/sanctionsstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

type searchMatch struct {
	List        string  `json:"list"`
	ListType    string  `json:"listType"`
	EntryID     string  `json:"entryId"`
	SourceID    string  `json:"sourceId"`
	Name        string  `json:"name"`
	MatchedName string  `json:"matchedName"`
	Score       float64 `json:"score"`
	Explanation string  `json:"explanation"`
	Band        string  `json:"band"`
}

func (s *testServer) search(c cred, body map[string]any) []searchMatch {
	s.t.Helper()
	var out struct {
		Matches []searchMatch `json:"matches"`
	}
	s.rest("POST", "/api/v1/sanctions/search", c, body).decode(s.t, &out)
	return out.Matches
}

func (s *testServer) watchlistClient(proto string, c cred) complydv1connect.WatchlistServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewWatchlistServiceClient(hc, s.URL, opts...)
}

func (s *testServer) sanctionsClient(proto string, c cred) complydv1connect.SanctionsServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewSanctionsServiceClient(hc, s.URL, opts...)
}

// TestWatchlistAPI: CRUD of decisions §10, entries screened from the moment they are added,
// roles, tenant isolation and audit.
func TestWatchlistAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, adminTok := s.tenant()
	admin := cred{Bearer: adminTok}
	_, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	analyst := cred{Bearer: analystTok}
	_, auditorTok := s.userWithRole(f.ID, auth.RoleAuditor)
	auditor := cred{Bearer: auditorTok}

	env := s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "Blocked customers", "type": "INTERNAL"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var wl struct {
		ID         string  `json:"id"`
		Name       string  `json:"name"`
		Type       string  `json:"type"`
		EntryCount int     `json:"entryCount"`
		CreatedBy  *string `json:"createdBy"`
	}
	env.decode(t, &wl)
	require.Equal(t, "INTERNAL", wl.Type)
	require.Equal(t, f.AdminID, *wl.CreatedBy)
	requireRESTError(t, s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "Blocked customers", "type": "PEP"}), 409, "CONFLICT")
	requireRESTError(t, s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "x", "type": "OTHER"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("POST", "/api/v1/watchlists", auditor, map[string]any{"name": "y", "type": "PEP"}), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("POST", "/api/v1/watchlists", analyst, map[string]any{"name": "y", "type": "PEP"}), 403, "FORBIDDEN")

	// Not screened before the entry exists.
	require.Empty(t, s.search(analyst, map[string]any{"name": "Oluwaseun Babatunde Adeyemi"}))
	env = s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Oluwaseun Babatunde Adeyemi",
		"aliases": []string{"Seun Adeyemi"}, "entityType": "INDIVIDUAL", "dateOfBirth": "1980-04-02", "country": "NG", "reference": "CUST-0042"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var entry struct {
		ID          string `json:"id"`
		DateOfBirth string `json:"dateOfBirth"`
		Reference   string `json:"reference"`
	}
	env.decode(t, &entry)
	require.Equal(t, "1980-04-02T00:00:00Z", entry.DateOfBirth)
	requireRESTError(t, s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", auditor, map[string]any{"name": "Z"}), 403, "FORBIDDEN")

	// Screened at once, by every role, over every protocol, with sourceId = reference.
	ms := s.search(auditor, map[string]any{"name": "Oluwaseun Babatunde Adeyemi"})
	require.Len(t, ms, 1)
	require.Equal(t, searchMatch{List: "Blocked customers", ListType: "INTERNAL", EntryID: entry.ID, SourceID: "CUST-0042",
		Name: "Oluwaseun Babatunde Adeyemi", MatchedName: "Oluwaseun Babatunde Adeyemi", Score: 1, Band: "BLOCK",
		Explanation: ms[0].Explanation}, ms[0])
	require.Contains(t, ms[0].Explanation, `of Blocked customers entry `+entry.ID)
	for _, proto := range []string{"connect", "grpc"} {
		res, err := s.sanctionsClient(proto, analyst).Search(context.Background(), connect.NewRequest(&complydv1.SearchRequest{Name: "Olusegun Adeyemi"}))
		require.NoError(t, err, proto)
		require.Len(t, res.Msg.Matches, 1, proto)
		require.Equal(t, "REVIEW", res.Msg.Matches[0].Band)
		require.Equal(t, entry.ID, res.Msg.Matches[0].EntryId)
		require.Contains(t, res.Msg.Matches[0].Explanation, `"olusegun"~"oluwaseun" (typo, 1 edit)`)
	}
	require.Len(t, s.search(analyst, map[string]any{"name": "Olusegun Adeyemi", "threshold": 0.85}), 0)
	requireRESTError(t, s.rest("POST", "/api/v1/sanctions/search", analyst, map[string]any{"name": "x", "threshold": 1.5}), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("POST", "/api/v1/sanctions/search", analyst, map[string]any{"name": "x", "limit": 101}), 400, "VALIDATION_ERROR")

	// Reads: list, get, entries (paginated); another tenant sees nothing.
	var page struct {
		Items []struct {
			ID         string `json:"id"`
			EntryCount int    `json:"entryCount"`
		} `json:"items"`
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/watchlists", auditor, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, 1, page.Items[0].EntryCount)
	s.rest("GET", "/api/v1/watchlists/"+wl.ID+"/entries?limit=5", analyst, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, entry.ID, page.Items[0].ID)
	g, otherTok := s.tenant()
	other := cred{Bearer: otherTok}
	requireRESTError(t, s.rest("GET", "/api/v1/watchlists/"+wl.ID, other, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("DELETE", "/api/v1/watchlists/"+wl.ID+"/entries/"+entry.ID, other, nil), 404, "NOT_FOUND")
	require.Empty(t, s.search(other, map[string]any{"name": "Oluwaseun Babatunde Adeyemi"}))
	_ = g
	for _, proto := range []string{"connect", "grpc"} {
		_, err := s.watchlistClient(proto, other).GetWatchlist(context.Background(), connect.NewRequest(&complydv1.GetWatchlistRequest{Id: wl.ID}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeNotFound, code)
		require.Equal(t, "NOT_FOUND", info.Code)
	}

	// Delete the entry, then the list: no longer screened.
	require.True(t, s.rest("DELETE", "/api/v1/watchlists/"+wl.ID+"/entries/"+entry.ID, admin, nil).Success)
	require.Empty(t, s.search(analyst, map[string]any{"name": "Oluwaseun Babatunde Adeyemi"}))
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Emeka Obi Okonkwo"})
	require.Len(t, s.search(analyst, map[string]any{"name": "Emeka Obi Okonkwo"}), 1)
	require.True(t, s.rest("DELETE", "/api/v1/watchlists/"+wl.ID, admin, nil).Success)
	require.Empty(t, s.search(analyst, map[string]any{"name": "Emeka Obi Okonkwo"}))
	requireRESTError(t, s.rest("GET", "/api/v1/watchlists/"+wl.ID, admin, nil), 404, "NOT_FOUND")

	var actions []string
	rows, err := s.admin().Query(context.Background(), "select action from audit_events where tenant_id = $1 and resource_type like 'watchlist%' order by created_at, action", string(f.ID))
	require.NoError(t, err)
	for rows.Next() {
		var a string
		require.NoError(t, rows.Scan(&a))
		actions = append(actions, a)
	}
	require.ElementsMatch(t, []string{"watchlist.created", "watchlist.entry_added", "watchlist.entry_deleted", "watchlist.entry_added", "watchlist.deleted"}, actions)
}

// TestFalsePositiveAPI: a reviewed false positive stops a search that passes the subject key
// from reporting the entry, until it is revoked; officers only; audited.
func TestFalsePositiveAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, adminTok := s.tenant()
	admin := cred{Bearer: adminTok}
	_, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	officer := cred{Bearer: officerTok}
	_, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	analyst := cred{Bearer: analystTok}

	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "PEP NG", "type": "PEP"}).decode(t, &wl)
	var e1, e2 struct{ ID string }
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Ngozi Adaeze Okafor"}).decode(t, &e1)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Ngozi Okafor Eze"}).decode(t, &e2)
	ids := func(body map[string]any) []string {
		var out []string
		for _, m := range s.search(analyst, body) {
			out = append(out, m.EntryID)
		}
		return out
	}
	require.ElementsMatch(t, []string{e1.ID, e2.ID}, ids(map[string]any{"name": "Ngozi Okafor"}))

	body := map[string]any{"subjectKey": "22233344455", "entryId": e1.ID, "reason": "different person: DOB and BVN differ"}
	requireRESTError(t, s.rest("POST", "/api/v1/sanctions/false-positives", analyst, body), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("POST", "/api/v1/sanctions/false-positives", officer, map[string]any{"subjectKey": "k", "entryId": "nope", "reason": "r"}), 404, "NOT_FOUND")
	env := s.rest("POST", "/api/v1/sanctions/false-positives", officer, body)
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var fp struct {
		ID        string  `json:"id"`
		Active    bool    `json:"active"`
		RevokedAt *string `json:"revokedAt"`
	}
	env.decode(t, &fp)
	require.True(t, fp.Active)
	require.Nil(t, fp.RevokedAt)
	requireRESTError(t, s.rest("POST", "/api/v1/sanctions/false-positives", officer, body), 409, "CONFLICT")

	require.Equal(t, []string{e2.ID}, ids(map[string]any{"name": "Ngozi Okafor", "subjectKey": "22233344455"}))
	require.ElementsMatch(t, []string{e1.ID, e2.ID}, ids(map[string]any{"name": "Ngozi Okafor", "subjectKey": "99999999999"}))
	require.ElementsMatch(t, []string{e1.ID, e2.ID}, ids(map[string]any{"name": "Ngozi Okafor"}))

	// The pipeline's adapter applies it when it has the subject key.
	hits, err := newNameScreener(s.App.Sanctions).Screen(context.Background(), f.ID, screening.NameQuery{Name: "Ngozi Okafor",
		EntityType: "INDIVIDUAL", SubjectKeys: []string{"0123456789", "22233344455"}})
	require.NoError(t, err)
	require.Len(t, hits, 1)
	require.Equal(t, e2.ID, hits[0].EntryID)

	var page struct {
		Items []struct {
			ID     string `json:"id"`
			Active bool   `json:"active"`
		} `json:"items"`
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/sanctions/false-positives", analyst, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)

	requireRESTError(t, s.rest("DELETE", "/api/v1/sanctions/false-positives/"+fp.ID, analyst, nil), 403, "FORBIDDEN")
	env = s.rest("DELETE", "/api/v1/sanctions/false-positives/"+fp.ID, officer, nil)
	env.decode(t, &fp)
	require.False(t, fp.Active)
	require.NotNil(t, fp.RevokedAt)
	requireRESTError(t, s.rest("DELETE", "/api/v1/sanctions/false-positives/"+fp.ID, officer, nil), 404, "NOT_FOUND")
	require.ElementsMatch(t, []string{e1.ID, e2.ID}, ids(map[string]any{"name": "Ngozi Okafor", "subjectKey": "22233344455"}))
	s.rest("GET", "/api/v1/sanctions/false-positives?activeOnly=true", analyst, nil).decode(t, &page)
	require.Equal(t, 0, page.Total)

	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from audit_events where tenant_id = $1
		and action in ('sanctions.false_positive_created', 'sanctions.false_positive_revoked')`, string(f.ID)).Scan(&n))
	require.Equal(t, 2, n)
}

// tableSubjects is a SubjectSource over a test table (the KYC/KYB/customer capabilities provide
// the real one after merge).
type tableSubjects struct{ pool *pgxpool.Pool }

func (s tableSubjects) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(sanctions.Subject) error) error {
	rows, err := s.pool.Query(ctx, "select subject_type, subject_id, name, entity_type, subject_key from test_rescreen_subjects where tenant_id = $1 order by subject_id", string(tenantID))
	if err != nil {
		return err
	}
	defer rows.Close()
	var subs []sanctions.Subject
	for rows.Next() {
		sub := sanctions.Subject{TenantID: tenantID}
		var et string
		if err := rows.Scan(&sub.Type, &sub.ID, &sub.Name, &et, &sub.Key); err != nil {
			return err
		}
		sub.EntityType = sanctions.EntityType(et)
		subs = append(subs, sub)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, sub := range subs {
		if err := fn(sub); err != nil {
			return err
		}
	}
	return nil
}

// fakeCaseOpener records case requests (the cases capability implements CaseOpener after merge).
type fakeCaseOpener struct {
	mu       sync.Mutex
	requests []sanctions.CaseRequest
}

func (o *fakeCaseOpener) OpenCase(_ context.Context, r sanctions.CaseRequest) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests = append(o.requests, r)
	return nil
}

// TestRescreenOnEntryAdded: adding a tenant entry enqueues, in its transaction, a re-screening
// job; the job finds the tenant's subject that now matches, records the hit in PostgreSQL and
// opens one case through the CaseOpener port (a fake here); re-running opens no second case.
func TestRescreenOnEntryAdded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newTestServer(t, nil)
	f, adminTok := s.tenant()
	admin := cred{Bearer: adminTok}
	pool, err := pgxpool.New(ctx, pgtest.URL(t))
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	_, err = pool.Exec(ctx, `create table if not exists test_rescreen_subjects (tenant_id uuid, subject_type text, subject_id text,
		name text, entity_type text, subject_key text)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `insert into test_rescreen_subjects values ($1, 'KYC_APPLICATION', 'kyc_1', 'Ibrahim Musa Danjuma', 'INDIVIDUAL', '12345678901'),
		($1, 'CUSTOMER_PROFILE', 'cus_2', 'Chidinma Eze', 'INDIVIDUAL', '0001112223'),
		($1, 'KYB_APPLICATION', 'kyb_3', 'Danjuma Musa Ibrahim Trading Ltd', 'BUSINESS', 'RC123')`, string(f.ID))
	require.NoError(t, err)

	var wl, entry struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "Fraud ring", "type": "SANCTIONS"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Ibrahim Musa Danjuma",
		"entityType": "INDIVIDUAL", "reference": "FR-7"}).decode(t, &entry)

	var raw []byte
	require.NoError(t, s.admin().QueryRow(ctx, `select args from river_job where kind = 'sanctions_rescreen' and args->>'entryId' = $1`, entry.ID).Scan(&raw))
	var args sanctions.RescreenArgs
	require.NoError(t, json.Unmarshal(raw, &args))
	require.Equal(t, sanctions.RescreenArgs{TenantID: string(f.ID), List: "Fraud ring", ListVersion: "entry:" + entry.ID, EntryID: entry.ID}, args)

	cases := &fakeCaseOpener{}
	w := &jobs.RescreenWorker{Rescreener: &sanctions.Rescreener{Service: s.App.Sanctions, Subjects: tableSubjects{pool}, Cases: cases,
		Logger: slog.New(slog.DiscardHandler)}}
	for range 2 {
		require.NoError(t, w.Work(ctx, &river.Job[sanctions.RescreenArgs]{Args: args}))
	}
	require.Len(t, cases.requests, 1, "re-runs never open a second case")
	c := cases.requests[0]
	require.Equal(t, sanctions.CaseSanctionsHit, c.Type)
	require.Equal(t, "kyc_1", c.Subject.ID)
	require.Equal(t, "12345678901", c.Subject.Key)
	require.Equal(t, entry.ID, c.Match.EntryID)
	require.Equal(t, "FR-7", c.Match.SourceID)
	require.Equal(t, sanctions.BandBlock, c.Band)
	require.Equal(t, "entry:"+entry.ID, c.ListVersion)

	hits, err := sanctionsstore.NewSanctionsStore(s.DB).RescreenHits(ctx, f.ID)
	require.NoError(t, err)
	require.Equal(t, []sanctions.RescreenHit{{SubjectType: "KYC_APPLICATION", SubjectID: "kyc_1", EntryID: entry.ID, List: "Fraud ring",
		ListVersion: "entry:" + entry.ID, Score: 1}}, hits)
}

// TestSanctionsEngineBands: the pipeline's Global Sanctions Screening engine over the
// NameScreener adapter, with the real OFAC SDN + UN lists and a tenant entry, returns BLOCK,
// ESCALATE and REVIEW at the docs/design/design-choices.md §8 thresholds, with each hit's explanation.
func TestSanctionsEngineBands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newTestServer(t, nil)
	f, adminTok := s.tenant()
	entries, err := loadSharedLists("")
	if err != nil {
		missingData(t, "shared lists: %v", err)
	}
	// A replica of its own, with the real lists in memory (this package's database keeps no
	// global list, so that other tests see sanctions "empty").
	svc := newSanctionsService(s.DB, time.Now, slog.New(slog.DiscardHandler), sanctions.NewMatcher())
	byList := map[string][]sanctions.Entry{}
	for _, e := range entries {
		byList[e.List] = append(byList[e.List], e)
	}
	svc.Matcher().SetGlobal(byList)
	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: adminTok}, map[string]any{"name": "Internal", "type": "INTERNAL"}).decode(t, &wl)
	var entry struct{ ID string }
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: adminTok}, map[string]any{"name": "Oluwaseun Babatunde Adeyemi",
		"entityType": "INDIVIDUAL"}).decode(t, &entry)
	require.NoError(t, svc.ReloadTenant(ctx, f.ID))
	engine := screening.NewSanctionsEngine(newNameScreener(svc))

	for _, tc := range []struct {
		sender  string
		outcome rules.Outcome
		score   int
		entryID string
	}{
		{"Ayman al-Zawahiri", rules.Block, 100, "ofac-sdn:2676"},
		{"Aiman Zawahri", rules.Escalate, 75, "ofac-sdn:2676"},
		{"Oluwaseun Babatunde Adeyemi", rules.Block, 100, entry.ID},
		{"Oluwaseun Adeyemi", rules.Escalate, 75, entry.ID},
		{"Olusegun Adeyemi", rules.Review, 50, entry.ID},
		{"Seun Babatunde Adeyemi", rules.Approve, 0, ""},
	} {
		v, err := engine.Evaluate(ctx, &screening.Transaction{TenantID: f.ID, SenderName: tc.sender, EntityType: "INDIVIDUAL"}, &screening.Enrichment{})
		require.NoError(t, err, tc.sender)
		require.Equal(t, tc.outcome, v.Outcome, tc.sender)
		require.Equal(t, tc.score, v.Score, tc.sender)
		if tc.entryID == "" {
			require.Empty(t, v.Hits, tc.sender)
			continue
		}
		require.Equal(t, tc.entryID, v.Hits[0].EntryID, tc.sender)
		require.Contains(t, v.Hits[0].Explanation, "Matched ", tc.sender)
		require.Contains(t, v.Hits[0].Explanation, tc.entryID, tc.sender)
		require.NotEmpty(t, v.RulesTriggered, tc.sender)
	}
}

// TestWatchlistImportCLI: a bad file fails with a clear error before any database work; the
// import itself is covered against PostgreSQL in internal/postgres (TestSanctionsImport).
func TestWatchlistImportCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := dir + "/sdn.csv"
	require.NoError(t, os.WriteFile(bad, []byte("not,a,list\n"), 0o600))
	var out bytes.Buffer
	err := watchlistImport(context.Background(), []string{"--format", "ofac-sdn-csv", "--list", "OFAC-SDN", bad}, slog.New(slog.DiscardHandler), &out)
	require.ErrorIs(t, err, sanctions.ErrBadListFile)
	require.ErrorContains(t, err, "import OFAC-SDN")
	err = watchlistImport(context.Background(), []string{"--format", "ofac-sdn-csv", bad}, slog.New(slog.DiscardHandler), &out)
	require.ErrorContains(t, err, "usage")
	require.Error(t, watchlistCmd(context.Background(), []string{"nope"}, slog.New(slog.DiscardHandler)))
}

// TestWatchlistEvalCLI prints the evaluation table for the shared lists.
func TestWatchlistEvalCLI(t *testing.T) {
	t.Parallel()
	if _, err := loadSharedLists(""); err != nil {
		missingData(t, "shared lists: %v", err)
	}
	var out bytes.Buffer
	require.NoError(t, watchlistEval(context.Background(), nil, slog.New(slog.DiscardHandler), &out))
	require.Contains(t, out.String(), "| threshold | precision | recall | F1 |")
	require.Contains(t, out.String(), "| 0.75 |")
	require.Contains(t, out.String(), "| 0.95 |")
}

// TestSanctionsPermissions pins who may call the sanctions and watchlist procedures
// (docs/design/design-choices.md §4, §10; docs/guide/sanctions.md).
func TestSanctionsPermissions(t *testing.T) {
	t.Parallel()
	all := auth.Roles{auth.RoleBankAdmin, auth.RoleComplianceOfficer, auth.RoleAnalyst, auth.RoleAuditor}
	want := map[string]auth.Roles{
		complydv1connect.WatchlistServiceCreateWatchlistProcedure:      {auth.RoleBankAdmin},
		complydv1connect.WatchlistServiceListWatchlistsProcedure:       all,
		complydv1connect.WatchlistServiceGetWatchlistProcedure:         all,
		complydv1connect.WatchlistServiceDeleteWatchlistProcedure:      {auth.RoleBankAdmin},
		complydv1connect.WatchlistServiceAddWatchlistEntryProcedure:    {auth.RoleBankAdmin},
		complydv1connect.WatchlistServiceListWatchlistEntriesProcedure: all,
		complydv1connect.WatchlistServiceDeleteWatchlistEntryProcedure: {auth.RoleBankAdmin},
		complydv1connect.SanctionsServiceSearchProcedure:               all,
		complydv1connect.SanctionsServiceCreateFalsePositiveProcedure:  {auth.RoleBankAdmin, auth.RoleComplianceOfficer},
		complydv1connect.SanctionsServiceListFalsePositivesProcedure:   all,
		complydv1connect.SanctionsServiceRevokeFalsePositiveProcedure:  {auth.RoleBankAdmin, auth.RoleComplianceOfficer},
	}
	perms := connectapi.Permissions()
	for proc, roles := range want {
		a, ok := perms[proc]
		require.True(t, ok, proc)
		require.False(t, a.Public, proc)
		require.ElementsMatch(t, roles, a.Roles, proc)
	}
}

// TestHealthSanctions: the health check reports the matcher of this replica: "empty" with no
// global list, "ok" once one is loaded (docs/design/design-choices.md §10). No list is expected here (the
// freshness of expected lists: TestListFreshness).
func TestHealthSanctions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{NoGlobalLists: true, Config: func(c *config) { c.ExpectedLists = []string{} }})
	var h struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	s.rest("GET", "/api/v1/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "empty", h.Checks["sanctions"])
	require.Equal(t, "degraded", h.Status)
	s.App.Sanctions.Matcher().Replace("TEST-LIST", []sanctions.Entry{{ID: "test-list:1", SourceID: "1", List: "TEST-LIST",
		ListType: sanctions.ListTypeSanctions, Name: "Abubakar Shekau"}})
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "ok", h.Checks["sanctions"])
	require.Equal(t, "ok", h.Status)
}

// TestRescreenOpensCaseEndToEnd: with workers running, adding a tenant watchlist entry that
// matches an existing KYC applicant re-screens the tenant in the background and opens one
// SANCTIONS_HIT case linked to the application, through the real subject source and case opener.
func TestRescreenOpensCaseEndToEnd(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Workers: true})
	_, adminTok := s.tenant()
	admin := cred{Bearer: adminTok}
	var app struct{ ID string }
	s.rest("POST", "/api/v1/kyc/applications", admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ibrahim",
		"lastName": "Danjuma", "bvn": "12345678901"}).decode(t, &app)
	s.rest("POST", "/api/v1/kyc/applications", admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Chidinma",
		"lastName": "Eze"}).decode(t, &struct{}{})

	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "Fraud ring", "type": "SANCTIONS"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Ibrahim Danjuma",
		"entityType": "INDIVIDUAL", "reference": "FR-7"}).decode(t, &struct{}{})

	type caseItem struct {
		ID                      string  `json:"id"`
		Type                    string  `json:"type"`
		Priority                string  `json:"priority"`
		RelatedKycApplicationID *string `json:"relatedKycApplicationId"`
		Title                   string  `json:"title"`
	}
	var list struct {
		Items []caseItem `json:"items"`
		Total int        `json:"total"`
	}
	waitFor(t, 20*time.Second, "re-screening case", func() bool {
		s.rest("GET", "/api/v1/cases?type=SANCTIONS_HIT", admin, nil).decode(t, &list)
		return list.Total > 0
	})
	require.Equal(t, 1, list.Total)
	c := list.Items[0]
	require.Equal(t, "CRITICAL", c.Priority)
	require.NotNil(t, c.RelatedKycApplicationID)
	require.Equal(t, app.ID, *c.RelatedKycApplicationID)
	require.Contains(t, c.Title, "Ibrahim Danjuma")

	// Another list change re-screens again without a second case for the same pair.
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Somebody Else Entirely",
		"entityType": "INDIVIDUAL"}).decode(t, &struct{}{})
	time.Sleep(1500 * time.Millisecond)
	s.rest("GET", "/api/v1/cases?type=SANCTIONS_HIT", admin, nil).decode(t, &list)
	require.Equal(t, 1, list.Total)
}

// TestRescreenCoversKYBPeople: a director of a KYB application who appears on a newly added
// tenant entry opens a case of its own.
func TestRescreenCoversKYBPeople(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Workers: true})
	_, adminTok := s.tenant()
	admin := cred{Bearer: adminTok}
	env := s.rest("POST", "/api/v1/kyc/kyb/applications", admin, map[string]any{"companyName": "Lagos Grain Traders Ltd", "rcNumber": "RC1234567",
		"directors": []map[string]any{{"name": "Oluwaseun Bakare"}, {"name": "Amina Yusuf Garba"}}})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", admin, map[string]any{"name": "Internal", "type": "INTERNAL"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", admin, map[string]any{"name": "Amina Yusuf Garba",
		"entityType": "INDIVIDUAL"}).decode(t, &struct{}{})
	var list struct {
		Items []struct {
			Title string `json:"title"`
		} `json:"items"`
		Total int `json:"total"`
	}
	waitFor(t, 20*time.Second, "re-screening case", func() bool {
		s.rest("GET", "/api/v1/cases?type=SANCTIONS_HIT", admin, nil).decode(t, &list)
		return list.Total > 0
	})
	require.Equal(t, 1, list.Total)
	require.Contains(t, list.Items[0].Title, "Amina Yusuf Garba")
}
