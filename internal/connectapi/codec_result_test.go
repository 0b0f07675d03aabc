package connectapi

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// protojsonCompact is what the codec wrote before appendScreeningResult: protojson with default
// values, without the whitespace protojson adds at random (the /api/v1 facade compacts it).
func protojsonCompact(t *testing.T, m proto.Message) (string, error) {
	t.Helper()
	b, err := protojson.MarshalOptions{EmitUnpopulated: true}.Marshal(m)
	if err != nil {
		return "", err
	}
	var c bytes.Buffer
	require.NoError(t, json.Compact(&c, b))
	return c.String(), nil
}

// TestScreeningResultJSONMatchesProtojson: the codec writes a screening's answer, and the batch
// endpoint's, with the very bytes protojson writes (compacted), for random results and on the
// edges of the string, number and timestamp encodings; where protojson fails, the codec fails
// the same way.
func TestScreeningResultJSONMatchesProtojson(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 11)) //nolint:gosec // reproducible test data
	strs := []string{"", "APPROVE", "AML-003 Structuring", "Ọlá Adébáyọ̀", "quote \" backslash \\ slash /",
		"tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f", "<script>&amp;</script>", "\u2028\u2029", "emoji 🇳🇬",
		"\ufffd literal replacement", strings.Repeat("x", 300)}
	floats := []float64{0, math.Copysign(0, -1), 42.5, 99.99, 100, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789012345678901234.0,
		-3.25, 0.1 + 0.2, math.SmallestNonzeroFloat64, math.MaxFloat64}
	pick := func() string { return strs[rng.IntN(len(strs))] }
	wrapped := func() *wrapperspb.StringValue {
		if rng.IntN(2) == 0 {
			return nil
		}
		return wrapperspb.String(pick())
	}
	list := func() []string {
		n := rng.IntN(4)
		if n == 0 && rng.IntN(2) == 0 {
			return nil
		}
		out := make([]string, n)
		for i := range out {
			out[i] = pick()
		}
		return out
	}
	random := func() *complydv1.ScreeningResult {
		r := &complydv1.ScreeningResult{TransactionId: pick(), ExternalId: pick(), Outcome: pick(), RiskLevel: pick(),
			AggregateScore: floats[rng.IntN(len(floats))], Actions: list(), TotalLatencyMs: rng.Int32() - 1<<30, CaseId: wrapped()}
		for range rng.IntN(7) {
			b := &complydv1.RiskBreakdown{Category: pick(), Score: rng.Int32N(101), Outcome: pick(), RulesTriggered: list(),
				LatencyMs: rng.Int32N(5000), Skipped: rng.IntN(2) == 0, SkipReason: wrapped()}
			if rng.IntN(3) == 0 {
				b.Fx = &complydv1.FxConversion{Currency: pick(), RateToNgn: pick(), Amount: pick(), AmountNgn: pick()}
				switch rng.IntN(5) {
				case 0: // unset
				case 1:
					b.Fx.RateUpdatedAt = &timestamppb.Timestamp{Seconds: rng.Int64N(4e9) - 1e9}
				case 2:
					b.Fx.RateUpdatedAt = &timestamppb.Timestamp{Seconds: rng.Int64N(4e9), Nanos: rng.Int32N(1000) * 1e6}
				case 3:
					b.Fx.RateUpdatedAt = &timestamppb.Timestamp{Seconds: rng.Int64N(4e9), Nanos: rng.Int32N(1e6) * 1e3}
				default:
					b.Fx.RateUpdatedAt = &timestamppb.Timestamp{Seconds: rng.Int64N(4e9), Nanos: rng.Int32N(1e9)}
				}
			}
			r.RiskBreakdown = append(r.RiskBreakdown, b)
		}
		for range rng.IntN(4) {
			r.TriggeredRules = append(r.TriggeredRules, &complydv1.TriggeredRule{Name: pick(), Category: pick(),
				RiskScore: rng.Int32N(101), Details: pick(), CreatedBy: pick(), KycSource: wrapped(), KycExternalRef: wrapped(), Outcome: pick(),
				RuleVersion: rng.Int32N(5), RuleId: pick()})
		}
		return r
	}
	check := func(r *complydv1.ScreeningResult) {
		t.Helper()
		want, wantErr := protojsonCompact(t, r)
		got, err := JSONCodec{}.MarshalAppend([]byte("prefix"), r)
		if wantErr != nil {
			require.Error(t, err, "protojson refused %v", r)
			return
		}
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(got), "prefix"))
		var c bytes.Buffer
		require.NoError(t, json.Compact(&c, got[len("prefix"):]))
		require.Equal(t, want, c.String())
		fast, ok := appendScreeningResult(nil, r)
		if ok {
			require.Equal(t, want, string(fast)) // written without protojson, not through the fallback
		}
	}
	fastOnes := 0
	for range 3000 {
		r := random()
		if _, ok := appendScreeningResult(nil, r); ok {
			fastOnes++
		}
		check(r)
	}
	require.Greater(t, fastOnes, 2500, "most random results take the fast path")

	// The batch endpoint's answer: items with a result, with an error instead (protojson writes
	// those), with neither.
	batchFast := 0
	for range 300 {
		resp := &complydv1.ScreenTransactionsResponse{}
		for range rng.IntN(6) {
			it := &complydv1.ScreenTransactionsItem{ExternalId: pick()}
			switch rng.IntN(4) {
			case 0:
				it.Error = &complydv1.ErrorInfo{Code: "DUPLICATE_EXTERNAL_ID", Message: pick(),
					Details: []*complydv1.FieldViolation{{Field: "externalId", Message: pick()}}}
				if rng.IntN(2) == 0 {
					data, err := structpb.NewStruct(map[string]any{"transactionId": pick(), "score": 12.5})
					require.NoError(t, err)
					it.Error.Data = data
				}
			case 1:
			default:
				it.Result = random()
			}
			resp.Items = append(resp.Items, it)
		}
		if _, ok := appendScreenTransactionsResponse(nil, resp); ok {
			batchFast++
		}
		want, wantErr := protojsonCompact(t, resp)
		got, err := JSONCodec{}.Marshal(resp)
		if wantErr != nil {
			require.Error(t, err)
			continue
		}
		require.NoError(t, err)
		var c bytes.Buffer
		require.NoError(t, json.Compact(&c, got))
		require.Equal(t, want, c.String())
	}
	require.Greater(t, batchFast, 200, "most random batch answers take the fast path")
	_, ok := appendScreenTransactionsResponse(nil, &complydv1.ScreenTransactionsResponse{Items: []*complydv1.ScreenTransactionsItem{
		{Result: &complydv1.ScreeningResult{AggregateScore: math.NaN()}}}})
	require.False(t, ok, "a result only protojson writes sends the whole batch to it")

	// The edges that go to protojson: invalid UTF-8, numbers JSON has no literal for,
	// timestamps out of range (protojson fails on them; a billion nanoseconds it writes).
	for _, r := range []*complydv1.ScreeningResult{
		{TransactionId: "bad \xff utf-8"},
		{CaseId: wrapperspb.String("\xc3")},
		{AggregateScore: math.NaN()}, {AggregateScore: math.Inf(1)}, {AggregateScore: math.Inf(-1)},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Seconds: 253402300800}}}}},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Seconds: -62135596801}}}}},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Nanos: -1}}}}},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Nanos: 1e9}}}}},
	} {
		_, ok := appendScreeningResult(nil, r)
		require.False(t, ok, "%v", r)
		check(r)
	}
	// And the edges it writes itself: the extremes of the range, an empty result.
	for _, r := range []*complydv1.ScreeningResult{
		{},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Seconds: 253402300799, Nanos: 999999999}}}}},
		{RiskBreakdown: []*complydv1.RiskBreakdown{{Fx: &complydv1.FxConversion{RateUpdatedAt: &timestamppb.Timestamp{Seconds: -62135596800}}}}},
	} {
		_, ok := appendScreeningResult(nil, r)
		require.True(t, ok, "%v", r)
		check(r)
	}
}

