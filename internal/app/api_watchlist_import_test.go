package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/sanctions"
)

// pepCSV is a PEP list as a compliance team exports it from a spreadsheet: a header row, a BOM,
// aliases separated by ';', a quoted name with a comma.
const pepCSV = "\ufeffname,aliases,entityType,dateOfBirth,country,reference\n" +
	"Babajide Olusola Sanwo-Olu,Jide Sanwo-Olu;B. O. Sanwo-Olu,INDIVIDUAL,1965-06-25,NG,PEP-NG-0001\n" +
	"\"Adeyemi, Oluwaseun\",,INDIVIDUAL,,NG,PEP-NG-0002\n" +
	"\n" +
	"Ngozi Chinwe Okafor-Eze,,,1971-02-14,Nigeria,PEP-NG-0003\n"

type importJSON struct {
	Rows       int `json:"rows"`
	Imported   int `json:"imported"`
	EntryCount int `json:"entryCount"`
	Errors     []struct {
		Line    int    `json:"line"`
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"errors"`
}

// TestWatchlistImportPEPEndToEnd: a PEP list imported as CSV through /api/v1 is screened at once:
// a transfer from that person carries AML-004 (PEP). A file with a bad row reports the row's
// line and field, and keeps nothing. JSON Lines works through Connect and gRPC.
func TestWatchlistImportPEPEndToEnd(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	env := s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Lagos PEPs", "type": "PEP"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var wl struct {
		ID string `json:"id"`
	}
	env.decode(t, &wl)
	path := "/api/v1/watchlists/" + wl.ID + "/entries:import"

	bad := "name,entityType,dateOfBirth\nGood Person,INDIVIDUAL,1980-01-01\n,INDIVIDUAL,\nThird Person,ROBOT,1980-13-40\n"
	env = s.rest("POST", path, cred{Bearer: admin}, map[string]any{"format": "CSV", "content": bad})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var res importJSON
	env.decode(t, &res)
	require.Equal(t, 3, res.Rows)
	require.Equal(t, 0, res.Imported)
	require.Equal(t, 0, res.EntryCount, "nothing of a failed import is kept")
	require.Len(t, res.Errors, 3)
	require.Equal(t, 3, res.Errors[0].Line)
	require.Equal(t, "name", res.Errors[0].Field)
	require.Equal(t, 4, res.Errors[1].Line)
	require.Equal(t, "entityType", res.Errors[1].Field)
	require.Equal(t, "dateOfBirth", res.Errors[2].Field)
	env = s.rest("GET", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, nil)
	require.Contains(t, string(env.Raw), `"total":0`)

	requireRESTError(t, s.rest("POST", path, cred{Bearer: analystTok}, map[string]any{"format": "CSV", "content": pepCSV}), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("POST", path, cred{Bearer: admin}, map[string]any{"format": "XLSX", "content": pepCSV}), 400, "VALIDATION_ERROR")

	env = s.rest("POST", path, cred{Bearer: admin}, map[string]any{"format": "CSV", "content": pepCSV})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	res = importJSON{}
	env.decode(t, &res)
	require.Empty(t, res.Errors)
	require.Equal(t, 3, res.Rows)
	require.Equal(t, 3, res.Imported)
	require.Equal(t, 3, res.EntryCount)
	env = s.rest("GET", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, nil)
	require.Contains(t, string(env.Data), "Jide Sanwo-Olu")
	require.Contains(t, string(env.Data), "PEP-NG-0003")

	body := screenBody(ext("pep"), "3200000001", 150000)
	body["senderName"] = "Babajide Olusola Sanwo-Olu"
	out, env := s.screen(admin, body)
	require.True(t, env.Success, "%s", env.Raw)
	var aml004 string
	for _, r := range out.TriggeredRules {
		if strings.Contains(r.Details, "PEP") && strings.Contains(r.Details, "Lagos PEPs") {
			aml004 = r.Name
		}
	}
	require.NotEmpty(t, aml004, "AML-004 fires on the imported PEP: %s", env.Raw)
	found := false
	for _, v := range out.RiskBreakdown {
		for _, id := range v.RulesTriggered {
			found = found || id == "AML-004" || strings.HasPrefix(id, "AML-004")
		}
	}
	require.True(t, found, "AML-004 in the breakdown: %s", env.Raw)

	// JSON Lines through Connect and gRPC; a bad line is reported with its number.
	for i, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		cl := complydv1connect.NewWatchlistServiceClient(hc, s.URL, opts...)
		r, err := cl.ImportWatchlistEntries(context.Background(), connect.NewRequest(&complydv1.ImportWatchlistEntriesRequest{
			WatchlistId: wl.ID, Format: "JSONL",
			Content: "{\"name\":\"Musa Bello\",\"aliases\":[\"M. Bello\"],\"reference\":\"J" + proto + "\"}\n{\"name\": 7}\n"}))
		require.NoError(t, err, proto)
		require.EqualValues(t, 0, r.Msg.Imported)
		require.Len(t, r.Msg.Errors, 1)
		require.EqualValues(t, 2, r.Msg.Errors[0].Line)
		r, err = cl.ImportWatchlistEntries(context.Background(), connect.NewRequest(&complydv1.ImportWatchlistEntriesRequest{
			WatchlistId: wl.ID, Format: "JSONL", Content: "{\"name\":\"Musa Bello\",\"entity_type\":\"INDIVIDUAL\",\"country\":\"NG\"}\n"}))
		require.NoError(t, err, proto)
		require.EqualValues(t, 1, r.Msg.Imported)
		require.EqualValues(t, 4+i, r.Msg.EntryCount)
	}

	// Another tenant's list is 404.
	_, other := s.tenant()
	requireRESTError(t, s.rest("POST", path, cred{Bearer: other}, map[string]any{"format": "CSV", "content": pepCSV}), 404, "NOT_FOUND")

	// The global lists with their versions.
	env = s.rest("GET", "/api/v1/sanctions/lists", cred{Bearer: analystTok}, nil)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
}

// TestGlobalListImportFormats: `complyd watchlist import` (importList) loads a PEP list in the
// house CSV, the EU consolidated list XML and the UK list CSV into a running server, which
// screens against them within seconds (the import's NOTIFY) and lists their versions.
func TestGlobalListImportFormats(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	_, admin := s.kycTenant()
	ctx := context.Background()
	bg, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	s.App.startBackground(bg) // the sanctions listener, as `serve` runs it
	log := slog.New(slog.DiscardHandler)
	read := func(name string) []sanctions.SourceFile {
		b, err := os.ReadFile(filepath.Join("..", "sanctions", "testdata", "lists", name))
		require.NoError(t, err)
		return []sanctions.SourceFile{{Name: name, Data: b}}
	}
	var out bytes.Buffer
	require.NoError(t, importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: "NG-PEP", Type: sanctions.ListTypePEP,
		Format: sanctions.FormatCSV, Files: []sanctions.SourceFile{{Name: "peps.csv", Data: []byte(pepCSV)}}}))
	require.NoError(t, importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: sanctions.ListEUFSF,
		Format: sanctions.FormatEUXML, Files: read("eu_fsf_sample.xml")}))
	require.NoError(t, importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: sanctions.ListUK,
		Format: sanctions.FormatUKCSV, Files: read("uk_sanctions_list_sample.csv")}))
	err := importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: "BAD-PEP", Type: sanctions.ListTypePEP,
		Format: sanctions.FormatCSV, Files: []sanctions.SourceFile{{Name: "bad.csv", Data: []byte("name,dob\nA B,1970-01-01\n,x\n")}}})
	require.ErrorIs(t, err, sanctions.ErrBadListFile)
	require.ErrorContains(t, err, "line 3")

	env := s.rest("GET", "/api/v1/sanctions/lists", cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var lists struct {
		Items []struct {
			List       string `json:"list"`
			Type       string `json:"type"`
			Version    int    `json:"version"`
			Format     string `json:"format"`
			EntryCount int    `json:"entryCount"`
			ImportedAt string `json:"importedAt"`
		} `json:"items"`
	}
	env.decode(t, &lists)
	got := map[string]int{}
	for _, l := range lists.Items {
		got[l.List+"/"+l.Format+"/"+l.Type] = l.EntryCount
		require.NotEmpty(t, l.ImportedAt)
	}
	require.Equal(t, 3, got["NG-PEP/csv/PEP"], "%s", env.Raw)
	require.Equal(t, 3, got["EU-FSF/eu-fsf-xml/SANCTIONS"], "%s", env.Raw)
	require.Equal(t, 2, got["UK-SANCTIONS/uk-csv/SANCTIONS"], "%s", env.Raw)
	require.NotContains(t, string(env.Raw), "BAD-PEP")

	deadline := time.Now().Add(5 * time.Second)
	for {
		body := screenBody(ext("glob"), "3300000001", 1000)
		body["senderName"] = "Ngozi Chinwe Okafor-Eze"
		body["receiverName"] = "Ivan Petrovich Testovsky"
		o, env := s.screen(admin, body)
		require.True(t, env.Success, "%s", env.Raw)
		pep := false
		for _, v := range o.RiskBreakdown {
			for _, id := range v.RulesTriggered {
				pep = pep || strings.HasPrefix(id, "AML-004")
			}
		}
		eu := strings.Contains(string(env.Raw), "EU-FSF") || strings.Contains(string(env.Raw), "UK-SANCTIONS")
		if pep && eu {
			break
		}
		require.True(t, time.Now().Before(deadline), "the imported lists are not screened: %s", env.Raw)
		time.Sleep(50 * time.Millisecond)
	}
}
