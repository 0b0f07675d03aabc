package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/rescreenstore"
)

type lookupOut struct {
	Found                    bool
	Data                     map[string]any
	ProfileID                *string `json:"profileId"`
	Charged, Balance         string
	LookupID                 string `json:"lookupId"`
	Provider, ProviderSource string
}

func (s *testServer) lookup(tok, kind string, body map[string]any) envelope {
	s.t.Helper()
	return s.rest("POST", "/api/v1/lookup/"+kind, cred{Bearer: tok}, body)
}

func (s *testServer) walletState(f pgtest.TenantFixture) (balance, held, ledger decimal.Decimal) {
	s.t.Helper()
	var b, h, l string
	require.NoError(s.t, s.admin().QueryRow(context.Background(), `select w.balance::text, w.held::text,
		(select coalesce(sum(amount), 0)::text from wallet_ledger where tenant_id = w.tenant_id)
		from wallets w where w.tenant_id = $1`, string(f.ID)).Scan(&b, &h, &l))
	return decimal.RequireFromString(b), decimal.RequireFromString(h), decimal.RequireFromString(l)
}

func TestLookupsFoundNotFoundOutageAndProfiles(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)

	// 402 before any call on an empty wallet; nothing recorded.
	requireRESTError(t, s.lookup(analyst, "bvn", map[string]any{"bvn": "22234567801"}), 402, "INSUFFICIENT_FUNDS")
	s.credit(f, "1000", "LK-1")

	// Found: charged, saved as a profile.
	var out lookupOut
	s.lookup(analyst, "bvn", map[string]any{"bvn": "22234567801"}).decode(t, &out)
	require.True(t, out.Found)
	require.Equal(t, "Adebayo", out.Data["firstName"])
	require.Equal(t, "1985-03-14", out.Data["dateOfBirth"])
	require.NotContains(t, out.Data, "photoBase64")
	require.Equal(t, "100.00", out.Charged)
	require.Equal(t, "900.00", out.Balance)
	require.Regexp(t, `^cus_`, *out.ProfileID)
	bvnProfile := *out.ProfileID

	// Not found: charged, no profile, data null.
	env := s.lookup(analyst, "nin", map[string]any{"nin": "70100000000"})
	env.decode(t, &out)
	require.False(t, out.Found)
	require.Nil(t, out.Data)
	require.Nil(t, out.ProfileID)
	require.Equal(t, "100.00", out.Charged)
	require.Equal(t, "800.00", out.Balance)

	// Outage: 503, not charged. Validation: 400, not charged. AUDITOR: 403.
	requireRESTError(t, s.lookup(analyst, "bvn", map[string]any{"bvn": "22299999999"}), 503, "PROVIDER_UNAVAILABLE")
	requireRESTError(t, s.lookup(analyst, "cac", map[string]any{"rcNumber": "RC9999999"}), 503, "PROVIDER_UNAVAILABLE")
	requireRESTError(t, s.lookup(analyst, "bvn", map[string]any{"bvn": "123"}), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.lookup(auditor, "bvn", map[string]any{"bvn": "22234567801"}), 403, "FORBIDDEN")
	bal, held, ledger := s.walletState(f)
	require.Equal(t, "800.00", bal.StringFixed(2))
	require.True(t, held.IsZero())
	require.True(t, ledger.Equal(bal))

	// CAC over Connect and gRPC: a business profile with directors, shareholders, owners.
	var cacProfile string
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		c := complydv1connect.NewLookupServiceClient(hc, s.URL, opts...)
		res, err := c.LookupCac(context.Background(), connect.NewRequest(&complydv1.LookupCacRequest{RcNumber: "RC6789012"}))
		require.NoError(t, err)
		require.True(t, res.Msg.Found)
		require.Equal(t, "100.00", res.Msg.Charged)
		m := res.Msg.Data.AsMap()
		require.Equal(t, "Ibadan Textile Mills Plc", m["companyName"])
		require.Len(t, m["directors"], 4)
		require.Len(t, m["shareholders"], 3)
		require.Len(t, m["beneficialOwners"], 3)
		if cacProfile != "" {
			require.Equal(t, cacProfile, res.Msg.ProfileId.GetValue(), "a repeated lookup refreshes the same profile")
		}
		cacProfile = res.Msg.ProfileId.GetValue()
		_, err = c.LookupBvn(context.Background(), connect.NewRequest(&complydv1.LookupBvnRequest{Bvn: "22299999999"}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeUnavailable, code)
		require.Equal(t, "PROVIDER_UNAVAILABLE", info.Code)
	}

	// History, newest first, readable by every role.
	var hist struct {
		Items []struct {
			Type, Query, Charged string
			Found                bool
			ProfileID            *string `json:"profileId"`
		}
		Total int
	}
	s.rest("GET", "/api/v1/lookup/history", cred{Bearer: auditor}, nil).decode(t, &hist)
	require.Equal(t, 4, hist.Total, "two BVN/NIN and two CAC lookups; outages and 400s leave nothing")
	require.Equal(t, "CAC", hist.Items[0].Type)
	require.Equal(t, "70100000000", hist.Items[2].Query)
	require.Nil(t, hist.Items[2].ProfileID)
	s.rest("GET", "/api/v1/lookup/history?type=BVN", cred{Bearer: auditor}, nil).decode(t, &hist)
	require.Equal(t, 1, hist.Total)

	// Customers: list with type filter, detail.
	var custs struct {
		Items []struct{ ID, Type, Name string }
		Total int
	}
	s.rest("GET", "/api/v1/customers", cred{Bearer: auditor}, nil).decode(t, &custs)
	require.Equal(t, 2, custs.Total)
	s.rest("GET", "/api/v1/customers?type=BUSINESS", cred{Bearer: auditor}, nil).decode(t, &custs)
	require.Equal(t, 1, custs.Total)
	require.Equal(t, "Ibadan Textile Mills Plc", custs.Items[0].Name)
	var cust struct {
		ID, Type, Name string
		LookupCount    int
		Bvn            *string
		Data           map[string]any
	}
	s.rest("GET", "/api/v1/customers/"+cacProfile, cred{Bearer: auditor}, nil).decode(t, &cust)
	require.Equal(t, 2, cust.LookupCount)
	s.rest("GET", "/api/v1/customers/"+bvnProfile, cred{Bearer: auditor}, nil).decode(t, &cust)
	require.Equal(t, "INDIVIDUAL", cust.Type)
	require.Equal(t, "Adebayo Oluwaseun Ogunleye", cust.Name)
	require.Equal(t, "22234567801", *cust.Bvn)
	_, other := s.tenant()
	requireRESTError(t, s.rest("GET", "/api/v1/customers/"+bvnProfile, cred{Bearer: other}, nil), 404, "NOT_FOUND")

	// Reuse: a KYC application from the individual profile, a KYB one from the business profile.
	env = s.rest("POST", "/api/v1/customers/"+bvnProfile+"/kyc-application", cred{Bearer: analyst}, map[string]any{"email": "ade@example.com"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var k kycApp
	env.decode(t, &k)
	require.Equal(t, "PENDING", k.Status)
	require.Equal(t, "22234567801", *k.Bvn)
	require.Equal(t, "1985-03-14T00:00:00Z", *k.DateOfBirth)
	require.Equal(t, "ade@example.com", *k.Email)
	// The prefilled application verifies without retyping.
	var v verifyOut
	s.verify(analyst, k.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)

	env = s.rest("POST", "/api/v1/customers/"+cacProfile+"/kyb-application", cred{Bearer: analyst}, map[string]any{"tin": "12345678-0001"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var kb kybApp
	env.decode(t, &kb)
	require.Equal(t, "Ibadan Textile Mills Plc", kb.CompanyName)
	require.Equal(t, cacProfile, *kb.ProfileID)
	require.Len(t, kb.Directors, 4)
	require.Len(t, kb.BeneficialOwners, 3)
	var cac struct {
		Verified  bool
		NewStatus string
	}
	s.kybStep(analyst, kb.ID, "verify-cac", map[string]any{"rcNumber": "RC6789012"}).decode(t, &cac)
	require.True(t, cac.Verified)
	require.Equal(t, "CAC_VERIFIED", cac.NewStatus)

	requireRESTError(t, s.rest("POST", "/api/v1/customers/"+bvnProfile+"/kyb-application", cred{Bearer: analyst}, map[string]any{}), 409, "CONFLICT")
	requireRESTError(t, s.rest("POST", "/api/v1/customers/"+cacProfile+"/kyc-application", cred{Bearer: analyst}, map[string]any{}), 409, "CONFLICT")
	requireRESTError(t, s.rest("POST", "/api/v1/customers/"+bvnProfile+"/kyc-application", cred{Bearer: auditor}, map[string]any{}), 403, "FORBIDDEN")

	// Re-screening subjects: the KYB application (company, 4 directors, 3 owners) and both profiles.
	subs, err := rescreenstore.NewKYBAndProfileSubjects(s.DB).List(context.Background(), f.ID)
	require.NoError(t, err)
	count := map[string]int{}
	for _, sb := range subs {
		count[sb.Type+"/"+sb.Role]++
	}
	require.Equal(t, map[string]int{"KYB_APPLICATION/COMPANY": 1, "KYB_APPLICATION/DIRECTOR": 4, "KYB_APPLICATION/BENEFICIAL_OWNER": 3,
		"CUSTOMER_PROFILE/INDIVIDUAL": 1, "CUSTOMER_PROFILE/COMPANY": 1, "CUSTOMER_PROFILE/DIRECTOR": 4,
		"CUSTOMER_PROFILE/BENEFICIAL_OWNER": 3}, count)
	for _, sb := range subs {
		if sb.Role == "INDIVIDUAL" {
			require.Equal(t, "22234567801", sb.Key, "an individual profile is keyed by its BVN")
			require.Equal(t, "Adebayo Oluwaseun Ogunleye", sb.Name)
		}
	}
	others, err := rescreenstore.NewKYBAndProfileSubjects(s.DB).List(context.Background(), pgtest.Tenant(context.Background(), t, s.DB).ID)
	require.NoError(t, err)
	require.Empty(t, others)
}

// slowProvider answers BVN lookups only after the caller's context is cancelled: the provider's
// answer arrives after the client gave up.
type slowProvider struct {
	identity.Provider
	started chan struct{}
}

func (p *slowProvider) CheckBVN(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error) {
	p.started <- struct{}{}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
	return p.Provider.CheckBVN(context.WithoutCancel(ctx), req)
}

func TestLookupChargedOnceWhenClientGivesUp(t *testing.T) {
	t.Parallel()
	sp := &slowProvider{started: make(chan struct{}, 1)}
	s := newTestServer(t, &serverOpts{WrapEmbedded: func(p identity.Provider) identity.Provider { sp.Provider = p; return sp }})
	f, admin := s.tenant()
	s.credit(f, "500", "CANCEL-1")

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", s.URL+"/api/v1/lookup/bvn", bytes.NewBufferString(`{"bvn":"22234567802"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	cred{Bearer: admin}.apply(req.Header)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	<-sp.started
	cancel() // the client gives up mid-call
	require.Error(t, <-done)

	// The answer that arrived afterwards is charged exactly once and its profile and history saved.
	waitFor(t, 5*time.Second, "the late answer to be settled", func() bool {
		var n int
		_ = s.admin().QueryRow(context.Background(), `select count(*) from lookups where tenant_id = $1`, string(f.ID)).Scan(&n)
		return n == 1
	})
	bal, held, ledger := s.walletState(f)
	require.Equal(t, "400.00", bal.StringFixed(2))
	require.True(t, held.IsZero(), "the hold was settled, not left open")
	require.True(t, ledger.Equal(bal))
	var charges, profiles int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select (select count(*) from wallet_ledger where tenant_id = $1 and type = 'CHARGE'),
		(select count(*) from customer_profiles where tenant_id = $1)`, string(f.ID)).Scan(&charges, &profiles))
	require.Equal(t, 1, charges)
	require.Equal(t, 1, profiles)
}

func TestLookupConcurrency(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	f, admin := s.tenant()
	s.credit(f, "12000", "CONC-1") // pays for 120 lookups at 100

	run := func(n int, extra func()) (ok, poor int) {
		var wg sync.WaitGroup
		var okN, poorN atomic.Int32
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				b, _ := json.Marshal(map[string]string{"bvn": fmt.Sprintf("222345678%02d", 1+i%20)})
				req, _ := http.NewRequest("POST", s.URL+"/api/v1/lookup/bvn", bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				cred{Bearer: admin}.apply(req.Header)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Errorf("lookup: %v", err)
					return
				}
				defer res.Body.Close()
				switch res.StatusCode {
				case 200:
					okN.Add(1)
				case 402:
					poorN.Add(1)
				default:
					t.Errorf("unexpected status %d", res.StatusCode)
				}
			}()
		}
		if extra != nil {
			wg.Add(1)
			go func() { defer wg.Done(); <-start; extra() }()
		}
		close(start)
		wg.Wait()
		return int(okN.Load()), int(poorN.Load())
	}
	check := func() decimal.Decimal {
		bal, held, ledger := s.walletState(f)
		require.True(t, held.IsZero())
		require.False(t, bal.IsNegative())
		require.True(t, ledger.Equal(bal), "ledger %s, balance %s", ledger, bal)
		return bal
	}

	ok, poor := run(200, nil)
	require.Equal(t, 120, ok)
	require.Equal(t, 80, poor)
	require.True(t, check().IsZero())
	var charges, lookups int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select (select count(*) from wallet_ledger where tenant_id = $1 and type = 'CHARGE'),
		(select count(*) from lookups where tenant_id = $1)`, string(f.ID)).Scan(&charges, &lookups))
	require.Equal(t, 120, charges)
	require.Equal(t, 120, lookups, "every charge has its lookup, committed together")

	// Again, with 20 `wallet credit` calls racing on one reference during the lookups.
	var credits sync.WaitGroup
	ok, poor = run(200, func() {
		for range 20 {
			credits.Add(1)
			go func() {
				defer credits.Done()
				var out bytes.Buffer
				if err := creditWallet(context.Background(), s.DB, &out, f.Slug, "12000", "CONC-RACE", "", slog.New(slog.DiscardHandler)); err != nil {
					t.Errorf("credit: %v", err)
				}
			}()
		}
		credits.Wait()
	})
	require.Equal(t, 200, ok+poor)
	var creditsN int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from wallet_ledger where tenant_id = $1 and reference = 'CONC-RACE'`,
		string(f.ID)).Scan(&creditsN))
	require.Equal(t, 1, creditsN, "credited once")
	bal := check()
	require.Equal(t, decimal.NewFromInt(int64(12000-100*ok)).StringFixed(2), bal.StringFixed(2))
	require.LessOrEqual(t, ok, 120)
	t.Logf("race round: %d answered, %d refused 402, balance %s", ok, poor, bal.StringFixed(2))
}

func TestLowBalanceWarning(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	admin2, _ := s.userWithRole(f.ID, auth.RoleBankAdmin)
	s.userWithRole(f.ID, auth.RoleAnalyst)
	ws := postgres.NewWalletStore(s.DB)
	th := decimal.NewFromInt(250)
	require.NoError(t, ws.SetTenantLowBalanceThreshold(context.Background(), f.ID, &th, audit.System))
	s.credit(f, "500", "LOW-1")

	mails := func() []string {
		rows, err := s.admin().Query(context.Background(), `select to_address from emails where tenant_id = $1 and kind = 'low_balance' order by to_address`, string(f.ID))
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var a string
			require.NoError(t, rows.Scan(&a))
			out = append(out, a)
		}
		return out
	}
	look := func() {
		var out lookupOut
		s.lookup(admin, "bvn", map[string]any{"bvn": "22234567803"}).decode(t, &out)
	}
	look() // 400
	look() // 300
	require.Empty(t, mails())
	look() // 200: crossed
	require.ElementsMatch(t, []string{f.AdminEmail, admin2.Email}, mails(), "every active BANK_ADMIN, once")
	look() // 100: still below, no second mail
	require.Len(t, mails(), 2)
	s.credit(f, "1000", "LOW-2") // 1100: re-armed
	for range 9 {
		look() // down to 200
	}
	require.Len(t, mails(), 4, "a new crossing mails again")
}
