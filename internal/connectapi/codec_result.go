package connectapi

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// The screening answer's JSON, written without protojson's reflection (issue 15).
//
// Every screening answered over /api/v1 or Connect with JSON is a ScreeningResult encoded by
// JSONCodec, and protojson walks it field by field through protoreflect: 11 % of the server's
// CPU in a profile at 1,000 screenings/s (REST, API keys), about 70 µs a screening on the
// 2-core host. appendScreeningResult writes the same document directly: the fields in
// declaration order under their JSON names, default values written out (EmitUnpopulated), unset
// messages and wrappers as null, strings escaped as protojson escapes them, numbers formatted
// as it formats them. Whatever it does not write the way protojson would (a string that is not
// valid UTF-8, a score that is not a finite number, a timestamp out of range) sends the whole
// message to protojson instead, so the answer, or the error, is protojson's.
// TestScreeningResultJSONMatchesProtojson compares the two on random results and on those edges;
// TestScreeningResultJSONFields fails when a field is added to the messages and not here. The
// batch endpoint's answer (ScreenTransactionsResponse) is written the same way, item by item.

// appendScreeningResult appends r's JSON to dst; ok is false (and dst unchanged) when r holds
// something only protojson writes.
func appendScreeningResult(dst []byte, r *complydv1.ScreeningResult) (out []byte, ok bool) {
	w := resultWriter{b: dst, ok: true}
	w.raw(`{"transactionId":`)
	w.str(r.GetTransactionId())
	w.raw(`,"externalId":`)
	w.str(r.GetExternalId())
	w.raw(`,"outcome":`)
	w.str(r.GetOutcome())
	w.raw(`,"riskLevel":`)
	w.str(r.GetRiskLevel())
	w.raw(`,"aggregateScore":`)
	w.float(r.GetAggregateScore())
	w.raw(`,"actions":`)
	w.strs(r.GetActions())
	w.raw(`,"riskBreakdown":[`)
	for i, b := range r.GetRiskBreakdown() {
		if i > 0 {
			w.raw(",")
		}
		w.breakdown(b)
	}
	w.raw(`],"triggeredRules":[`)
	for i, t := range r.GetTriggeredRules() {
		if i > 0 {
			w.raw(",")
		}
		w.rule(t)
	}
	w.raw(`],"totalLatencyMs":`)
	w.int(r.GetTotalLatencyMs())
	w.raw(`,"caseId":`)
	w.wrapped(r.GetCaseId())
	w.raw("}")
	if !w.ok {
		return dst, false
	}
	return w.b, true
}

// appendScreenTransactionsResponse appends the batch answer's JSON to dst the same way: each
// item's result by appendScreeningResult, its error (a refusal of that one transaction, rare)
// by protojson. ok is false (dst unchanged) when a result holds something only protojson writes.
func appendScreenTransactionsResponse(dst []byte, r *complydv1.ScreenTransactionsResponse) (out []byte, ok bool) {
	w := resultWriter{b: dst, ok: true}
	w.raw(`{"items":[`)
	for i, it := range r.GetItems() {
		if i > 0 {
			w.raw(",")
		}
		w.raw(`{"externalId":`)
		w.str(it.GetExternalId())
		w.raw(`,"result":`)
		if res := it.GetResult(); res == nil {
			w.raw("null")
		} else if w.b, ok = appendScreeningResult(w.b, res); !ok {
			return dst, false
		}
		w.raw(`,"error":`)
		if e := it.GetError(); e == nil {
			w.raw("null")
		} else {
			var err error
			if w.b, err = jsonOptions.MarshalAppend(w.b, e); err != nil {
				return dst, false
			}
		}
		w.raw("}")
		if !w.ok {
			return dst, false
		}
	}
	w.raw("]}")
	return w.b, true
}

// resultWriter appends JSON to b; ok turns false at the first value protojson must write.
type resultWriter struct {
	b  []byte
	ok bool
}

func (w *resultWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *resultWriter) int(n int32) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

func (w *resultWriter) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// float writes a double as protojson does (encoding/json's format: 'f', or 'e' below 1e-6 and
// from 1e21 on, with a one-digit negative exponent written without its leading zero); NaN and
// the infinities, which protojson writes as strings, are left to it.
func (w *resultWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.ok = false
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if n := len(w.b); format == 'e' && n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
		w.b[n-2] = w.b[n-1]
		w.b = w.b[:n-1]
	}
}

