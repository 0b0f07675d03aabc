package app

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctions/snapshot"
)

// TestHealthSanctionsLists: /health reports each global list's version in force and its age;
// the shipped snapshot, imported explicitly as `watchlist import --snapshot` does, is aged from
// its publication date, not from the import.
func TestHealthSanctionsLists(t *testing.T) {
	t.Parallel()
	// Its own database: global lists imported into the shared test database would reach every
	// other test server of the package.
	s := newTestServer(t, &serverOpts{NoGlobalLists: true, OwnDB: true})
	type listHealth struct {
		List        string    `json:"list"`
		Version     int       `json:"version"`
		Entries     int       `json:"entries"`
		ImportedAt  time.Time `json:"importedAt"`
		PublishedOn string    `json:"publishedOn"`
		AgeDays     int       `json:"ageDays"`
	}
	var h struct {
		Status         string            `json:"status"`
		Checks         map[string]string `json:"checks"`
		SanctionsLists []listHealth      `json:"sanctionsLists"`
	}
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "empty", h.Checks["sanctions"])
	require.Empty(t, h.SanctionsLists)

	lists, err := snapshot.Lists()
	require.NoError(t, err)
	for _, l := range lists {
		_, err := s.App.Sanctions.Import(context.Background(), sanctions.ImportParams{List: l.List, Type: sanctions.ListTypeSanctions,
			Format: l.Format, Files: l.Files})
		require.NoError(t, err)
	}
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "ok", h.Checks["sanctions"])
	require.Len(t, h.SanctionsLists, 1)
	byList := map[string]listHealth{}
	for _, l := range h.SanctionsLists {
		byList[l.List] = l
	}
	ofac := byList[sanctions.ListOFACSDN]
	require.Equal(t, 1, ofac.Version)
	require.Equal(t, 13821, ofac.Entries)
	require.Equal(t, snapshot.OFACDate, ofac.PublishedOn)
	published, _ := time.Parse(time.DateOnly, snapshot.OFACDate)
	require.Equal(t, int(time.Since(published).Hours()/24), ofac.AgeDays)
	require.WithinDuration(t, time.Now(), ofac.ImportedAt, time.Minute)
}