// TestScreeningResultJSONFields: appendScreeningResult and appendScreenTransactionsResponse know
// every field of the messages they write; a field added to them must be added there too (and to the random results above).
func TestScreeningResultJSONFields(t *testing.T) {
	names := func(m proto.Message) string {
		fs := m.ProtoReflect().Descriptor().Fields()
		var out []string
		for i := range fs.Len() {
			out = append(out, fs.Get(i).JSONName())
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	for m, want := range map[protoreflect.ProtoMessage]string{
		&complydv1.ScreeningResult{}:            "actions,aggregateScore,caseId,externalId,outcome,riskBreakdown,riskLevel,totalLatencyMs,transactionId,triggeredRules",
		&complydv1.RiskBreakdown{}:              "category,fx,latencyMs,outcome,rulesTriggered,score,skipReason,skipped",
		&complydv1.FxConversion{}:               "amount,amountNgn,currency,rateToNgn,rateUpdatedAt",
		&complydv1.TriggeredRule{}:              "category,createdBy,details,kycExternalRef,kycSource,name,outcome,riskScore,ruleId,ruleVersion",
		&complydv1.ScreenTransactionsResponse{}: "items",
		&complydv1.ScreenTransactionsItem{}:     "error,externalId,result",
	} {
		require.Equal(t, want, names(m), "%T", m)
	}
}

// BenchmarkScreeningResultJSON: the codec against protojson on a typical answer (six engines,
// two rules, a case), and on a batch answer of 100 of them.
//
//	go test ./internal/connectapi -run '^$' -bench BenchmarkScreeningResultJSON -benchmem
func BenchmarkScreeningResultJSON(b *testing.B) {
	r := &complydv1.ScreeningResult{TransactionId: "txn_01JDQ3ZK8W6V2M7S0C4B5N9E1R", ExternalId: "TXN-2026-11-27-000123",
		Outcome: "REVIEW", RiskLevel: "MEDIUM", AggregateScore: 47.5, Actions: []string{"CREATE_CASE", "NOTIFY_COMPLIANCE"},
		TotalLatencyMs: 4, CaseId: wrapperspb.String("case_01JDQ3ZK8X0000000000000000")}
	for _, c := range []string{"REGULATORY_COMPLIANCE", "IDENTITY_VERIFICATION", "SANCTIONS", "CUSTOM_RULES", "DECISION_ENGINE", "BEHAVIORAL"} {
		r.RiskBreakdown = append(r.RiskBreakdown, &complydv1.RiskBreakdown{Category: c, Score: 20, Outcome: "APPROVE", LatencyMs: 1,
			RulesTriggered: []string{}})
	}
	r.RiskBreakdown[0].RulesTriggered = []string{"AML-003"}
	r.TriggeredRules = []*complydv1.TriggeredRule{
		{Name: "AML-003 Structuring", Category: "REGULATORY_COMPLIANCE", RiskScore: 60, Details: "5 transfers in 24 hours just under the threshold", CreatedBy: "system", Outcome: "REVIEW"},
		{Name: "Velocity", Category: "BEHAVIORAL", RiskScore: 40, Details: "12 transactions in 60 minutes", CreatedBy: "system", Outcome: "REVIEW"},
	}
	batch := &complydv1.ScreenTransactionsResponse{}
	for range 100 {
		batch.Items = append(batch.Items, &complydv1.ScreenTransactionsItem{ExternalId: r.GetExternalId(), Result: r})
	}
	codec := func(dst []byte, m proto.Message) ([]byte, error) { return JSONCodec{}.MarshalAppend(dst, m) }
	for _, c := range []struct {
		name    string
		m       proto.Message
		size    int
		marshal func([]byte, proto.Message) ([]byte, error)
	}{
		{"batch100-codec", batch, 1 << 18, codec},
		{"batch100-protojson", batch, 1 << 18, jsonOptions.MarshalAppend},
		{"codec", r, 4096, codec},
		{"protojson", r, 4096, jsonOptions.MarshalAppend},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, c.size)
			for b.Loop() {
				var err error
				if buf, err = c.marshal(buf[:0], c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
