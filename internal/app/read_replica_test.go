package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgcluster"
	"github.com/complyd/complyd/internal/postgres"
)

// TestReadReplicaDashboard runs the service on a primary and a real streaming standby of it
// (pg_basebackup -R), both private clusters of the test (docs/guide/read-replica.md). Screenings are
// written through the primary; the Overview's screening count is read over /api/v1 and Connect.
// That the standby answered is proven by pausing its WAL replay: a screening committed on the
// primary after the pause is missing from the answer while the primary has it. Then:
//   - past the maximum lag (replay still paused) the answer comes from the primary, and /health
//     says lagging;
//   - with the standby killed (pg_ctl stop -m immediate) the same reads answer at once from the
//     primary, and /health and /ready say down;
//   - restarted, the standby answers again (the replay-pause proof once more).
func TestReadReplicaDashboard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "complyd-replica-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	primary, err := pgcluster.Start(ctx, dir+"/primary", "fsync=off", "full_page_writes=off")
	if err != nil && os.Getenv("CI") == "" {
		t.Skipf("no PostgreSQL binaries for a private cluster: %v", err)
	}
	require.NoError(t, err)
	t.Cleanup(func() { _ = primary.Stop() })
	standby, err := pgcluster.StartStandby(ctx, dir+"/standby", primary, "fsync=off", "hot_standby_feedback=on")
	require.NoError(t, err)
	t.Cleanup(func() { _ = standby.Kill() })

	const maxLag = 3 * time.Second
	addr := startServe(t, config{DatabaseURL: primary.URL(), ReplicaURL: standby.URL(), ReplicaMaxLag: maxLag,
		ReplicaProbeEvery: 200 * time.Millisecond})
	base := "http://" + addr
	db, err := postgres.Open(ctx, primary.URL(), postgres.Options{MaxConns: 2, Logger: slog.New(slog.DiscardHandler), CredentialsKey: make([]byte, 32)})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, createTenant(ctx, operatorAuth(db, slog.New(slog.DiscardHandler)), &out, auth.CreateTenantParams{
		Name: "Replica Bank", Slug: "replica", Admin: auth.NewUser{Email: "ops@replica.ng", Password: "longenough"}}))
	require.NoError(t, createTenant(ctx, operatorAuth(db, slog.New(slog.DiscardHandler)), &out, auth.CreateTenantParams{
		Name: "Other Bank", Slug: "other", Admin: auth.NewUser{Email: "ops@other.ng", Password: "longenough"}}))
	db.Close()

	tok := ""
	do := func(method, path, body string, connect bool) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if connect {
			req.Header.Set("Connect-Protocol-Version", "1")
		}
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m), "%s %s: %s", method, path, b)
		return res.StatusCode, m
	}
	loginAs := func(email string) string {
		t.Helper()
		tok = ""
		code, login := do("POST", "/api/v1/auth/login", `{"email":"`+email+`","password":"longenough"}`, false)
		require.Equal(t, 200, code, "%v", login)
		return login["data"].(map[string]any)["accessToken"].(string)
	}
	other := loginAs("ops@other.ng")
	tok = loginAs("ops@replica.ng")
	screened := 0
	screen := func() {
		t.Helper()
		screened++
		b, _ := json.Marshal(screenBody(fmt.Sprintf("replica-%d", screened), "0123456789", 5_000))
		code, m := do("POST", "/api/v1/transactions/screen", string(b), false)
		require.Equal(t, 200, code, "%v", m)
	}
	// totals reads the Overview's screening count over /api/v1 and over Connect, each within
	// limit, and requires the two to agree.
	totals := func(limit time.Duration) int {
		t.Helper()
		start := time.Now()
		code, m := do("GET", "/api/v1/dashboard/screenings", "", false)
		require.Equal(t, 200, code, "%v", m)
		require.Less(t, time.Since(start), limit, "REST read")
		rest := fmt.Sprint(m["data"].(map[string]any)["total"])
		start = time.Now()
		code, m = do("POST", "/complyd.v1.DashboardService/GetScreeningStats", "{}", true)
		require.Equal(t, 200, code, "%v", m)
		require.Less(t, time.Since(start), limit, "Connect read")
		conn := fmt.Sprint(m["total"])
		require.Equal(t, rest, conn, "REST and Connect read the same database")
		if rest == "<nil>" {
			return 0
		}
		var n int
		_, err := fmt.Sscan(rest, &n)
		require.NoError(t, err)
		return n
	}
	replicaHealth := func(path string) map[string]any {
		t.Helper()
		res, err := http.Get(base + path)
		require.NoError(t, err)
		defer res.Body.Close()
		var m struct {
			Data struct {
				Checks      map[string]string `json:"checks"`
				ReadReplica map[string]any    `json:"readReplica"`
			} `json:"data"`
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&m))
		require.Equal(t, m.Data.Checks["readReplica"], m.Data.ReadReplica["status"])
		return m.Data.ReadReplica
	}
	waitStatus := func(want string, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			h := replicaHealth("/health")
			if h["status"] == want {
				return
			}
			require.True(t, time.Now().Before(deadline), "replica status %v, want %s", h, want)
			time.Sleep(50 * time.Millisecond)
		}
	}
	freshness := func() map[string]any {
		t.Helper()
		code, m := do("GET", "/api/v1/dashboard/freshness", "", false)
		require.Equal(t, 200, code, "%v", m)
		return m["data"].(map[string]any)
	}
	// superuser connections straight to the standby and the primary (row-level security does
	// not hold a superuser): the test's own view of what each holds.
	sqlOn := func(url, q string, dst ...any) {
		t.Helper()
		c, err := pgx.Connect(ctx, url)
		require.NoError(t, err)
		defer c.Close(ctx)
		if len(dst) == 0 {
			_, err = c.Exec(ctx, q)
		} else {
			err = c.QueryRow(ctx, q).Scan(dst...)
		}
		require.NoError(t, err, q)
	}
	// caughtUp waits until the standby holds every screening the primary holds.
	caughtUp := func() {
		t.Helper()
		var want int
		sqlOn(primary.URL(), "select count(*) from transactions", &want)
		for deadline := time.Now().Add(10 * time.Second); ; {
			var got int
			sqlOn(standby.URL(), "select count(*) from transactions", &got)
			if got == want {
				return
			}
			require.True(t, time.Now().Before(deadline), "standby holds %d transactions, primary %d", got, want)
			time.Sleep(50 * time.Millisecond)
		}
	}
	pauseReplay := func() {
		t.Helper()
		sqlOn(standby.URL(), "select pg_wal_replay_pause()")
		for deadline := time.Now().Add(5 * time.Second); ; {
			var st string
			sqlOn(standby.URL(), "select pg_get_wal_replay_pause_state()", &st)
			if st == "paused" {
				return
			}
			require.True(t, time.Now().Before(deadline), "replay pause state %s", st)
			time.Sleep(20 * time.Millisecond)
		}
	}
	// provesReplica: with replay paused, a screening committed on the primary is missing from the
	// answer, so the standby gave it; resumed, the standby catches up.
	provesReplica := func() {
		t.Helper()
		screen()
		caughtUp()
		waitStatus("ok", 5*time.Second)
		require.Equal(t, screened, totals(time.Second), "caught up, the standby has every screening")
		pauseReplay()
		screen()
		require.Equal(t, screened-1, totals(time.Second), "the answer misses the screening the paused standby has not replayed: the standby served it")
		require.Equal(t, "REPLICA", freshness()["source"])
	}

	waitStatus("ok", 20*time.Second)
	provesReplica()

	// Past the maximum lag, the primary answers (replay is still paused).
	waitStatus("lagging", maxLag+3*time.Second)
	h := replicaHealth("/health")
	require.Greater(t, h["lagSeconds"].(float64), maxLag.Seconds())
	require.Equal(t, screened, totals(time.Second), "lagging: read from the primary")
	f := freshness()
	require.Equal(t, "PRIMARY", f["source"])
	require.Equal(t, "lagging", f["replicaStatus"])
	sqlOn(standby.URL(), "select pg_wal_replay_resume()")
	waitStatus("ok", 10*time.Second)
	require.Equal(t, screened, totals(time.Second))

	// The standby dies: the same reads answer at once from the primary, and keep doing so.
	// "At once" is below the replica pool's 2 s connect timeout (postgres/replica.go), which is
	// what a read that waited for the dead standby would take; 1.5 s leaves room for -race on a
	// loaded machine (a REST and a Connect read took 569 ms there against an earlier 500 ms).
	const atOnce = 1500 * time.Millisecond
	require.NoError(t, standby.Kill())
	for range 5 {
		require.Equal(t, screened, totals(atOnce), "standby down: read from the primary without waiting for it")
	}
	waitStatus("down", 3*time.Second)
	require.Equal(t, "down", replicaHealth("/ready")["status"])
	require.Equal(t, "PRIMARY", freshness()["source"])
	screen()
	require.Equal(t, screened, totals(atOnce))

	// Back up, it serves the reads again, scoped to the caller's tenant as on the primary.
	require.NoError(t, standby.Restart(ctx))
	provesReplica()
	mine := tok
	tok = other
	require.Equal(t, 0, totals(time.Second), "another tenant's Overview counts none of these screenings on the replica")
	require.Equal(t, "REPLICA", freshness()["source"])
	tok = mine
	sqlOn(standby.URL(), "select pg_wal_replay_resume()")

	res, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Contains(t, string(metrics), "complyd_db_replica_lag_seconds")
	require.Regexp(t, `complyd_db_routed_reads_total\{pool="replica"\} [1-9]`, string(metrics))
	require.Regexp(t, `complyd_db_routed_reads_total\{pool="primary"\} [1-9]`, string(metrics))
}
