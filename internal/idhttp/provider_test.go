package idhttp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
	"github.com/complyd/complyd/internal/idhttp"
)

// vendor is a fake identity vendor serving a registry in its own JSON dialect: snake_case keys
// under "entity", request keys id_number/first_name/last_name/dob, 404 for unknown numbers and
// 503 for the registry's outage numbers.
type vendor struct {
	reg *identity.Registry

	mu       sync.Mutex
	requests []map[string]any
	headers  []http.Header
}

func (v *vendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	v.mu.Lock()
	v.requests = append(v.requests, body)
	v.headers = append(v.headers, r.Header.Clone())
	v.mu.Unlock()
	if r.Header.Get("X-Api-Key") != "sk_test_123" || r.Header.Get("App-Id") != "app-9" {
		http.Error(w, "unauthorised", http.StatusUnauthorized)
		return
	}
	id, _ := body["id_number"].(string)
	if rc, ok := body["rc"].(string); ok {
		id = rc
	}
	if v.reg.IsOutage(id) {
		http.Error(w, "upstream registry down", http.StatusServiceUnavailable)
		return
	}
	var entity any
	switch r.URL.Path {
	case "/v2/kyc/bvn", "/v2/kyc/nin":
		lookup := v.reg.LookupBVN
		if strings.HasSuffix(r.URL.Path, "nin") {
			lookup = v.reg.LookupNIN
		}
		p, ok := lookup(id)
		if !ok {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		entity = map[string]any{
			"first_name": p.FirstName, "middle_name": p.MiddleName, "last_name": p.LastName,
			"date_of_birth": p.DateOfBirth, "phone_number": p.Phone, "gender": p.Gender, "image": p.PhotoBase64,
		}
	case "/v2/kyb/cac":
		c, ok := v.reg.LookupCAC(id)
		if !ok {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		entity = map[string]any{
			"rc_number": c.RCNumber, "company_name": c.CompanyName, "address": c.Address,
			"registration_date": c.RegistrationDate + "T00:00:00Z", "status": c.Status,
			"directors": c.Directors, "owners": c.BeneficialOwners,
		}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "entity": entity})
}

func vendorConfig(baseURL string) idhttp.Config {
	return idhttp.Config{
		AllowPrivate: true,
		BYOLConfig: identity.BYOLConfig{
			ProviderName: "acme-id",
			BaseURL:      baseURL,
			APIKey:       "sk_test_123", APIKeyHeader: "X-Api-Key",
			AppID: "app-9", AppIDHeader: "App-Id",
			Endpoints: identity.BYOLEndpoints{BVN: "/v2/kyc/bvn", NIN: "/v2/kyc/nin", CAC: "/v2/kyb/cac"},
			RequestFields: map[string]string{
				"number": "id_number", "firstName": "first_name", "lastName": "last_name", "dateOfBirth": "dob", "rcNumber": "rc",
			},
			ResponseFields: map[string]string{
				"firstName": "entity.first_name", "middleName": "entity.middle_name", "lastName": "entity.last_name",
				"dateOfBirth": "entity.date_of_birth", "phone": "entity.phone_number", "gender": "entity.gender",
				"photo": "entity.image", "confidence": "entity.confidence",
				"rcNumber": "entity.rc_number", "companyName": "entity.company_name", "address": "entity.address",
				"registrationDate": "entity.registration_date", "status": "entity.status",
				"directors": "entity.directors", "beneficialOwners": "entity.owners",
			},
			TimeoutMs:              2000,
			MaxTier:                identity.Tier2,
			SupportedVerifications: []identity.VerificationType{identity.VerifyBVN, identity.VerifyNIN, identity.VerifyCAC},
		},
	}
}

func TestProviderConformance(t *testing.T) {
	t.Parallel()
	identitytest.RunProviderSuite(t, func(t *testing.T, reg *identity.Registry) identity.Provider {
		srv := httptest.NewServer(&vendor{reg: reg})
		t.Cleanup(srv.Close)
		p, err := idhttp.New(vendorConfig(srv.URL))
		require.NoError(t, err)
		return p
	})
}

func TestProviderFieldMappings(t *testing.T) {
	t.Parallel()
	v := &vendor{reg: identity.DefaultRegistry()}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	p, err := idhttp.New(vendorConfig(srv.URL))
	require.NoError(t, err)

	res, err := p.CheckBVN(context.Background(), identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"})
	require.NoError(t, err)
	require.True(t, res.IsMatch)
	require.Equal(t, "acme-id", res.Provider)
	require.Equal(t, identity.SourceBYOL, res.ProviderSource)
	require.True(t, res.Record.HasPhoto)
	require.NotEmpty(t, res.Record.PhotoBase64)
	require.NotContains(t, string(res.Raw), "image", "the registry photo stays out of raw")
	require.Contains(t, string(res.Raw), `"first_name":"Adebayo"`)

	v.mu.Lock()
	defer v.mu.Unlock()
	require.Equal(t, map[string]any{"id_number": "22234567801", "first_name": "Adebayo", "last_name": "Ogunleye", "dob": "1985-03-14"}, v.requests[0])
	require.Equal(t, "sk_test_123", v.headers[0].Get("X-Api-Key"))
	require.Equal(t, "app-9", v.headers[0].Get("App-Id"))
	require.Equal(t, "application/json", v.headers[0].Get("Content-Type"))
}

func TestProviderVendorConfidence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      string
		dob        string
		wantMatch  bool
		wantConf   float64
		wantFound  bool
		wantStatus int
	}{
		{"score decides", `{"entity":{"first_name":"X","last_name":"Y","date_of_birth":"1990-01-01","confidence":0.93}}`, "1990-01-01", true, 0.93, true, 200},
		{"percentage score", `{"entity":{"first_name":"X","last_name":"Y","confidence":"85%"}}`, "1990-01-01", true, 0.85, true, 200},
		{"low score", `{"entity":{"first_name":"X","last_name":"Y","confidence":0.5}}`, "1990-01-01", false, 0.5, true, 200},
		{"high score, other birthday", `{"entity":{"first_name":"X","last_name":"Y","date_of_birth":"1991-01-01","confidence":0.99}}`, "1990-01-01", false, 0.99, true, 200},
		{"explicit not found", `{"found":false,"entity":{}}`, "1990-01-01", false, 0, false, 200},
		{"configured not-found status", `{"message":"no record"}`, "1990-01-01", false, 0, false, 422},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tc.wantStatus)
				_, _ = w.Write([]byte(tc.reply))
			}))
			t.Cleanup(srv.Close)
			cfg := vendorConfig(srv.URL)
			cfg.NotFoundStatuses = []int{404, 422}
			p, err := idhttp.New(cfg)
			require.NoError(t, err)
			res, err := p.CheckNIN(context.Background(), identity.PersonCheck{Number: "70123456781", FirstName: "A", LastName: "B", DateOfBirth: tc.dob})
			require.NoError(t, err)
			require.Equal(t, tc.wantFound, res.Found)
			require.Equal(t, tc.wantMatch, res.IsMatch)
			require.InDelta(t, tc.wantConf, res.Confidence, 0.0001)
		})
	}
}

