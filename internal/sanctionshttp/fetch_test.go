package sanctionshttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

// missingData skips a test whose shared/data files are absent, on a developer's machine only:
// in CI (CI or COMPLYD_REQUIRE_DATA set, as .ci/run does) the data is part of the checkout and
// its absence fails the test instead of letting it pass unrun.
func missingData(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") != "" || os.Getenv("COMPLYD_REQUIRE_DATA") != "" {
		tb.Fatalf("required test data missing (CI): "+format, args...)
	}
	tb.Skipf(format, args...)
}

// sharedDir walks up to shared/data/sanctions.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		cand := filepath.Join(dir, "shared", "data", "sanctions")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missingData(t, "shared/data/sanctions not found")
		}
		dir = parent
	}
}

type fakeImporter struct {
	ImportFunc func(ctx context.Context, p sanctions.ImportParams) (sanctions.ImportResult, error)
}

func (f fakeImporter) Import(ctx context.Context, p sanctions.ImportParams) (sanctions.ImportResult, error) {
	return f.ImportFunc(ctx, p)
}

// TestRefresh serves the shared list files from a local server laid out like the official
// addresses (never the internet) and checks that both lists download, parse and import.
func TestRefresh(t *testing.T) {
	t.Parallel()
	dir := sharedDir(t)
	mux := http.NewServeMux()
	serve := func(path, file string) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, filepath.Join(dir, file)) })
	}
	serve("/ofac/downloads/sdn.csv", "ofac_sdn/2023-12-28/sdn.csv")
	serve("/ofac/downloads/alt.csv", "ofac_sdn/2023-12-28/alt.csv")
	serve("/ofac/downloads/add.csv", "ofac_sdn/2023-12-28/add.csv")
	serve("/resources/xml/en/consolidated.xml", "un_sc/2026-02-27/consolidated.xml")
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	var got []sanctions.ImportParams
	imp := fakeImporter{ImportFunc: func(_ context.Context, p sanctions.ImportParams) (sanctions.ImportResult, error) {
		es, err := sanctions.ParseFiles(p.Format, p.Files)
		require.NoError(t, err)
		got = append(got, p)
		return sanctions.ImportResult{Version: sanctions.ListVersion{List: p.List, EntryCount: len(es)}}, nil
	}}
	f := sanctionshttp.NewFetcher()
	res, err := f.Refresh(context.Background(), imp, sanctionshttp.Sources(srv.URL+"/ofac/downloads", srv.URL+"/resources/xml/en/consolidated.xml"))
	require.NoError(t, err)
	require.Len(t, res, 2)
	require.Equal(t, sanctions.ListOFACSDN, got[0].List)
	require.Equal(t, []string{"sdn.csv", "alt.csv", "add.csv"}, []string{got[0].Files[0].Name, got[0].Files[1].Name, got[0].Files[2].Name})
	require.Greater(t, res[0].Version.EntryCount, 10000)
	require.Equal(t, sanctions.ListUNSC, got[1].List)
	require.Greater(t, res[1].Version.EntryCount, 900)

	// A failing download is reported; the other list still imports.
	got = nil
	res, err = f.Refresh(context.Background(), imp, sanctionshttp.Sources(srv.URL+"/missing/", srv.URL+"/resources/xml/en/consolidated.xml"))
	require.ErrorContains(t, err, "404")
	require.Len(t, res, 1)
	require.Equal(t, sanctions.ListUNSC, got[0].List)

	// Size cap.
	f.MaxBytes = 1000
	_, err = f.Fetch(context.Background(), sanctionshttp.Sources("", srv.URL+"/resources/xml/en/consolidated.xml")[0])
	require.ErrorContains(t, err, "larger than 1000 bytes")
}
