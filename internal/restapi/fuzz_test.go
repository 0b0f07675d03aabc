package restapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/restapi"
)

// FuzzFacadeJSON is the fuzz target of the /api/v1 JSON bodies of screening, KYC and KYB: any
// body, on any of their body-taking routes, goes through the real facade (vanguard transcoding,
// the envelope) onto Connect handlers with the server's interceptors (protovalidate, the error
// mapping). The handlers never run: an innermost interceptor checks the message that reached
// it and answers a sentinel CONFLICT. Seeds (valid and invalid bodies) are in
// testdata/fuzz/FuzzFacadeJSON/.

// fuzzRoutes are the body-taking routes of ScreeningService, KycService and KybService.
var fuzzRoutes = []struct{ method, path string }{
	{http.MethodPost, "/api/v1/transactions/screen"},
	{http.MethodPost, "/api/v1/transactions/screen-batch"},
	{http.MethodPost, "/api/v1/kyc/applications"},
	{http.MethodPatch, "/api/v1/kyc/applications/app-1"},
	{http.MethodPatch, "/api/v1/kyc/applications/app-1/approve"},
	{http.MethodPatch, "/api/v1/kyc/applications/app-1/reject"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/upgrade-tier"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/verify-bvn"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/verify-nin"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/liveness-check"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/biometric-verify"},
	{http.MethodPost, "/api/v1/kyc/applications/app-1/face-match"},
	{http.MethodPost, "/api/v1/kyc/kyb/applications"},
	{http.MethodPatch, "/api/v1/kyc/kyb/applications/app-1"},
	{http.MethodPost, "/api/v1/kyc/kyb/applications/app-1/verify-cac"},
	{http.MethodPost, "/api/v1/kyc/kyb/applications/app-1/verify-directors"},
	{http.MethodPost, "/api/v1/kyc/kyb/applications/app-1/screen-beneficial-owners"},
	{http.MethodPost, "/api/v1/kyc/kyb/applications/app-1/run-screening"},
	{http.MethodPatch, "/api/v1/kyc/kyb/applications/app-1/approve"},
	{http.MethodPatch, "/api/v1/kyc/kyb/applications/app-1/reject"},
}

// reachedHandler is the sentinel the innermost interceptor answers: the body decoded and
// validated.
const reachedHandler = "fuzz: reached the handler"

// facadeBudget bounds what one request may allocate in the facade, the transcoder, the
// decoder and the validator.
func facadeBudget(n int) uint64 { return 16<<20 + 128*uint64(n) }

// newFuzzFacade builds the facade over the three services with the server's interceptors and
// a checking interceptor innermost. reached counts the requests that got through validation;
// bad receives what the checker found wrong with a message that did.
func newFuzzFacade(f *testing.F) (h http.Handler, reached *atomic.Int64, bad *atomic.Pointer[string]) {
	v, err := protovalidate.New()
	if err != nil {
		f.Fatal(err)
	}
	reached, bad = &atomic.Int64{}, &atomic.Pointer[string]{}
	fail := func(s string) { bad.CompareAndSwap(nil, &s) }
	check := connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			reached.Add(1)
			msg, ok := req.Any().(proto.Message)
			if !ok {
				fail("request is not a proto message")
				return nil, apperr.New(apperr.Conflict, reachedHandler)
			}
			if err := v.Validate(msg); err != nil {
				fail("a message that reached the handler does not validate: " + err.Error())
			}
			// The validated message survives both encodings unchanged.
			b, err := proto.Marshal(msg)
			if err != nil {
				fail("marshal: " + err.Error())
			}
			again := msg.ProtoReflect().New().Interface()
			if err := proto.Unmarshal(b, again); err != nil || !proto.Equal(msg, again) {
				fail("binary round trip changed the message")
			}
			j, err := protojson.Marshal(msg)
			if err != nil {
				fail("protojson marshal: " + err.Error())
			}
			again = msg.ProtoReflect().New().Interface()
			if err := protojson.Unmarshal(j, again); err != nil || !proto.Equal(msg, again) {
				fail("JSON round trip changed the message: " + string(j))
			}
			return nil, apperr.New(apperr.Conflict, reachedHandler)
		}
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts := append(connectapi.Options(connectapi.NewMetrics(prometheus.NewRegistry()), v, log, int(restapi.DefaultLimits.FileBodyBytes)), connect.WithInterceptors(check))
	var hs []connectapi.Handler
	p, sh := complydv1connect.NewTransactionServiceHandler(complydv1connect.UnimplementedTransactionServiceHandler{}, opts...)
	hs = append(hs, connectapi.Handler{Path: p, Name: complydv1connect.TransactionServiceName, Handler: sh})
	p, kh := complydv1connect.NewKycServiceHandler(complydv1connect.UnimplementedKycServiceHandler{}, opts...)
	hs = append(hs, connectapi.Handler{Path: p, Name: complydv1connect.KycServiceName, Handler: kh})
	p, bh := complydv1connect.NewKybServiceHandler(complydv1connect.UnimplementedKybServiceHandler{}, opts...)
	hs = append(hs, connectapi.Handler{Path: p, Name: complydv1connect.KybServiceName, Handler: bh})
	fc, err := restapi.New(hs, restapi.DefaultLimits, log)
	if err != nil {
		f.Fatal(err)
	}
	return fc, reached, bad
}

// FuzzFacadeJSON sends body to route (an index into fuzzRoutes) and checks:
//   - the answer is 400 VALIDATION_ERROR (the body does not decode or does not validate) or the
//     handler's sentinel 409: never a 5xx, never another status;
//   - the answer is the failure envelope, as JSON;
//   - a message that reached the handler validates again, and survives the binary and JSON
//     encodings unchanged;
//   - the request allocated no more than facadeBudget.
func FuzzFacadeJSON(f *testing.F) {
	f.Add(uint8(0), []byte(`{"externalId":"t-1","type":"TRANSFER","channel":"MOBILE_APP","amount":1500.75,"senderAccountNumber":"0123456789","senderName":"Ada","timestamp":"2026-11-22T02:00:00Z"}`))
	h, reached, bad := newFuzzFacade(f)
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		rt := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req := httptest.NewRequest(rt.method, rt.path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		before := reached.Load()

		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		h.ServeHTTP(rec, req)
		runtime.ReadMemStats(&m1)
		if n, budget := m1.TotalAlloc-m0.TotalAlloc, facadeBudget(len(body)); n > budget {
			t.Fatalf("%s %s with a %d-byte body allocated %d bytes, budget %d", rt.method, rt.path, len(body), n, budget)
		}
		if s := bad.Swap(nil); s != nil {
			t.Fatalf("%s %s %q: %s", rt.method, rt.path, body, *s)
		}

		var env struct {
			Success *bool `json:"success"`
			Error   struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Success == nil || *env.Success {
			t.Fatalf("%s %s %q: answer %d %q is not a failure envelope (%v)", rt.method, rt.path, body, rec.Code, rec.Body.Bytes(), err)
		}
		got := reached.Load() > before
		switch {
		case rec.Code == http.StatusConflict && env.Error.Message == reachedHandler && got:
		case rec.Code == http.StatusBadRequest && env.Error.Code == string(apperr.Validation) && !got:
		default:
			t.Fatalf("%s %s %q: answer %d %s %q (reached the handler: %v)", rt.method, rt.path, body, rec.Code, env.Error.Code, env.Error.Message, got)
		}
	})
}
