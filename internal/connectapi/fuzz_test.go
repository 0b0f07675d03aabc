package connectapi

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/tenancy"
)

// The fuzz targets of the screening request's text: the ISO 8601 timestamps, and the whole JSON
// body as the server reads it (protojson, protovalidate, then the mapping to the domain). Seeds
// are under testdata/fuzz/<Target>/.

// isoPattern is the proto's pattern of every ISO 8601 field of ScreenTransactionRequest, with
// its parts captured so the test can compute the instant on its own.
var isoPattern = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(:([0-9]{2})([.,]([0-9]{1,9}))?)?(Z|([+-])([0-9]{2})(:?([0-9]{2}))?)$`)

// isoOracle computes the instant of a pattern-conforming s from its digits, independently of
// the time package's parser; ok is false when a part is out of range (month 13, 31 April, hour
// 24, second 60, offset hour above 23) or the instant is outside years 1 to 9999 in UTC.
func isoOracle(s string) (t time.Time, ok bool) {
	m := isoPattern.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	y, mo, d, h, mi, sec := n(1), n(2), n(3), n(4), n(5), n(7)
	if mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	if d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return time.Time{}, false
	}
	ns := 0
	if m[9] != "" {
		ns, _ = strconv.Atoi((m[9] + "000000000")[:9])
	}
	off := 0
	if m[10] != "Z" {
		oh, om := n(12), n(14)
		if oh > 23 || om > 59 {
			return time.Time{}, false
		}
		off = (oh*60 + om) * 60
		if m[11] == "-" {
			off = -off
		}
	}
	t = time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC).Add(-time.Duration(off) * time.Second)
	// The instant must be one RFC 3339 and protobuf's Timestamp can carry, and not Go's zero
	// time (0001-01-01T00:00:00Z), which the service reads as "not given".
	return t, t.After(time.Time{}) && t.Year() <= 9999
}

// FuzzParseISO checks parseISO against isoOracle: every in-range string of the proto's pattern
// parses, to exactly the oracle's instant; whatever parses is UTC and, formatted back as RFC
// 3339, parses again to the same instant; every refusal is a VALIDATION_ERROR naming the field.
func FuzzParseISO(f *testing.F) {
	f.Add("2026-11-22T02:00:00.123456Z")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseISO("timestamp", s)
		want, inRange := isoOracle(s)
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.Validation || len(e.Details) != 1 || e.Details[0].Field != "timestamp" {
				t.Fatalf("parseISO(%q): refusal %#v is not a VALIDATION_ERROR naming timestamp", s, err)
			}
			if inRange {
				t.Fatalf("parseISO(%q) refused a valid ISO 8601 date-time (%v): %v", s, want, err)
			}
			return
		}
		if s == "" {
			if got != nil {
				t.Fatalf("parseISO(\"\") = %v, want nil", got)
			}
			return
		}
		if got == nil {
			t.Fatalf("parseISO(%q) = nil, nil", s)
		}
		if got.Location() != time.UTC {
			t.Fatalf("parseISO(%q) = %v, not UTC", s, got)
		}
		if isoPattern.MatchString(s) && inRange && !got.Equal(want) {
			t.Fatalf("parseISO(%q) = %v, want %v", s, got, want)
		}
		again, err := parseISO("timestamp", got.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(*got) {
			t.Fatalf("parseISO(%q) = %v; its RFC 3339 form %q parses to %v, %v", s, got, got.Format(time.RFC3339Nano), again, err)
		}
	})
}

// screenBodyBudget bounds what decoding, validating and mapping one request body may allocate.
func screenBodyBudget(n int) uint64 { return 4<<20 + 64*uint64(n) }

// FuzzScreenTransactionJSON reads any body as the server reads POST /api/v1/transactions/screen:
// protojson into ScreenTransactionRequest, protovalidate, then transactionFromProto. Whatever
// the bytes, each stage either refuses (a decode error, a validation violation, a
// VALIDATION_ERROR naming fields) or yields a transaction with a positive amount and a UTC
// timestamp; nothing panics, and the whole stays within screenBodyBudget.
func FuzzScreenTransactionJSON(f *testing.F) {
	f.Add([]byte(`{"externalId":"t-1","type":"TRANSFER","channel":"MOBILE_APP","amount":1500.75,"senderAccountNumber":"0123456789","senderName":"Ada","timestamp":"2026-11-22T02:00:00Z"}`))
	v, err := protovalidate.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		defer func() {
			runtime.ReadMemStats(&after)
			if n, budget := after.TotalAlloc-before.TotalAlloc, screenBodyBudget(len(body)); n > budget {
				t.Fatalf("a %d-byte body allocated %d bytes, budget %d", len(body), n, budget)
			}
		}()
		var m complydv1.ScreenTransactionRequest
		if err := protojson.Unmarshal(body, &m); err != nil {
			return
		}
		if err := v.Validate(&m); err != nil {
			if _, ok := err.(*protovalidate.ValidationError); !ok {
				t.Fatalf("validate: %T %v, want a *protovalidate.ValidationError", err, err)
			}
			return
		}
		tx, err := transactionFromProto(&m)
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.Validation || len(e.Details) == 0 {
				t.Fatalf("transactionFromProto refused with %#v, want a VALIDATION_ERROR with fields", err)
			}
			return
		}
		// The service then normalises and validates the domain transaction (screening.Service
		// does this before anything is stored); a refusal there is a VALIDATION_ERROR too.
		tx.Normalize()
		if err := tx.Validate(tenancy.TrustStrict); err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.Validation || len(e.Details) == 0 {
				t.Fatalf("Validate refused with %#v, want a VALIDATION_ERROR with fields", err)
			}
			return
		}
		if !tx.Amount.IsPositive() {
			t.Fatalf("amount %v from %v", tx.Amount, m.Amount)
		}
		if tx.Timestamp.IsZero() || tx.Timestamp.Location() != time.UTC {
			t.Fatalf("timestamp %v from %q", tx.Timestamp, m.Timestamp)
		}
		if strings.TrimSpace(tx.ExternalID) == "" && m.ExternalId != "" {
			t.Fatalf("external id %q lost", m.ExternalId)
		}
	})
}
