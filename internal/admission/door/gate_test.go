package door_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission/door"
	"github.com/complyd/complyd/internal/restapi"
)

// TestScreeningGate: with max screenings in progress (held by a handler that does not return),
// the next unary screening is refused at once, in the caller's protocol: the /api/v1 envelope
// with 503 SERVICE_UNAVAILABLE and Retry-After, Connect's unavailable, gRPC's status 14; other
// routes pass; a slot freed admits again.
func TestScreeningGate(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/cases" {
			entered <- struct{}{}
			<-release
		}
		w.WriteHeader(http.StatusNoContent)
	})
	var shed atomic.Int64
	gate := door.New(2, func() { shed.Add(1) }, restapi.Refusals(slog.New(slog.DiscardHandler)))
	srv := httptest.NewServer(gate.Wrap(next))
	t.Cleanup(srv.Close)
	post := func(path, contentType string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(`{"externalId":"x"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	held := make(chan *http.Response, 2)
	for range 2 {
		go func() { held <- post("/api/v1/transactions/screen", "application/json") }()
		<-entered
	}
	require.Equal(t, 2, gate.InFlight(), "the two held screenings are in flight")

	resp := post("/api/v1/transactions/screen", "application/json")
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	require.Equal(t, "1", resp.Header.Get("Retry-After"))
	var env struct {
		Success bool
		Error   struct{ Code string }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&env))
	require.False(t, env.Success)
	require.Equal(t, "SERVICE_UNAVAILABLE", env.Error.Code)

	resp = post("/complyd.v1.TransactionService/ScreenTransaction", "application/json")
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	body, _ := io.ReadAll(resp.Body)
	require.Contains(t, string(body), `"code":"unavailable"`)

	resp = post("/complyd.v1.TransactionService/ScreenTransaction", "application/grpc")
	_, _ = io.ReadAll(resp.Body)
	require.Equal(t, "14", resp.Header.Get("Grpc-Status")+resp.Trailer.Get("Grpc-Status"))

	require.Equal(t, http.StatusNoContent, post("/api/v1/cases", "application/json").StatusCode, "other routes pass")
	require.Equal(t, int64(3), shed.Load())
	require.Equal(t, 2, gate.InFlight(), "a refused screening never counted, another route neither")

	close(release)
	for range 2 {
		require.Equal(t, http.StatusNoContent, (<-held).StatusCode)
	}
	require.Eventually(t, func() bool { return gate.InFlight() == 0 }, 5*time.Second, time.Millisecond, "answered: out of flight")
	go func() { <-entered }()
	require.Equal(t, http.StatusNoContent, post("/api/v1/transactions/screen", "application/json").StatusCode, "admitted again")
}

// TestScreeningGateDisabled: with max 0 (COMPLYD_SCREENING_MAX_IN_FLIGHT=0) the gate is not in
// the way: screenings pass however many are in progress, none is refused, and InFlight (and so
// complyd_screening_in_flight) stays 0.
func TestScreeningGateDisabled(t *testing.T) {
	t.Parallel()
	var shed atomic.Int64
	gate := door.New(0, func() { shed.Add(1) }, restapi.Refusals(slog.New(slog.DiscardHandler)))
	srv := httptest.NewServer(gate.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})))
	t.Cleanup(srv.Close)
	for range 3 {
		resp, err := http.Post(srv.URL+"/api/v1/transactions/screen", "application/json", strings.NewReader(`{}`))
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusNoContent, resp.StatusCode)
	}
	require.Zero(t, shed.Load())
	require.Zero(t, gate.InFlight())
}
