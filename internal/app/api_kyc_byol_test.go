package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

// acmeVendor is a real HTTP identity vendor in its own snake_case dialect, answering from the
// sandbox registry: BVN 22234567803 is "down" (500), and it counts the calls it answered.
func acmeVendor(t *testing.T, calls *atomic.Int32) *httptest.Server {
	reg := identity.DefaultRegistry()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk_test_acme" {
			http.Error(w, "bad key", http.StatusUnauthorized)
			return
		}
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		num := in["id_number"]
		if num == "22234567803" {
			http.Error(w, "upstream down", http.StatusBadGateway)
			return
		}
		calls.Add(1)
		var p identity.RegistryPerson
		var ok bool
		if strings.HasSuffix(r.URL.Path, "/bvn") {
			p, ok = reg.LookupBVN(num)
		} else {
			p, ok = reg.LookupNIN(num)
		}
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":"not_found"}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"found": true, "first_name": p.FirstName,
			"last_name": p.LastName, "middle_name": p.MiddleName, "date_of_birth": p.DateOfBirth}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestKYCBYOLChain(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	vendor := acmeVendor(t, &calls)
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.IdentityAllowPrivate = true }})
	f, admin := s.tenant()
	s.credit(f, "1000", "PAY")
	_, officer := s.userWithRole(f.ID, "COMPLIANCE_OFFICER")

	byol := map[string]any{
		"providerName": "acme-id", "baseUrl": vendor.URL, "apiKey": "sk_test_acme", "apiKeyPrefix": "Bearer ",
		"endpoints":      map[string]any{"bvn": "/v2/kyc/bvn", "nin": "/v2/kyc/nin"},
		"requestFields":  map[string]any{"number": "id_number", "firstName": "first_name", "lastName": "last_name", "dateOfBirth": "dob"},
		"responseFields": map[string]any{"found": "data.found", "firstName": "data.first_name", "middleName": "data.middle_name", "lastName": "data.last_name", "dateOfBirth": "data.date_of_birth"},
		"matchThreshold": 0.8, "timeoutMs": 5000, "maxTier": "TIER_1", "supportedVerifications": []string{"BVN", "NIN"},
	}
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: officer}, map[string]any{"providerMode": "BYOL"}), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: admin}, map[string]any{"providerMode": "BYOL"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: admin}, map[string]any{"byol": map[string]any{"providerName": "x"}}), 400, "VALIDATION_ERROR")

	env := s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: admin},
		map[string]any{"providerMode": "BYOL", "kycFallbackMode": "WALLET_RESERVE", "byol": byol})
	require.True(t, env.Success, "%s", env.Raw)
	require.NotContains(t, string(env.Raw), "sk_test_acme", "credentials are never returned")
	require.Contains(t, string(env.Raw), `"apiKeySet":true`)
	var sealed []byte
	require.NoError(t, pgx.BeginFunc(t.Context(), s.DB.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(t.Context(), "select set_config('app.tenant_id', $1, true)", string(f.ID)); err != nil {
			return err
		}
		return tx.QueryRow(t.Context(), "select convert_to(config::text, 'UTF8') || api_key_enc from identity_provider_configs").Scan(&sealed)
	}))
	require.NotEmpty(t, sealed)
	require.NotContains(t, string(sealed), "sk_test_acme", "encrypted at rest")

	var kc struct {
		KycTrustMode, KycFallbackMode, ProviderMode, MaxTier string
		SupportedVerifications                               []string
	}
	s.rest("GET", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, nil).decode(t, &kc)
	require.Equal(t, "STRICT", kc.KycTrustMode)
	require.Equal(t, "BYOL", kc.ProviderMode)
	require.Equal(t, "TIER_1", kc.MaxTier)
	require.Equal(t, []string{"BVN", "NIN"}, kc.SupportedVerifications)

	// Match through the vendor (field mappings), providerSource BYOL.
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye"})
	var v verifyOut
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch, "%+v", v)
	require.Equal(t, "acme-id", v.Provider)
	require.Equal(t, "BYOL", v.ProviderSource)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)
	require.EqualValues(t, 1, calls.Load())

	// Mismatch through the vendor: charged, status unchanged.
	b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Chiamaka", "lastName": "Okafor"})
	s.verify(admin, b.ID, "bvn", map[string]any{"bvn": "22234567802", "firstName": "Musa", "lastName": "Garba", "dateOfBirth": "1990-07-22"}).decode(t, &v)
	require.False(t, v.IsMatch)
	require.Equal(t, "acme-id", v.Provider)
	require.Equal(t, "PENDING", v.NewStatus)

	// Vendor outage (5xx) falls back to the embedded provider under WALLET_RESERVE.
	c := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ibrahim", "lastName": "Abdullahi"})
	ibrahim := map[string]any{"bvn": "22234567803", "firstName": "Ibrahim", "lastName": "Abdullahi", "dateOfBirth": "1978-11-05"}
	s.verify(admin, c.ID, "bvn", ibrahim).decode(t, &v)
	require.True(t, v.IsMatch, "%+v", v)
	require.Equal(t, "SANDBOX", v.Provider)
	require.Equal(t, "EMBEDDED", v.ProviderSource)

	// A TIER_2 application is above the vendor's maxTier: WALLET_RESERVE uses embedded.
	d := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye",
		"bvn": "22234567801", "nin": "70123456781"})
	require.Equal(t, "TIER_2", d.Tier)
	before := calls.Load()
	s.verify(admin, d.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.Equal(t, "EMBEDDED", v.ProviderSource)
	require.Equal(t, before, calls.Load())

	// NONE: the TIER_2 verification is blocked with 422 and nothing is charged.
	s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: admin}, map[string]any{"kycFallbackMode": "NONE"}).decode(t, &kc)
	var w struct{ Balance string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	env = s.verify(admin, d.ID, "bvn", bvnBody(adebayo))
	requireRESTError(t, env, 422, "PROVIDER_TIER_UNSUPPORTED")
	var w2 struct{ Balance string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w2)
	require.Equal(t, w.Balance, w2.Balance)
	// NONE and a vendor outage: 503, nothing charged.
	e := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ibrahim", "lastName": "Abdullahi"})
	requireRESTError(t, s.verify(admin, e.ID, "bvn", ibrahim), 503, "PROVIDER_UNAVAILABLE")
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w2)
	require.Equal(t, w.Balance, w2.Balance, "outages are never charged")

	// The stored API key survives a PATCH without it (write-only credential).
	env = s.rest("PATCH", "/api/v1/kyc/providers/config", cred{Bearer: admin}, map[string]any{"byol": func() map[string]any {
		m := map[string]any{}
		for k, v := range byol {
			if k != "apiKey" {
				m[k] = v
			}
		}
		return m
	}()})
	require.True(t, env.Success, "%s", env.Raw)
	s.verify(admin, e.ID, "bvn", bvnBody(map[string]any{"bvn": "22234567801", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"}))
	var cfg struct {
		Byol map[string]any
	}
	s.rest("GET", "/api/v1/kyc/providers/config", cred{Bearer: admin}, nil).decode(t, &cfg)
	require.Equal(t, true, cfg.Byol["apiKeySet"])
	require.NotContains(t, cfg.Byol, "apiKey")
}
