package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/postgres"
)

// seedDemo fills the demo tenant of a new `complyd dev` database, so that the dashboard and the
// API have something to show: three KYC-verified customers (TIER_1 to TIER_3), a verified KYB
// company, a PEP and a sanctions watchlist, and four days of transactions that exercise every
// mandatory rule AML-001..AML-009 (design choices §8), which opens cases. Everything goes through
// the public API (h) as the demo admin, so the data is exactly what an integration would make.
// The quick start's sender (account 0123456789, BVN 22234567802) is left untouched.
// demoOverrideNotes is the reason given with the demo approvals (shown as their overrides).
const demoOverrideNotes = "Demo data: approved by complyd dev's seed without documents or liveness, which the sandbox cannot provide"

func seedDemo(ctx context.Context, h http.Handler, db *postgres.DB, log *slog.Logger, now time.Time) error {
	if err := creditWallet(ctx, db, io.Discard, demoSlug, "100000", "dev-seed-topup", "complyd dev demo data", log); err != nil {
		return fmt.Errorf("seed wallet: %w", err)
	}
	c := &seedClient{h: h}
	var login struct {
		AccessToken string `json:"accessToken"`
	}
	if err := c.call(ctx, "POST", "/api/v1/auth/login", map[string]any{"email": demoEmail, "password": demoPassword}, &login); err != nil {
		return err
	}
	c.token = login.AccessToken

	// Report settings complete enough for goAML (docs/guide/reports.md "Settings"): the demo bank's
	// goAML identity, its MLRO and its address, so that its drafted reports validate.
	if err := c.call(ctx, "PUT", "/api/v1/tenants/me/report-settings", map[string]any{
		"rentityId": "1001", "rentityBranch": "Head office", "institutionName": "Demo Bank Plc", "institutionCode": "999",
		"reportingPerson": map[string]any{"firstName": "Ngozi", "lastName": "Eze", "email": "mlro@demo.complyd.test",
			"phone": "+2348012345678", "occupation": "Money Laundering Reporting Officer"},
		"location": map[string]any{"address": "1 Marina", "city": "Lagos", "state": "Lagos", "countryCode": "NG"},
	}, nil); err != nil {
		return fmt.Errorf("seed report settings: %w", err)
	}

	// Watchlists: a PEP list (AML-004) and the bank's own sanctions list (a SANCTIONS_HIT).
	for _, wl := range []struct{ name, typ, entry string }{
		{"Politically exposed persons (demo)", "PEP", "Alhaji Musa Danjuma"},
		{"Internal sanctions list (demo)", "SANCTIONS", "Viktor Petrovsky"},
	} {
		var w struct {
			ID string `json:"id"`
		}
		if err := c.call(ctx, "POST", "/api/v1/watchlists", map[string]any{"name": wl.name, "type": wl.typ}, &w); err != nil {
			return err
		}
		if err := c.call(ctx, "POST", "/api/v1/watchlists/"+w.ID+"/entries",
			map[string]any{"name": wl.entry, "entityType": "INDIVIDUAL", "reference": "DEMO-" + wl.typ}, nil); err != nil {
			return err
		}
	}

	// KYC-verified customers from the sandbox registry: application, BVN check, approval. The
	// approvals go over what the sandbox cannot show (documents, liveness, the directors'
	// identities), so each records an override with this reason, as an officer's would.
	customers := []struct{ first, last, bvn, dob, tier string }{
		{"Adebayo", "Ogunleye", "22234567801", "1985-03-14", "TIER_3"},
		{"Ibrahim", "Abdullahi", "22234567803", "1978-11-05", "TIER_2"},
		{"Funmilayo", "Adeyemi", "22234567804", "1995-01-30", "TIER_1"},
	}
	for _, cu := range customers {
		var app struct {
			ID string `json:"id"`
		}
		if err := c.call(ctx, "POST", "/api/v1/kyc/applications", map[string]any{"entityType": "INDIVIDUAL",
			"firstName": cu.first, "lastName": cu.last, "bvn": cu.bvn, "dateOfBirth": cu.dob, "tier": cu.tier,
			"phone": "+234803" + cu.bvn[4:11], "email": cu.first + "." + cu.last + "@example.com"}, &app); err != nil {
			return err
		}
		if err := c.call(ctx, "POST", "/api/v1/kyc/applications/"+app.ID+"/verify-bvn", map[string]any{
			"bvn": cu.bvn, "firstName": cu.first, "lastName": cu.last, "dateOfBirth": cu.dob}, nil); err != nil {
			return err
		}
		if err := c.call(ctx, "PATCH", "/api/v1/kyc/applications/"+app.ID+"/approve", map[string]any{"notes": demoOverrideNotes}, nil); err != nil {
			return err
		}
	}

	// A KYB company: the sandbox registry's Lagos Fresh Foods, screened and approved.
	var kyb struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, "POST", "/api/v1/kyc/kyb/applications", map[string]any{"companyName": "Lagos Fresh Foods Limited",
		"rcNumber": "RC1234567", "address": "14 Adeola Odeku Street, Victoria Island, Lagos", "incorporationDate": "2015-06-10",
		"directors":        []any{map[string]any{"name": "Adebayo Oluwaseun Ogunleye", "nationality": "Nigerian"}, map[string]any{"name": "Funmilayo Adeyemi", "nationality": "Nigerian"}},
		"beneficialOwners": []any{map[string]any{"name": "Adebayo Oluwaseun Ogunleye", "percentage": 60}, map[string]any{"name": "Funmilayo Adeyemi", "percentage": 40}},
	}, &kyb); err != nil {
		return err
	}
	if err := c.call(ctx, "POST", "/api/v1/kyc/kyb/applications/"+kyb.ID+"/run-screening", map[string]any{}, nil); err != nil {
		return err
	}
	if err := c.call(ctx, "PATCH", "/api/v1/kyc/kyb/applications/"+kyb.ID+"/approve", map[string]any{"notes": demoOverrideNotes}, nil); err != nil {
		return err
	}

	// Transactions over four days, screened in time order (the rules read each account's history
	// up to the transaction's timestamp).
	type seedTx struct {
		at                time.Time
		typ, acct, bvn    string
		name, to, country string
		amount            float64
		narration         string
	}
	day := 24 * time.Hour
	ada := func(at time.Time, typ string, amount float64, to, country, narr string) seedTx {
		return seedTx{at: at, typ: typ, acct: "1000000001", bvn: "22234567801", name: "Adebayo Ogunleye", to: to, country: country, amount: amount, narration: narr}
	}
	ibr := func(at time.Time, amount float64, narr string) seedTx {
		return seedTx{at: at, typ: "TRANSFER", acct: "1000000002", bvn: "22234567803", name: "Ibrahim Abdullahi", to: "Kelechi Ibe", amount: amount, narration: narr}
	}
	fun := func(at time.Time, amount float64, narr string) seedTx {
		return seedTx{at: at, typ: "TRANSFER", acct: "1000000003", bvn: "22234567804", name: "Funmilayo Adeyemi", to: "Grace Uzor", amount: amount, narration: narr}
	}
	txs := []seedTx{
		ada(now.Add(-4*day), "TRANSFER", 120000, "Chinedu Obi", "NG", "school fees"),                       // APPROVE
		ibr(now.Add(-4*day+2*time.Hour), 45000, "supplies"),                                                // APPROVE
		fun(now.Add(-3*day), 20000, "groceries"),                                                           // APPROVE
		ada(now.Add(-3*day+time.Hour), "CASH_DEPOSIT", 5000000, "", "", "branch cash deposit"),             // AML-001, AML-003, AML-009
		ada(now.Add(-2*day), "TRANSFER", 10500000, "Tunde Fashola", "NG", "property purchase"),             // AML-002, AML-008
		ada(now.Add(-2*day+3*time.Hour), "INTERNATIONAL_TRANSFER", 300000, "Emma Clarke", "GB", "tuition"), // AML-005
		{at: now.Add(-2 * day), typ: "TRANSFER", acct: "1000000009", name: "Alhaji Musa Danjuma", to: "Segun Oyelaran",
			amount: 30000, narration: "donation"}, // AML-004 (PEP)
		{at: now.Add(-200 * day), typ: "TRANSFER", acct: "1000000005", bvn: "22234567803", name: "Ibrahim Abdullahi", to: "Hauwa Lawal",
			amount: 15000, narration: "rent"},
		{at: now.Add(-1 * day), typ: "TRANSFER", acct: "1000000005", bvn: "22234567803", name: "Ibrahim Abdullahi", to: "Hauwa Lawal",
			amount: 15000, narration: "rent"}, // AML-006 (dormant 199 days)
		fun(now.Add(-1*day+time.Hour), 75000, "car repair"),       // AML-008 (TIER_1 limit 50,000)
		fun(now.Add(-1*day+2*time.Hour), 45000, "phone purchase"), // AML-009 (≥ 80% of 50,000)
		{at: now.Add(-20 * time.Hour), typ: "TRANSFER", acct: "1000000001", bvn: "22234567801", name: "Adebayo Ogunleye", to: "Viktor Petrovsky",
			amount: 80000, narration: "consulting"}, // sanctions hit on the bank's own list
	}
	for i := range 5 { // AML-007: five transfers within an hour from one account
		txs = append(txs, ibr(now.Add(-3*time.Hour+time.Duration(i)*10*time.Minute), 5000, "airtime "+strconv.Itoa(i+1)))
	}
	sort.SliceStable(txs, func(i, j int) bool { return txs[i].at.Before(txs[j].at) })
	outcomes := map[string]int{}
	for i, t := range txs {
		body := map[string]any{"externalId": fmt.Sprintf("DEMO-%s-%03d", t.at.Format("20060102"), i+1), "type": t.typ,
			"channel": "MOBILE_APP", "amount": t.amount, "currency": "NGN", "senderAccountNumber": t.acct, "senderName": t.name,
			"narration": t.narration, "timestamp": t.at.UTC().Format(time.RFC3339)}
		if t.typ == "CASH_DEPOSIT" {
			body["channel"] = "BRANCH"
		}
		if t.bvn != "" {
			body["senderBvn"] = t.bvn
		}
		if t.to != "" {
			body["receiverName"] = t.to
			body["receiverAccountNumber"] = "2000000" + fmt.Sprintf("%03d", i+1)
		}
		if t.country != "" {
			body["receiverCountry"] = t.country
		}
		var res struct {
			Outcome string `json:"outcome"`
		}
		if err := c.call(ctx, "POST", "/api/v1/transactions/screen", body, &res); err != nil {
			return err
		}
		outcomes[res.Outcome]++
	}
	log.Info("dev: demo data seeded", "customers", len(customers), "kyb", 1, "transactions", len(txs), "outcomes", outcomes)
	return nil
}

// seedClient calls the API in process as the demo admin.
type seedClient struct {
	h     http.Handler
	token string
}

func (c *seedClient) call(ctx context.Context, method, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		req := httptest.NewRequestWithContext(ctx, method, path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		rec := httptest.NewRecorder()
		c.h.ServeHTTP(rec, req)
		// The per-tenant rate limit (429) and the screening admission queue or deadline on a busy
		// machine (503) are worth waiting for.
		if (rec.Code == http.StatusTooManyRequests || rec.Code == http.StatusServiceUnavailable) && attempt < 20 {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		var env struct {
			Success bool            `json:"success"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || !env.Success {
			return fmt.Errorf("seed demo data: %s %s: %d %s", method, path, rec.Code, rec.Body.String())
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal(env.Data, out)
	}
}

// requireApprovalEvidence turns on the tenant's approval_evidence_required (docs/guide/kyc.md
// "Evidence and overrides"), as the operator (audited as the system).
func (a *app) requireApprovalEvidence(ctx context.Context, slug string) error {
	id, err := a.DB.TenantIDBySlug(ctx, slug)
	if err != nil {
		return err
	}
	return postgres.NewSettingsStore(a.DB).SetApprovalEvidenceRequired(ctx, id, true, audit.System)
}
