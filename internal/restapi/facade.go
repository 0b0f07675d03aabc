package restapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"connectrpc.com/vanguard"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/connectapi"
)

// envelopeDone marks an answer the facade wrote itself, already in the envelope.
const envelopeDone = "X-Complyd-Envelope"

// Facade serves /api/v1 over the Connect handlers.
type Facade struct {
	transcoder *vanguard.Transcoder
	created    *http.ServeMux
	log        *slog.Logger
	limits     Limits
}

// New builds the facade over the given (already authenticated) Connect handlers. Request bodies
// are bounded by LimitBodies, which must wrap the facade; l names the limits in its answers.
func New(hs []connectapi.Handler, l Limits, log *slog.Logger) (*Facade, error) {
	services := make([]*vanguard.Service, 0, len(hs))
	for _, h := range hs {
		// The handlers read and write JSON as the transcoder does (connectapi.JSONCodec), so a
		// body that needs no rewriting passes through as it is, in both directions.
		services = append(services, vanguard.NewService(h.Path, h.Handler,
			vanguard.WithTargetProtocols(vanguard.ProtocolConnect), vanguard.WithTargetCodecs(vanguard.CodecJSON, vanguard.CodecProto),
			// The transcoder's own default buffers up to 4 GiB, sized by the declared length.
			vanguard.WithMaxMessageBufferBytes(uint32(max(l.JSONBodyBytes, l.FileBodyBytes)))))
	}
	f := &Facade{created: createdMatcher(), log: log, limits: l}
	tc, err := vanguard.NewTranscoder(services, vanguard.WithUnknownHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(envelopeDone, "1")
		WriteFailure(w, apperr.Newf(apperr.NotFound, "no route %s %s", r.Method, r.URL.Path))
	})))
	if err != nil {
		return nil, err
	}
	f.transcoder = tc
	return f, nil
}

// ServeHTTP transcodes the request and wraps the answer in the spec's envelope.
func (f *Facade) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := connectapi.WithTransport(r.Context(), "rest")
	if r.Header.Get("Content-Type") == "" && r.Method != http.MethodGet && r.Method != http.MethodDelete {
		r.Header.Set("Content-Type", "application/json")
	}
	limited, _ := r.Body.(*limitedBody)
	max, timeout := f.limits.forRequest(r)
	if err := requireUTF8Body(r); err != nil {
		if limited != nil {
			if e := limited.failure(max, timeout); e != nil {
				err = e // the body's own limit or deadline, named as such
			}
		}
		w.Header().Set("Connection", "close")
		WriteFailure(w, err)
		return
	}
	// The body is re-wrapped in the envelope, so the transcoder must answer uncompressed.
	r.Header.Del("Accept-Encoding")
	if r.Method == http.MethodGet && r.URL.RawQuery != "" {
		dateOnlyBounds(r)
	}
	// Decide 201 before transcoding: vanguard rewrites the request's path to the procedure's.
	_, createdPattern := f.created.Handler(r)
	statusReport := wantsStatusReport(r)
	rec := &recorder{header: http.Header{}}
	f.transcoder.ServeHTTP(rec, r.WithContext(ctx))
	if limited != nil {
		if e := limited.failure(max, timeout); e != nil {
			w.Header().Set("Connection", "close")
			WriteFailure(w, e)
			return
		}
	}
	if rec.header.Get(envelopeDone) != "" {
		rec.header.Del(envelopeDone)
		for k, vs := range rec.header {
			w.Header()[k] = vs
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
		return
	}
	for k, vs := range rec.header {
		switch strings.ToLower(k) {
		case "content-type", "content-length", "content-encoding", "accept-encoding":
			continue
		}
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	st := rec.status
	if st == 0 {
		st = http.StatusOK
	}
	if st >= 400 {
		e, data := failureFrom(st, rec.body.Bytes())
		if st, ok := httpStatus[e.Code]; ok && st == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", "1")
		}
		f.writeFailure(w, e, data)
		return
	}
	if createdPattern != "" {
		st = http.StatusCreated
	}
	if statusReport && writeStatusReport(w, rec.body.Bytes()) {
		return
	}
	body := bytes.TrimSpace(rec.body.Bytes())
	if len(body) == 0 {
		body = []byte("null")
	}
	var out bytes.Buffer
	out.Grow(len(body) + 32)
	out.WriteString(`{"success":true,"data":`)
	// protojson varies its whitespace on purpose; answers are compacted so they are stable.
	if strings.HasPrefix(rec.header.Get("Content-Type"), "application/json") {
		out.Write(appendCompact(out.AvailableBuffer(), body))
	} else if err := json.Compact(&out, body); err != nil {
		out.Write(body)
	}
	out.WriteString("}")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(out.Len()))
	w.WriteHeader(st)
	_, _ = w.Write(out.Bytes())
}

func (f *Facade) writeFailure(w http.ResponseWriter, e *apperr.Error, data json.RawMessage) {
	st, ok := httpStatus[e.Code]
	if !ok {
		st = http.StatusInternalServerError
	}
	fe := failureEnvelope{Error: Failure{Code: string(e.Code), Message: e.Message, Details: e.Details, Data: data}}
	writeJSON(w, st, fe)
}

// dateOnlyBounds lets the list filters `from` and `to` (timestamps) be ISO 8601 dates as well:
// from=2026-01-31 is that day's start and to=2026-01-31 its end (both UTC, the API's time
// zone), so a date range includes its last day. Other values are left to the transcoder.
func dateOnlyBounds(r *http.Request) {
	q := r.URL.Query()
	changed := false
	for name, suffix := range map[string]string{"from": "T00:00:00Z", "to": "T23:59:59.999999999Z"} {
		v := q.Get(name)
		if len(v) != len("2006-01-02") {
			continue
		}
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			continue
		}
		q.Set(name, v+suffix)
		changed = true
	}
	if changed {
		r.URL.RawQuery = q.Encode()
	}
}

// requireUTF8Body refuses a JSON body that is not valid UTF-8 with VALIDATION_ERROR on "body",
// and otherwise puts the body back for the transcoder. The transcoder answers a body that does
// not decode with the decoder's message inside a google.rpc.Status; that message quotes the
// offending bytes, a Status with invalid UTF-8 does not marshal, and the client got 500
// INTERNAL instead of 400 (found by FuzzFacadeJSON). The transcoder reads the whole body to
// decode it anyway, so reading it here first costs no extra memory beyond the copy.
func requireUTF8Body(r *http.Request) *apperr.Error {
	if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodDelete {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apperr.Newf(apperr.PayloadTooLarge, "request body exceeds the %d-byte limit", mbe.Limit).
				WithData(map[string]any{"limitBytes": mbe.Limit})
		}
		return apperr.Invalid("body", "could not be read")
	}
	if !utf8.Valid(body) {
		return apperr.Invalid("body", "is not valid UTF-8")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}
