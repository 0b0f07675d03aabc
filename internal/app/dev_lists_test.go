package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctionshttp"
)

// TestDevListsDownloadOrSnapshot: `complyd dev` on a fresh clone takes the official lists from
// their download addresses (here a local HTTP server serving the real files) and, for a list
// whose server fails, the snapshot shipped with complyd, with a warning naming its date.
func TestDevListsDownloadOrSnapshot(t *testing.T) {
	t.Parallel()
	dir := findUp(filepath.Join("shared", "data", "sanctions"))
	if dir == "" {
		missingData(t, "shared/data/sanctions not found above the working directory")
	}
	files := map[string]string{
		"/ofac/sdn.csv": sharedLists.sdn, "/ofac/alt.csv": sharedLists.alt, "/ofac/add.csv": sharedLists.add,
		"/un/consolidated.xml": sharedLists.un,
	}
	var unDown bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := files[r.URL.Path]
		if !ok || (unDown && strings.HasPrefix(r.URL.Path, "/un/")) {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		http.ServeFile(w, r, filepath.Join(dir, rel))
	}))
	defer srv.Close()
	sources := sanctionshttp.Sources(srv.URL+"/ofac/", srv.URL+"/un/consolidated.xml")
	ctx := context.Background()

	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	lists, err := devLists(ctx, log, sanctionshttp.NewFetcher(), sources, 20*time.Second)
	require.NoError(t, err)
	require.Len(t, lists, 2)
	require.Equal(t, srv.URL+"/ofac/sdn.csv", lists[0].From)
	require.Equal(t, srv.URL+"/un/consolidated.xml", lists[1].From)
	want, err := os.ReadFile(filepath.Join(dir, sharedLists.un))
	require.NoError(t, err)
	require.Equal(t, want, lists[1].Files[0].Data)
	require.NotContains(t, logs.String(), "snapshot")

	unDown = true
	logs.Reset()
	lists, err = devLists(ctx, log, sanctionshttp.NewFetcher(), sources, 20*time.Second)
	require.NoError(t, err)
	require.Equal(t, srv.URL+"/ofac/sdn.csv", lists[0].From)
	require.Len(t, lists, 1, "no UN snapshot is shipped: it is not public domain")
	require.Contains(t, logs.String(), "ships no snapshot of it")

	// Nothing answers at all (no network): OFAC from the snapshot, no UN list.
	dead := sanctionshttp.Sources("http://127.0.0.1:1/", "http://127.0.0.1:1/consolidated.xml")
	lists, err = devLists(ctx, log, sanctionshttp.NewFetcher(), dead, 5*time.Second)
	require.NoError(t, err)
	require.Len(t, lists, 1)
	require.Equal(t, "snapshot of 2023-12-28", lists[0].From)
}
