package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
)

type countryOut struct {
	Country, Level     string
	DefaultLevel       *string
	DefaultSource      *string
	DefaultPublishedOn *time.Time
	OverrideLevel      *string
	OverrideReason     *string
}

// jurisdiction returns the HEUR-JURISDICTION score of a screening to country, 0 when it did not
// fire.
func jurisdiction(t *testing.T, s *testServer, tok, country string) int {
	t.Helper()
	body := screenBody(ext("cty"), newAccount(), 1000)
	body["receiverCountry"] = country
	out, env := s.screen(tok, body)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	for _, r := range out.TriggeredRules {
		if r.Name == "High-Risk Jurisdiction" {
			return r.RiskScore
		}
	}
	return 0
}

// TestCountries: the global default is listed with its FATF source and date; a BANK_ADMIN's
// override (adding a country, taking one off) changes the tenant's screenings and no other
// tenant's, is audited, and is removed by DELETE; other roles only read. Over /api/v1, Connect
// and gRPC.
func TestCountries(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, other := s.kycTenant()

	var list struct{ Countries []countryOut }
	s.rest("GET", "/api/v1/countries", cred{Bearer: analyst}, nil).decode(t, &list)
	byCode := map[string]countryOut{}
	for _, c := range list.Countries {
		byCode[c.Country] = c
	}
	require.Len(t, byCode, 23)
	require.Equal(t, "CALL_FOR_ACTION", byCode["KP"].Level)
	require.Equal(t, "MONITORED", byCode["VN"].Level)
	require.Contains(t, *byCode["KP"].DefaultSource, "FATF")
	require.Equal(t, "2025-10-24", byCode["KP"].DefaultPublishedOn.Format(time.DateOnly))

	require.Equal(t, 90, jurisdiction(t, s, admin, "KP"))
	require.Equal(t, 0, jurisdiction(t, s, admin, "GH"))

	put := func(tok, code string, body map[string]any) envelope {
		return s.rest("PUT", "/api/v1/countries/"+code, cred{Bearer: tok}, body)
	}
	requireRESTError(t, put(analyst, "GH", map[string]any{"level": "MONITORED", "reason": "x"}), 403, "FORBIDDEN")
	requireRESTError(t, put(admin, "GH", map[string]any{"level": "HIGH", "reason": "x"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, put(admin, "GH", map[string]any{"level": "MONITORED"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, put(admin, "G1", map[string]any{"level": "MONITORED", "reason": "x"}), 400, "VALIDATION_ERROR")

	var c countryOut
	put(admin, "gh", map[string]any{"level": "CALL_FOR_ACTION", "reason": "internal risk assessment 2026-11"}).decode(t, &c)
	require.Equal(t, "GH", c.Country)
	require.Equal(t, "CALL_FOR_ACTION", c.Level)
	require.Nil(t, c.DefaultLevel)
	require.Equal(t, 90, jurisdiction(t, s, admin, "GH"), "the override applies to the next screening")
	require.Equal(t, 0, jurisdiction(t, s, other, "GH"), "and to no other tenant")

	put(admin, "VN", map[string]any{"level": "NONE", "reason": "correspondent reviewed"}).decode(t, &c)
	require.Equal(t, "NONE", c.Level)
	require.Equal(t, "MONITORED", *c.DefaultLevel)
	require.Equal(t, 0, jurisdiction(t, s, admin, "VN"))
	require.Equal(t, 50, jurisdiction(t, s, other, "VN"))

	c = countryOut{}
	s.rest("DELETE", "/api/v1/countries/VN", cred{Bearer: admin}, nil).decode(t, &c)
	require.Equal(t, "MONITORED", c.Level)
	require.Nil(t, c.OverrideLevel)
	require.Equal(t, 50, jurisdiction(t, s, admin, "VN"), "the default applies again")
	requireRESTError(t, s.rest("DELETE", "/api/v1/countries/VN", cred{Bearer: admin}, nil), 404, "NOT_FOUND")

	var page struct {
		Items []struct {
			Action, ResourceID string
			Before, After      map[string]any
		}
		Total int
	}
	s.rest("GET", "/api/v1/audit-events?action=country.override_set", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 2, page.Total)
	require.Equal(t, "VN", page.Items[0].ResourceID)
	require.Equal(t, "MONITORED", page.Items[0].Before["level"])
	require.Equal(t, "NONE", page.Items[0].After["level"])
	s.rest("GET", "/api/v1/audit-events?action=country.override_deleted", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)

	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		cl := complydv1connect.NewCountryServiceClient(hc, s.URL, opts...)
		res, err := cl.SetCountryOverride(context.Background(), connect.NewRequest(&complydv1.SetCountryOverrideRequest{Country: "TG", Level: "MONITORED", Reason: proto}))
		require.NoError(t, err, proto)
		require.Equal(t, "MONITORED", res.Msg.Level)
		lr, err := cl.ListCountries(context.Background(), connect.NewRequest(&complydv1.ListCountriesRequest{}))
		require.NoError(t, err, proto)
		require.Len(t, lr.Msg.Countries, 25, "the 23 defaults, GH and TG")
		_, err = cl.DeleteCountryOverride(context.Background(), connect.NewRequest(&complydv1.DeleteCountryOverrideRequest{Country: "TG"}))
		require.NoError(t, err, proto)
	}
}

// TestCountryOverrideReachesEveryReplica: two `complyd serve` processes on one database; an
// override made through one replica changes the screenings of both within a second, although
// each had the tenant's settings cached (LISTEN/NOTIFY on the settings channel).
func TestCountryOverrideReachesEveryReplica(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs complyd serve")
	}
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	db, url := pgtest.Fresh(t)
	adminDB, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = adminDB.Close(context.Background()) })
	var out bytes.Buffer
	require.NoError(t, createTenant(ctx, operatorAuth(db, log), &out, auth.CreateTenantParams{Name: "Bank countries", Slug: "countries",
		Admin: auth.NewUser{Email: "ops@countries.ng", Password: "longenough"}}))
	var created map[string]string
	require.NoError(t, json.Unmarshal(out.Bytes(), &created))
	_, err = adminDB.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn, tier, status)
		values ('kyc_countries', $1, 'INDIVIDUAL', 'Ada', 'Obi', '22212345678', 'TIER_3', 'APPROVED')`, created["tenantId"])
	require.NoError(t, err)
	c := newCluster(t, url, 2, "COMPLYD_RATE_LIMIT_API=0", "COMPLYD_RATE_LIMIT_SCREENING=0")
	hc := &http.Client{}
	st, raw, err := call(hc, c.get(0).base, "POST", "/api/v1/auth/login", cred{}, map[string]string{"email": "ops@countries.ng", "password": "longenough"})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, st, "%s", raw)
	var env struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(raw, &env))
	tok := cred{Bearer: env.Data.AccessToken}
	score := func(r *replica) int {
		body := screenBody(ext("rep"), newAccount(), 1000)
		body["receiverCountry"] = "GH"
		st, raw, err := call(hc, r.base, "POST", "/api/v1/transactions/screen", tok, body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, st, "%s", raw)
		var out struct{ Data screenOut }
		require.NoError(t, json.Unmarshal(raw, &out))
		for _, tr := range out.Data.TriggeredRules {
			if tr.Name == "High-Risk Jurisdiction" {
				return tr.RiskScore
			}
		}
		return 0
	}
	for _, r := range c.live() {
		require.Equal(t, 0, score(r), r.name) // and the settings are now cached on both
	}
	st, raw, err = call(hc, c.get(1).base, "PUT", "/api/v1/countries/GH", tok, map[string]any{"level": "CALL_FOR_ACTION", "reason": "replicas"})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, st, "%s", raw)
	since := time.Now()
	var slowest time.Duration
	for _, r := range c.live() {
		for score(r) != 90 {
			require.Less(t, time.Since(since), time.Second, "override not seen on %s after a second", r.name)
			time.Sleep(20 * time.Millisecond)
		}
		slowest = max(slowest, time.Since(since))
	}
	t.Logf("country override: seen on every replica %s after the change", slowest.Round(time.Millisecond))
}