// str writes s as a JSON string escaped as protojson escapes it: '"', '\\' and the control
// characters below U+0020 (\b \f \n \r \t, others as \u00XX), nothing else.
func (w *resultWriter) str(s string) {
	if !utf8.ValidString(s) {
		w.ok = false // protojson refuses it
		return
	}
	w.b = append(w.b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= ' ' && c != '"' && c != '\\' {
			continue
		}
		w.b = append(w.b, s[start:i]...)
		switch c {
		case '"', '\\':
			w.b = append(w.b, '\\', c)
		case '\b':
			w.b = append(w.b, '\\', 'b')
		case '\f':
			w.b = append(w.b, '\\', 'f')
		case '\n':
			w.b = append(w.b, '\\', 'n')
		case '\r':
			w.b = append(w.b, '\\', 'r')
		case '\t':
			w.b = append(w.b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			w.b = append(w.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	w.b = append(w.b, s[start:]...)
	w.b = append(w.b, '"')
}

func (w *resultWriter) strs(ss []string) {
	w.raw("[")
	for i, s := range ss {
		if i > 0 {
			w.raw(",")
		}
		w.str(s)
	}
	w.raw("]")
}

// wrapped writes a google.protobuf.StringValue: its value, or null when unset.
func (w *resultWriter) wrapped(v *wrapperspb.StringValue) {
	if v == nil {
		w.raw("null")
		return
	}
	w.str(v.GetValue())
}

func (w *resultWriter) breakdown(b *complydv1.RiskBreakdown) {
	w.raw(`{"category":`)
	w.str(b.GetCategory())
	w.raw(`,"score":`)
	w.int(b.GetScore())
	w.raw(`,"outcome":`)
	w.str(b.GetOutcome())
	w.raw(`,"rulesTriggered":`)
	w.strs(b.GetRulesTriggered())
	w.raw(`,"latencyMs":`)
	w.int(b.GetLatencyMs())
	w.raw(`,"fx":`)
	if fx := b.GetFx(); fx == nil {
		w.raw("null")
	} else {
		w.raw(`{"currency":`)
		w.str(fx.GetCurrency())
		w.raw(`,"rateToNgn":`)
		w.str(fx.GetRateToNgn())
		w.raw(`,"amount":`)
		w.str(fx.GetAmount())
		w.raw(`,"amountNgn":`)
		w.str(fx.GetAmountNgn())
		w.raw(`,"rateUpdatedAt":`)
		w.timestamp(fx.GetRateUpdatedAt())
		w.raw("}")
	}
	w.raw(`,"skipped":`)
	w.bool(b.GetSkipped())
	w.raw(`,"skipReason":`)
	w.wrapped(b.GetSkipReason())
	w.raw("}")
}

func (w *resultWriter) rule(t *complydv1.TriggeredRule) {
	w.raw(`{"name":`)
	w.str(t.GetName())
	w.raw(`,"category":`)
	w.str(t.GetCategory())
	w.raw(`,"riskScore":`)
	w.int(t.GetRiskScore())
	w.raw(`,"details":`)
	w.str(t.GetDetails())
	w.raw(`,"createdBy":`)
	w.str(t.GetCreatedBy())
	w.raw(`,"kycSource":`)
	w.wrapped(t.GetKycSource())
	w.raw(`,"kycExternalRef":`)
	w.wrapped(t.GetKycExternalRef())
	w.raw(`,"outcome":`)
	w.str(t.GetOutcome())
	w.raw(`,"ruleVersion":`)
	w.int(t.GetRuleVersion())
	w.raw(`,"ruleId":`)
	w.str(t.GetRuleId())
	w.raw("}")
}

// timestamp writes a google.protobuf.Timestamp as protojson does (RFC 3339 in UTC with 0, 3, 6
// or 9 fractional digits), or null when unset; one outside protojson's range is left to it.
func (w *resultWriter) timestamp(ts *timestamppb.Timestamp) {
	if ts == nil {
		w.raw("null")
		return
	}
	secs, nanos := ts.GetSeconds(), ts.GetNanos()
	if secs < -62135596800 || secs > 253402300799 || nanos < 0 || nanos >= 1e9 {
		w.ok = false
		return
	}
	t := time.Unix(secs, int64(nanos)).UTC()
	w.b = append(w.b, '"')
	w.b = t.AppendFormat(w.b, "2006-01-02T15:04:05")
	switch {
	case nanos == 0:
	case nanos%1e6 == 0:
		w.b = append(w.b, '.')
		w.b = appendDigits(w.b, int(nanos/1e6), 3)
	case nanos%1e3 == 0:
		w.b = append(w.b, '.')
		w.b = appendDigits(w.b, int(nanos/1e3), 6)
	default:
		w.b = append(w.b, '.')
		w.b = appendDigits(w.b, int(nanos), 9)
	}
	w.b = append(w.b, 'Z', '"')
}

// appendDigits appends n zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	var buf [9]byte
	for i := width - 1; i >= 0; i-- {
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, buf[:width]...)
}
