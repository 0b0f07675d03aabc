package restapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/connectapi"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// Failure is the failure envelope's error object.
type Failure struct {
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Details []apperr.FieldError `json:"details,omitempty"`
	Data    json.RawMessage     `json:"data,omitempty"`
}

type failureEnvelope struct {
	Success bool    `json:"success"`
	Error   Failure `json:"error"`
}

// WriteFailure writes the failure envelope with the status of e's code.
func WriteFailure(w http.ResponseWriter, e *apperr.Error) {
	f := Failure{Code: string(e.Code), Message: e.Message, Details: e.Details}
	if e.Data != nil {
		f.Data, _ = json.Marshal(e.Data)
	}
	st, ok := httpStatus[e.Code]
	if !ok {
		st = http.StatusInternalServerError
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	writeJSON(w, st, failureEnvelope{Error: f})
}

// WriteSuccess writes {success: true, data} with status.
func WriteSuccess(w http.ResponseWriter, st int, data any) {
	writeJSON(w, st, map[string]any{"success": true, "data": data})
}

func writeJSON(w http.ResponseWriter, st int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		st, b = http.StatusInternalServerError, []byte(`{"success":false,"error":{"code":"INTERNAL","message":"internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(st)
	_, _ = w.Write(b)
}

// recorder buffers the transcoder's answer so it can be wrapped in an envelope.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(st int) {
	if r.status == 0 {
		r.status = st
	}
}

// unknownParam is the transcoder's message for a query parameter that is no field of the request.
var unknownParam = regexp.MustCompile(`^unknown field in field path "([^"]+)"`)

// failureFrom reads a transcoded google.rpc.Status body and recovers the ErrorInfo detail that
// connectapi's error interceptor attached (the one mapping of a handler's error); failures that
// never reached a handler are named by their status.
func failureFrom(st int, body []byte) (*apperr.Error, json.RawMessage) {
	var s status.Status
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &s); err == nil {
		for _, d := range s.GetDetails() {
			var info complydv1.ErrorInfo
			if d.MessageIs(&info) && d.UnmarshalTo(&info) == nil {
				e := &apperr.Error{Code: apperr.Code(info.Code), Message: info.Message}
				for _, v := range info.Details {
					e.Details = append(e.Details, apperr.FieldError{Field: v.Field, Message: v.Message})
				}
				var data json.RawMessage
				if info.Data != nil {
					data, _ = protojson.Marshal(info.Data)
				}
				return e, data
			}
		}
		msg := s.GetMessage()
		if msg == "" {
			msg = http.StatusText(st)
		}
		// The transcoder reports an undecodable JSON body as an internal error; it is the
		// caller's mistake.
		if strings.HasPrefix(msg, "proto:") || strings.HasPrefix(msg, "unexpected EOF") {
			st = http.StatusBadRequest
			msg = "request body is not valid JSON for this route: " + strings.TrimSpace(strings.TrimPrefix(msg, "proto:"))
		}
		// A query parameter that names no field of the request is the caller's mistake too.
		if m := unknownParam.FindStringSubmatch(msg); m != nil {
			e := apperr.Invalid(m[1], "unknown query parameter")
			return e, nil
		}
		if st == http.StatusUnsupportedMediaType {
			msg = "Content-Type must be application/json"
		}
		code := codeForStatus(st)
		e := apperr.New(code, msg)
		if code == apperr.Validation {
			field := "body"
			// A query or path parameter the transcoder could not parse names itself:
			// `invalid parameter "from" value for type "message": ...`.
			if m := badParam.FindStringSubmatch(msg); m != nil {
				field = connectapi.JSONName(m[1])
				msg = "invalid value for " + field
				if field == "from" || field == "to" {
					msg += ": an RFC 3339 timestamp (2026-01-31T09:30:00Z) or a date (2026-01-31)"
				}
				e.Message = msg
			}
			e.Details = []apperr.FieldError{{Field: field, Message: msg}}
		}
		return e, nil
	}
	e := apperr.New(codeForStatus(st), http.StatusText(st))
	return e, nil
}

// Flush is a no-op: the whole answer is buffered to be enveloped (vanguard needs a Flusher).
func (r *recorder) Flush() {}

// badParam matches the transcoder's message for a parameter it could not parse.
var badParam = regexp.MustCompile(`^invalid parameter "([a-z0-9_.]+)"`)
