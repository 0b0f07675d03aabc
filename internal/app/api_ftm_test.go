package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

func ftmSample(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "sanctions", "testdata", "opensanctions", rel))
	require.NoError(t, err)
	return b
}

// searchIDs runs POST /sanctions/search and returns the matched entry ids.
func (s *testServer) searchIDs(tok, name string) []string {
	s.t.Helper()
	env := s.rest("POST", "/api/v1/sanctions/search", cred{Bearer: tok}, map[string]any{"name": name, "threshold": 0.75})
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	var out struct {
		Matches []struct {
			EntryID string `json:"entryId"`
		} `json:"matches"`
	}
	env.decode(s.t, &out)
	ids := make([]string, len(out.Matches))
	for i, m := range out.Matches {
		ids[i] = m.EntryID
	}
	return ids
}

// waitSearch polls the search until ok says the answer is the expected one (the other replica's
// matcher, here the server's, hears of a CLI import by NOTIFY).
func (s *testServer) waitSearch(tok, name string, ok func([]string) bool) []string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ids := s.searchIDs(tok, name)
		if ok(ids) {
			return ids
		}
		require.True(s.t, time.Now().Before(deadline), "search %q: %v", name, ids)
		time.Sleep(50 * time.Millisecond)
	}
}

func has(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestFtMImportAndDeltasEndToEnd: `complyd watchlist import --format ftm` loads both OpenSanctions
// samples into a running server, then `--delta` applies t2's five versions in order (each a
// list version with its FtM version recorded, re-screening narrowed to the changed entries);
// the entity deleted in a delta no longer matches, the modified one matches its new name, and
// applying the index again changes nothing.
func TestFtMImportAndDeltasEndToEnd(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	_, admin := s.tenant()
	ctx := context.Background()
	bg, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	s.App.startBackground(bg)
	log := slog.New(slog.DiscardHandler)
	var out bytes.Buffer
	require.NoError(t, importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: "OS-ZALA", Format: sanctions.FormatFtM,
		Files: []sanctions.SourceFile{{Name: "zala.entities.ftm.json", Data: ftmSample(t, "zala.entities.ftm.json")}}}))
	require.NoError(t, importList(ctx, s.DB, log, &out, sanctions.ImportParams{List: sanctions.ListOpenSanctions, Format: sanctions.FormatFtM,
		Files: []sanctions.SourceFile{{Name: "entities.ftm.json", Data: ftmSample(t, "t1/entities.ftm.json")}}}))
	s.waitSearch(admin, "Alexander Vyacheslavovich Zakharov", func(ids []string) bool { return has(ids, "os-zala:NK-aU5ybkbRFJucf8YMwsJvDw") })
	s.waitSearch(admin, "Vitaly Yurievich Kuzmenko", func(ids []string) bool { return has(ids, "opensanctions:NK-2Ka3UvopqbpZmVDFjWd4LA") })

	// A delta on a list that has no FtM version is refused.
	index := filepath.Join("..", "sanctions", "testdata", "opensanctions", "t2", "delta.json")
	err := applyDeltas(ctx, s.DB, log, &out, "NO-SUCH-LIST", index, sanctionshttp.NewGuardedFetcher(false))
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Contains(t, ae.Details[0].Message, "import its entities file first")

	out.Reset()
	require.NoError(t, applyDeltas(ctx, s.DB, log, &out, sanctions.ListOpenSanctions, index, sanctionshttp.NewGuardedFetcher(false)))
	var applied []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			SourceVersion string `json:"sourceVersion"`
			Version       int    `json:"version"`
			Entries       int    `json:"entries"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		applied = append(applied, fmt.Sprintf("%s v%d %d", r.SourceVersion, r.Version, r.Entries))
	}
	require.Equal(t, []string{"20240527134702-zbn v2 6", "20240527194702-wnk v3 8", "20240528014702-pfh v4 9",
		"20240528074703-npf v5 8", "20240528134729-3iv v6 9"}, applied)

	foobar := "opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL"
	s.waitSearch(admin, "Foobar Foobargroup", func(ids []string) bool { return len(ids) > 0 && ids[0] == foobar })
	s.waitSearch(admin, "Vladimir Nikolaevich Plotnikov", func(ids []string) bool { return has(ids, "opensanctions:Q4365364") })
	ids := s.searchIDs(admin, "Al-Qaida in Mesopotamia")
	require.False(t, has(ids, "opensanctions:NK-500Poltergeist"), "deleted in 20240528074703-npf: %v", ids)
	require.False(t, has(ids, foobar), "its aliases were replaced by the MOD: %v", ids)

	// The versions are recorded; re-screening was queued for the changed entries only, and not
	// for the versions that changed nothing or only deleted.
	var recorded string
	var published time.Time
	require.NoError(t, s.admin().QueryRow(ctx, `select v.source_version, v.published_at from sanctions_lists l join sanctions_list_versions v
		on v.list = l.name and v.version = l.current_version where l.name = $1`, sanctions.ListOpenSanctions).Scan(&recorded, &published))
	require.Equal(t, "20240528134729-3iv", recorded)
	require.Equal(t, time.Date(2024, 5, 28, 13, 47, 29, 0, time.UTC), published.UTC())
	rows, err := s.admin().Query(ctx, `select args->>'listVersion', coalesce(args->'entryIds', '[]'::jsonb)::text from river_job
		where kind = 'sanctions_rescreen' and args->>'list' = $1 order by id`, sanctions.ListOpenSanctions)
	require.NoError(t, err)
	jobs := map[string]string{}
	for rows.Next() {
		var v, e string
		require.NoError(t, rows.Scan(&v, &e))
		jobs[v] = e
	}
	require.NoError(t, rows.Err())
	require.Equal(t, "[]", jobs["OPENSANCTIONS@1"], "the full import re-screens the whole list")
	require.NotContains(t, jobs, "OPENSANCTIONS@2", "zbn is empty")
	require.NotContains(t, jobs, "OPENSANCTIONS@5", "npf only deletes")
	require.Equal(t, `["opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL", "opensanctions:NK-2sJaJRaPJcWUfMbHjTtWcL"]`, jobs["OPENSANCTIONS@3"])
	require.Equal(t, `["opensanctions:Q4365364"]`, jobs["OPENSANCTIONS@6"])

	out.Reset()
	require.NoError(t, applyDeltas(ctx, s.DB, log, &out, sanctions.ListOpenSanctions, index, sanctionshttp.NewGuardedFetcher(false)))
	require.Contains(t, out.String(), `"unchanged":true`)
}

// TestFtMScheduledUpdate: the scheduled update reads the entities file and the delta index from
// an HTTP server (127.0.0.1, allowed by the guard's allow-private setting as in the webhook
// tests), imports the list, applies the index's versions, and on the next run only what is new;
// without allow-private the guard refuses the loopback address, redirects included.
func TestFtMScheduledUpdate(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	_, admin := s.tenant()
	versions := []string{"20240527134702-zbn", "20240527194702-wnk", "20240528014702-pfh", "20240528074703-npf", "20240528134729-3iv"}
	published := 3 // the versions the index lists so far
	var src *httptest.Server
	src = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/entities.ftm.json":
			_, _ = w.Write(ftmSample(t, "t1/entities.ftm.json"))
		case r.URL.Path == "/moved/delta.json":
			http.Redirect(w, r, "/delta.json", http.StatusFound)
		case r.URL.Path == "/delta.json":
			ix := sanctions.FtMIndex{Versions: map[string]string{}}
			for _, v := range versions[:published] {
				ix.Versions[v] = src.URL + "/artifacts/" + v + "/entities.delta.json"
			}
			_ = json.NewEncoder(w).Encode(ix)
		case strings.HasPrefix(r.URL.Path, "/artifacts/"):
			_, _ = w.Write(ftmSample(t, "t2/"+strings.TrimPrefix(r.URL.Path, "/artifacts/")))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(src.Close)

	u := &ftmUpdater{svc: s.App.Sanctions, fetcher: sanctionshttp.NewGuardedFetcher(true), list: sanctions.ListOpenSanctions,
		entitiesURL: src.URL + "/entities.ftm.json", deltaURL: src.URL + "/moved/delta.json", every: time.Hour,
		log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	require.NoError(t, u.once(ctx))
	ids := s.searchIDs(admin, "Al-Qaida in Mesopotamia")
	require.False(t, has(ids, "opensanctions:NK-2T3S8Hu29ktYnKSTgQp2wL"), "pfh (the third version) replaced its aliases: %v", ids)
	require.True(t, has(ids, "opensanctions:NK-500Poltergeist"), "added in pfh, not yet deleted: %v", ids)

	published = 5
	require.NoError(t, u.once(ctx))
	require.False(t, has(s.searchIDs(admin, "Al-Qaida in Mesopotamia"), "opensanctions:NK-500Poltergeist"))
	require.True(t, has(s.searchIDs(admin, "Vladimir Nikolaevich Plotnikov"), "opensanctions:Q4365364"))
	vs, err := s.App.Sanctions.GlobalVersions(ctx)
	require.NoError(t, err)
	var got sanctions.ListVersion
	for _, v := range vs {
		if v.List == sanctions.ListOpenSanctions {
			got = v
		}
	}
	require.Equal(t, "20240528134729-3iv", got.SourceVersion)
	require.Equal(t, 6, got.Version, "the entities file and the five deltas, each once")
	require.NoError(t, u.once(ctx))
	vs, err = s.App.Sanctions.GlobalVersions(ctx)
	require.NoError(t, err)
	for _, v := range vs {
		if v.List == sanctions.ListOpenSanctions {
			require.Equal(t, 6, v.Version, "nothing new: no version stored")
		}
	}

	// The guard: a loopback address is refused unless allow-private, and so is a redirect to one.
	guarded := *u
	guarded.fetcher = sanctionshttp.NewGuardedFetcher(false)
	err = guarded.once(ctx)
	require.Error(t, err)
	require.True(t, sanctionshttp.IsForbidden(err), "%v", err)
}
