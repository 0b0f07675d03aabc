package idhttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/idhttp"
)

// FuzzProviderReply is the fuzz target of what a tenant's BYOL identity provider answers: the
// vendor is outside complyd's control, and its reply becomes verification results that are
// stored and returned as JSON. Seeds (vendor-shaped replies) are in
// testdata/fuzz/FuzzProviderReply/.

// FuzzProviderReply serves body with a status picked by status to a BVN, NIN, CAC, liveness or
// face-match call (picked by kind) and checks: the call either fails with identity.ErrOutage
// or answers a result whose confidence is a number in 0..1, whose raw reply is JSON, and that
// itself encodes as JSON (a NaN or an infinity could not be stored or returned).
func FuzzProviderReply(f *testing.F) {
	f.Add(uint8(0), uint8(0), []byte(`{"entity":{"first_name":"Adebayo","last_name":"Ogunleye","date_of_birth":"1985-03-14","confidence":0.93}}`))
	var reply atomic.Pointer[[]byte]
	var code atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(code.Load()))
		_, _ = w.Write(*reply.Load())
	}))
	f.Cleanup(srv.Close)
	cfg := vendorConfig(srv.URL)
	cfg.Endpoints.Liveness, cfg.Endpoints.FaceMatch = "/v2/biometrics/liveness", "/v2/biometrics/face-match"
	cfg.ResponseFields["isLive"], cfg.ResponseFields["match"] = "entity.is_live", "entity.match"
	cfg.SupportedVerifications = append(cfg.SupportedVerifications, identity.VerifyLiveness, identity.VerifyFaceMatch)
	p, err := idhttp.New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	img := identity.Image{Format: identity.FormatPNG, Bytes: []byte("\x89PNG\r\n\x1a\n")}

	f.Fuzz(func(t *testing.T, kind, status uint8, body []byte) {
		reply.Store(&body)
		code.Store([]int64{200, 200, 200, 404, 503}[int(status)%5])
		ctx := context.Background()
		check := identity.PersonCheck{Number: "22234567801", FirstName: "Adebayo", LastName: "Ogunleye", DateOfBirth: "1985-03-14"}
		var res any
		var conf float64
		var raw json.RawMessage
		switch kind % 5 {
		case 0, 1:
			call := p.CheckBVN
			if kind%5 == 1 {
				call = p.CheckNIN
			}
			r, e := call(ctx, check)
			res, conf, raw, err = r, r.Confidence, r.Raw, e
		case 2:
			r, e := p.LookupCAC(ctx, identity.CompanyLookup{RCNumber: "RC123456"})
			res, raw, err = r, r.Raw, e
		case 3:
			r, e := p.Liveness(ctx, identity.LivenessCheck{Selfie: img})
			res, conf, raw, err = r, r.Confidence, r.Raw, e
		case 4:
			r, e := p.FaceMatch(ctx, identity.FaceMatchCheck{Selfie: img, Reference: img})
			res, conf, raw, err = r, r.Confidence, r.Raw, e
		}
		if err != nil {
			if !errors.Is(err, identity.ErrOutage) {
				t.Fatalf("reply %q: error %v does not wrap ErrOutage", body, err)
			}
			return
		}
		if math.IsNaN(conf) || conf < 0 || conf > 1 {
			t.Fatalf("reply %q: confidence %v", body, conf)
		}
		if len(raw) > 0 && !json.Valid(raw) {
			t.Fatalf("reply %q: raw %q is not JSON", body, raw)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("reply %q: result %+v does not encode: %v", body, res, err)
		}
	})
}