func TestProviderOutages(t *testing.T) {
	t.Parallel()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	status := func(code int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(code)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	tests := []struct {
		name    string
		url     string
		timeout int
	}{
		{"timeout", slow.URL, 200},
		{"connection refused", closed.URL, 0},
		{"500", status(500, "oops"), 0},
		{"502", status(502, ""), 0},
		{"401 bad credentials", status(401, "no"), 0},
		{"429 rate limited", status(429, "slow down"), 0},
		{"undecodable 200", status(200, "<html>"), 0},
	}
	req := identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := vendorConfig(tc.url)
			cfg.TimeoutMs = tc.timeout
			p, err := idhttp.New(cfg)
			require.NoError(t, err)
			_, err = p.CheckBVN(context.Background(), req)
			require.ErrorIs(t, err, identity.ErrOutage)

			// The chain falls back to the embedded sandbox, which answers.
			chain := identity.Chain{Verification: identity.VerifyBVN, Providers: []identity.Provider{p, identity.NewSandbox(identity.DefaultRegistry(), nil)}}
			res, err := chain.CheckBVN(context.Background(), req)
			require.NoError(t, err)
			require.True(t, res.IsMatch)
			require.Equal(t, identity.SandboxName, res.Provider)
			require.Equal(t, identity.SourceEmbedded, res.ProviderSource)

			// Without a fallback provider the chain is exhausted: 503, nothing to charge.
			_, err = identity.Chain{Verification: identity.VerifyBVN, Providers: []identity.Provider{p}}.CheckBVN(context.Background(), req)
			require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
		})
	}
}

func TestProviderUnsupported(t *testing.T) {
	t.Parallel()
	p, err := idhttp.New(vendorConfig("http://127.0.0.1:1"))
	require.NoError(t, err)
	require.False(t, p.Supports(identity.VerifyLiveness))
	_, err = p.Liveness(context.Background(), identity.LivenessCheck{})
	require.ErrorIs(t, err, identity.ErrUnsupported)
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	cfg := vendorConfig("http://203.0.113.7")
	cfg.AllowPrivate = false
	_, err := idhttp.New(cfg)
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, []apperr.FieldError{{Field: "byol.baseUrl", Message: "must use https"}}, e.Details)

	cfg = vendorConfig("https://api.example.ng")
	cfg.SupportedVerifications = append(cfg.SupportedVerifications, identity.VerifyLiveness)
	cfg.MaxTier = "TIER_4"
	_, err = idhttp.New(cfg)
	e, ok = apperr.As(err)
	require.True(t, ok)
	require.ElementsMatch(t, []apperr.FieldError{
		{Field: "byol.maxTier", Message: "must be TIER_1, TIER_2 or TIER_3"},
		{Field: "byol.endpoints.liveness", Message: "a path starting with / is required for a supported verification"},
	}, e.Details)
}
