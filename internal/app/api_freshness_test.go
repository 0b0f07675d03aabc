package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctions/snapshot"
)

// TestListFreshness: the OFAC snapshot that `complyd dev` falls back to reports its real
// publication date (2023-12-28), not the day it was loaded; past its maximum age it is stale in
// /health (status degraded), /ready (reported, never failing readiness) and ListGlobalLists,
// which also names the expected UN list as missing. A fresh list with a date is not stale, and a
// per-list maximum age applies to its list only.
func TestListFreshness(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true, Config: func(c *config) {
		c.ListMaxAgeByList = map[string]int{"NG-PEP": 3}
	}})
	_, admin := s.tenant()
	ctx := context.Background()
	lists, err := snapshot.Lists()
	require.NoError(t, err)
	var ofac snapshot.List
	for _, l := range lists {
		if l.List == sanctions.ListOFACSDN {
			ofac = l
		}
	}
	require.Equal(t, "2023-12-28", ofac.Date)
	_, err = s.App.Sanctions.Import(ctx, sanctions.ImportParams{List: ofac.List, Format: ofac.Format, Files: ofac.Files})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, importList(ctx, s.DB, slog.New(slog.DiscardHandler), &out, sanctions.ImportParams{List: "NG-PEP", Type: sanctions.ListTypePEP,
		Format: sanctions.FormatCSV, Files: []sanctions.SourceFile{{Name: "peps.csv", Data: []byte(pepCSV)}}}))

	var h struct {
		Status         string            `json:"status"`
		Checks         map[string]string `json:"checks"`
		SanctionsLists []struct {
			List        string `json:"list"`
			PublishedOn string `json:"publishedOn"`
			AgeDays     int    `json:"ageDays"`
			MaxAgeDays  int    `json:"maxAgeDays"`
			Stale       bool   `json:"stale"`
		} `json:"sanctionsLists"`
		Missing []string `json:"sanctionsMissing"`
	}
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "degraded", h.Status)
	require.Equal(t, "ok", h.Checks["sanctions"])
	require.Equal(t, "stale", h.Checks["sanctionsFreshness"])
	require.Equal(t, []string{sanctions.ListUNSC}, h.Missing)
	got := map[string]string{}
	for _, l := range h.SanctionsLists {
		got[l.List] = l.PublishedOn
		switch l.List {
		case sanctions.ListOFACSDN:
			require.True(t, l.Stale)
			require.Equal(t, 8, l.MaxAgeDays)
			require.Greater(t, l.AgeDays, 1000, "counted from 2023-12-28, not from the load")
		case "NG-PEP":
			require.False(t, l.Stale, "no date in the file: counted from the import")
			require.Equal(t, 3, l.MaxAgeDays)
		}
	}
	require.Equal(t, "2023-12-28", got[sanctions.ListOFACSDN])
	require.Empty(t, got["NG-PEP"])

	env := s.rest("GET", "/ready", cred{}, nil)
	require.Contains(t, string(env.Raw), `"sanctionsFreshness":"stale"`)
	require.NotContains(t, string(env.Raw), `"sanctions":"error"`)

	env = s.rest("GET", "/api/v1/sanctions/lists", cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var gl struct {
		Items []struct {
			List        string `json:"list"`
			PublishedAt string `json:"publishedAt"`
			Stale       bool   `json:"stale"`
			AgeDays     int    `json:"ageDays"`
		} `json:"items"`
		Missing []string `json:"missing"`
	}
	env.decode(t, &gl)
	require.Equal(t, []string{sanctions.ListUNSC}, gl.Missing)
	for _, l := range gl.Items {
		if l.List == sanctions.ListOFACSDN {
			require.Equal(t, "2023-12-28T00:00:00Z", l.PublishedAt)
			require.True(t, l.Stale)
		}
	}

	// Four days on, the PEP list (maximum 3 days) is stale too.
	s.Clock.Advance(4 * 24 * time.Hour)
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	for _, l := range h.SanctionsLists {
		if l.List == "NG-PEP" {
			require.True(t, l.Stale)
		}
	}
}
